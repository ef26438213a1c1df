#!/usr/bin/env node
/**
 * `npm test`'s checks before its tests: the build (`dist/`, which the tests of the command run),
 * tsc's check of every file, ESLint and Prettier's check. Each is one single-threaded process, so
 * they run in two lanes at once (a 2-core machine is done in about half the time): the build then
 * tsc's check, which reads the examples' `pathlab/*` imports from the built `dist/`, and ESLint then
 * Prettier. Each one's output is printed whole when it ends, under its name. Exits 1 when any
 * failed, once all have ended.
 */
import { spawn } from "node:child_process";

const LANES = [
  ["build", "typecheck"],
  ["lint:code", "format:check"],
];

/** Runs `npm run <script>`; resolves to its exit code and everything it printed. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (data) => (output += data));
    child.stderr.on("data", (data) => (output += data));
    child.on("error", (error) => resolve({ code: 1, output: `${error.message}\n` }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const failed = [];
async function lane(scripts) {
  for (const script of scripts) {
    const { code, output } = await run(script);
    process.stdout.write(`> ${script}: ${code === 0 ? "ok" : `failed (exit ${code})`}\n${output}`);
    if (code !== 0) failed.push(script);
  }
}
await Promise.all(LANES.map(lane));
if (failed.length > 0) {
  process.stderr.write(`checks failed: ${failed.join(", ")}\n`);
  process.exit(1);
}
