// The floor of `npm run bench -- replay`: `JSON.parse` of every body of a recording, in a fresh
// process. Each body is read from its file (untimed), then parsed (timed: wall time, and CPU time
// of every thread of this process, as the replay's CPU time is counted). Prints
// `{ bodies, bytes, parseMs, parseCpuMs }` as JSON. Usage: node bench/jsonFloor.mjs <recording>
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const directory = process.argv[2];
let bodies = 0;
let bytes = 0;
let parseMs = 0;
let parseCpuMs = 0;
let keep = 0;
for (const name of readdirSync(directory).sort()) {
  if (!name.endsWith(".body")) continue;
  const text = readFileSync(join(directory, name), "utf8");
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const value = JSON.parse(text);
  const cpu = process.cpuUsage(cpuStarted);
  parseMs += performance.now() - started;
  parseCpuMs += (cpu.user + cpu.system) / 1000;
  keep += typeof value === "object" ? 1 : 0; // the result is used, so the parse cannot be skipped
  bodies += 1;
  bytes += Buffer.byteLength(text);
}
console.log(JSON.stringify({ bodies, bytes, parseMs, parseCpuMs, keep }));
