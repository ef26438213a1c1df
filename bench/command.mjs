#!/usr/bin/env node
// `node bench/command.mjs [--runs N] [ENTRY…]`: times the `pathlab` command as a user runs it, each
// run a fresh process: `pathlab --help` (start-up) and a one-unit sync against the embedded sandbox
// (BTC 1h at a fixed clock, into a new database). ENTRY is the command's entry file, default this
// checkout's compiled `dist/cli/main.js`; give another checkout's (e.g. its `bin/pathlab.js`) to
// compare. Prints wall-clock medians and ranges, and the load average before and after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { commandLine, loadText, timedNode } from "./processTiming.mjs";

const { runs, entries } = commandLine(process.argv.slice(2), 5);

/** Wall-clock seconds of `node entry …commandArgs`, which must exit 0. */
function timed(entry, commandArgs) {
  return timedNode([entry, ...commandArgs]) / 1000;
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `median ${median.toFixed(2)} s (${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)})`;
}

console.log(`${new Date().toISOString()}, load ${loadText()}, ${runs} runs each`);
for (const entry of entries) {
  const help = [];
  const sync = [];
  for (let run = 0; run < runs; run++) {
    help.push(timed(entry, ["--help"]));
    const folder = mkdtempSync(path.join(tmpdir(), "pathlab-bench-"));
    try {
      const database = path.join(folder, "p.duckdb");
      const unit = ["--assets", "BTC", "--horizons", "1h", "--now", "2026-11-21T10:00:00Z"];
      sync.push(timed(entry, ["sync", ...unit, "--db", database]));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  console.log(`${entry}\n  --help: ${summary(help)}\n  one-unit sync: ${summary(sync)}`);
}
console.log(`load after: ${loadText()}`);
