#!/usr/bin/env node
// `node bench/help.mjs [--runs N] [ENTRY…]`: how fast the `pathlab` command answers `--help`, beside
// a bare `node -e 0` in the same run (the machine's own start-up time, which the load of other work
// moves as much as it moves pathlab's). Each run is a fresh process; the runs of every row are
// interleaved (one of each row in turn, N times), so that a change of load touches every row
// alike. Rows: `node -e 0`, then for each ENTRY (default this checkout's compiled
// `dist/cli/main.js`; give another checkout's to compare) `pathlab --help` and `pathlab <command>
// --help` for every command. Prints per row the median, min and max wall-clock milliseconds and the
// median's ratio to `node -e 0`'s, whether it meets issue 42's target (a median ≤ 300 ms, or ≤ 5 ×
// `node -e 0`'s), and the load average before and after. Tests never time anything:
// test/cli/help.test.ts checks what `--help` loads instead.
import path from "node:path";
import { commandLine, loadText, root, timedNode } from "./processTiming.mjs";

const { runs, entries } = commandLine(process.argv.slice(2), 10);
const COMMANDS = [
  ...["sync", "score", "baseline", "validate", "audit", "query", "export"],
  ...["enqueue", "worker", "queue", "lake", "operations", "serve"],
];
const TARGET_MS = 300;
const TARGET_RATIO = 5;

const rows = [{ label: "node -e 0", words: ["-e", "0"] }];
for (const entry of entries) {
  const relative = path.relative(root, entry);
  const name =
    entries.length > 1
      ? `${relative.startsWith("..") || relative === "" ? entry : relative}: `
      : "";
  rows.push({ label: `${name}pathlab --help`, words: [entry, "--help"] });
  for (const command of COMMANDS) {
    rows.push({ label: `${name}pathlab ${command} --help`, words: [entry, command, "--help"] });
  }
}
for (const row of rows) row.times = [];

console.log(
  `${new Date().toISOString()}, load ${loadText()}, ${runs} runs of each row, interleaved`,
);
for (let run = 0; run < runs; run++) {
  for (const row of rows) row.times.push(timedNode(row.words));
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const baseline = median(rows[0].times);
const width = Math.max(...rows.map((row) => row.label.length));
console.log(
  `${"".padEnd(width)}  median ms  min ms  max ms  × node -e 0  target (≤ ${TARGET_MS} ms or ≤ ${TARGET_RATIO}×)`,
);
for (const row of rows) {
  const middle = median(row.times);
  const ratio = middle / baseline;
  const met = middle <= TARGET_MS || ratio <= TARGET_RATIO;
  const cells = [
    middle.toFixed(0).padStart(9),
    Math.min(...row.times)
      .toFixed(0)
      .padStart(6),
    Math.max(...row.times)
      .toFixed(0)
      .padStart(6),
    ratio.toFixed(2).padStart(11),
    row === rows[0] ? "" : met ? "met" : "MISSED",
  ];
  console.log(`${row.label.padEnd(width)}  ${cells.join("  ")}`);
}
console.log(`load after: ${loadText()}`);
