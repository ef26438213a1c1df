#!/usr/bin/env node
// Adds lock-file entries for optional platform packages that the registry here does not serve.
//
// The npm registry reachable from our machines lacks some platform builds of DuckDB's bindings
// (darwin, win32, linux-arm64). `npm install` then leaves them out of package-lock.json, and
// `npm ci` refuses a lock that does not list every optional dependency. An entry with the
// package's os/cpu/libc lets `npm ci` skip it on other platforms without fetching anything.
// Run after any change of dependencies: `node scripts/complete-lockfile.mjs && npm install`.
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;

/** Platform of a package named `…[-/]<os>-<cpu>[-musl|-glibc]` (`@duckdb/node-bindings-linux-x64`, `@deno/linux-arm64-glibc`). */
function platformOf(name) {
  const match = /[-/](darwin|linux|win32)-(x64|arm64)(-musl|-glibc)?$/.exec(name);
  if (!match) return undefined;
  const [, os, cpu, libc] = match;
  const platform = { os: [os], cpu: [cpu] };
  if (os === "linux") platform.libc = [libc === "-musl" ? "musl" : "glibc"];
  return platform;
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const platform = platformOf(name);
    if (packages[key] !== undefined || platform === undefined) continue;
    const dev = entry.dev ? { dev: true } : {};
    packages[key] = { version, license: entry.license, ...dev, optional: true, ...platform };
    added += 1;
    console.log(`added ${key}@${version} (optional dependency of ${location || "the root"})`);
  }
}
if (added > 0) writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added > 0 ? `${added} entries added` : "lock file already complete");
