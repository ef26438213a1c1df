// The floor of `npm run bench -- replay`: `JSON.parse` of every body of a recording, in a fresh
// process. Each body is read from its file (untimed), then parsed (timed). Prints
// `{ bodies, bytes, parseMs }` as JSON. Usage: node bench/jsonFloor.mjs <recording>
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const directory = process.argv[2];
let bodies = 0;
let bytes = 0;
let parseMs = 0;
let keep = 0;
for (const name of readdirSync(directory).sort()) {
  if (!name.endsWith(".body")) continue;
  const text = readFileSync(join(directory, name), "utf8");
  const started = performance.now();
  const value = JSON.parse(text);
  parseMs += performance.now() - started;
  keep += typeof value === "object" ? 1 : 0; // the result is used, so the parse cannot be skipped
  bodies += 1;
  bytes += Buffer.byteLength(text);
}
console.log(JSON.stringify({ bodies, bytes, parseMs, keep }));
