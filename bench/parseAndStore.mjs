// The part of `npm run bench -- replay` that no speed-up of the rest can remove: the built
// pathlab's byte parser over every path-set body of a recording, then the path sets that the sync
// stored (the reference database's `path_sets`) written again, unit by unit, into a fresh database
// file on one DuckDB thread, as a job's store is. No insight is recomputed, cross-checked or
// stored, and nothing goes over HTTP. Runs in a fresh process. The bodies are read from their
// files and each byte is read once before the clock starts, as the floor (`jsonFloor.mjs`) decodes
// its text untimed. A body the byte parser refuses is parsed with JSON.parse, as the sync does.
// Prints `{ bodies, bytes, pathSets, storedSets, parseCpuMs, storeCpuMs, checksum }` as JSON: CPU
// time of every thread of this process (DuckDB's included), each phase on its own.
// Usage: node bench/parseAndStore.mjs <dist> <recording> <reference.duckdb> <scratch.duckdb>
// (<dist>: the built pathlab whose CLI replayed the recording).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, directory, reference, scratch] = process.argv.slice(2);
const built = (path) => import(pathToFileURL(resolve(dist, path)).href);
const { pathSetsFromPredictionBytes } = await built("paths/predictionBytes.js");
const { openStore, writeUnit } = await built("store/index.js");
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const keyOf = (asset, startTime, timeIncrement) => `${asset}|${startTime}|${timeIncrement}`;

const stored = new Set();
const referenceStore = await openStore(reference, { readOnly: true });
await referenceStore.withConnection(async (connection) => {
  const reader = await connection.runAndReadAll(
    "SELECT asset, miner_uid, epoch(start_time)::BIGINT AS start, time_increment FROM path_sets",
  );
  for (const row of reader.getRowObjectsJS()) {
    stored.add(`${keyOf(row.asset, Number(row.start), row.time_increment)}|${row.miner_uid}`);
  }
});
await referenceStore.close();

const bodies = [];
for (const name of readdirSync(directory).sort()) {
  if (!name.endsWith("-v2-prediction-historical.json")) continue;
  const exchange = JSON.parse(readFileSync(join(directory, name), "utf8"));
  if (exchange.status !== 200) continue;
  const query = new URLSearchParams(exchange.query);
  const prompt = {
    asset: query.get("asset"),
    timeIncrement: Number(query.get("time_increment")),
    timeLength: Number(query.get("time_length")),
  };
  bodies.push({ prompt, bytes: readFileSync(join(directory, name.replace(/\.json$/, ".body"))) });
}
// Each cache line of the bodies read once before the clock starts, as the floor's decoding to text
// reads them: the first read of pages the kernel has just filled is costly on a virtual machine
// (0.9 s for these 624 MB on the bench's machine, against 1.1 s to parse them once read).
let checksum = 0;
for (const { bytes } of bodies)
  for (let index = 0; index < bytes.length; index += 64) checksum ^= bytes[index];

let started = cpuMs();
const units = new Map();
let pathSets = 0;
for (const { prompt, bytes } of bodies) {
  let sets;
  try {
    sets = pathSetsFromPredictionBytes(bytes, prompt);
  } catch {
    JSON.parse(bytes.toString("utf8"));
    continue;
  }
  for (const pathSet of sets) {
    pathSets += 1;
    const unit = keyOf(pathSet.asset, pathSet.startTime, pathSet.timeIncrement);
    if (!stored.has(`${unit}|${pathSet.minerUid}`)) continue;
    if (!units.has(unit)) units.set(unit, []);
    units.get(unit).push(pathSet);
  }
}
const parseCpuMs = cpuMs() - started;

const store = await openStore(scratch, { threads: 1 });
started = cpuMs();
let storedSets = 0;
for (const sets of units.values()) {
  const [first] = sets;
  storedSets += sets.length;
  await writeUnit(store, {
    asset: first.asset,
    horizon: first.timeIncrement === 60 ? "1h" : "24h",
    forecastStartTimeUnix: first.startTime,
    pathSets: sets.map((pathSet) => ({
      pathSet,
      source: "/v2/prediction/historical",
      fetchedAtUnix: first.startTime,
    })),
  });
}
await store.close();
const storeCpuMs = cpuMs() - started;
const bytes = bodies.reduce((sum, body) => sum + body.bytes.byteLength, 0);
console.log(
  JSON.stringify({
    bodies: bodies.length,
    bytes,
    pathSets,
    storedSets,
    parseCpuMs,
    storeCpuMs,
    checksum,
  }),
);
