// The floor of `npm run bench -- replay`: `JSON.parse` of every body of a recording, in a fresh
// process. Every body is read from its file and decoded to text first (untimed), then all are
// parsed in one timed window: wall time, and CPU time of every thread of this process, as the
// replay's CPU time is counted (the garbage collector's threads included). Prints
// `{ bodies, bytes, parseMs, parseCpuMs }` as JSON. Usage: node bench/jsonFloor.mjs <recording>
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const directory = process.argv[2];
const texts = readdirSync(directory)
  .filter((name) => name.endsWith(".body"))
  .sort()
  .map((name) => readFileSync(join(directory, name), "utf8"));
let keep = 0;
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (const text of texts) {
  // The result is used, so the parse cannot be skipped.
  keep += typeof JSON.parse(text) === "object" ? 1 : 0;
}
const cpu = process.cpuUsage(cpuStarted);
const parseMs = performance.now() - started;
const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
console.log(
  JSON.stringify({
    bodies: texts.length,
    bytes,
    parseMs,
    parseCpuMs: (cpu.user + cpu.system) / 1000,
    keep,
  }),
);
