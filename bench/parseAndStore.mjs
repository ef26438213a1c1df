// Two steps of `npm run bench -- replay` timed alone, in a fresh process: the built pathlab's byte
// parser over every path-set body of a recording, and the path sets that the sync stored (the
// reference database's `path_sets`) written again into a new database file with a job's DuckDB
// settings. Each unit is written once its sets are parsed, so one unit's sets are held at a time,
// as in the sync. No insight is recomputed, cross-checked or stored; nothing goes over HTTP.
// The bodies are read from their files, and each cache line is read once before the clock starts,
// as the floor (`jsonFloor.mjs`) decodes its text untimed. A body the byte parser refuses (not
// JSON to it, or holding an "N" or "I", as Python's NaN and Infinity do) is parsed with JSON.parse
// and its sets read one by one, as the sync does; a set that fails pathlab's checks is left out,
// as the sync leaves it out.
// Prints `{ bodies, bytes, refused, pathSets, storedSets, parseCpuMs, storeCpuMs, checksum }` as
// JSON: CPU time of every thread of this process (DuckDB's included), each step on its own. Exits
// 1 when it stores another number of sets than the reference holds. Prints `{ skipped }` instead
// when the built pathlab predates the modules it uses.
// Usage: node bench/parseAndStore.mjs <dist> <recording> <reference.duckdb> <new.duckdb>
// (<dist>: the built pathlab whose CLI replayed the recording).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, directory, reference, scratch] = process.argv.slice(2);
const MODULES = [
  "paths/predictionBytes.js",
  "paths/fromPrediction.js",
  "paths/pathSetError.js",
  "store/index.js",
];
const DEFAULTS = "jobs/harness/defaults.js";
const missing = [...MODULES, DEFAULTS].filter((path) => !existsSync(resolve(dist, path)));
if (missing.length > 0) {
  console.log(JSON.stringify({ skipped: `${dist} has no ${missing.join(", ")}` }));
  process.exit(0);
}
if (existsSync(scratch)) {
  console.error(`parseAndStore: ${scratch} exists; it writes a new database file only`);
  process.exit(2);
}
const built = (path) => import(pathToFileURL(resolve(dist, path)).href);
const { parsePredictionSetBytes, pathSetOfParsed } = await built(MODULES[0]);
const { pathSetFromPrediction } = await built(MODULES[1]);
const { PathSetError } = await built(MODULES[2]);
const { openStore, writeUnit } = await built(MODULES[3]);
const { jobStoreMemoryLimit, jobStoreThreads } = await built(DEFAULTS);
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const keyOf = (asset, startTime, timeIncrement) => `${asset}|${startTime}|${timeIncrement}`;

/** Per unit of the reference, the miners whose sets it stored. */
const stored = new Map();
const referenceStore = await openStore(reference, { readOnly: true });
await referenceStore.withConnection(async (connection) => {
  const reader = await connection.runAndReadAll(
    "SELECT asset, miner_uid, epoch(start_time)::BIGINT AS start, time_increment FROM path_sets",
  );
  for (const row of reader.getRowObjectsJS()) {
    const unit = keyOf(row.asset, Number(row.start), row.time_increment);
    if (!stored.has(unit)) stored.set(unit, new Set());
    stored.get(unit).add(row.miner_uid);
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
// Each cache line read once before the clock starts, as the floor's decoding to text reads it.
let checksum = 0;
for (const { bytes } of bodies)
  for (let index = 0; index < bytes.length; index += 64) checksum ^= bytes[index];

let refused = 0;
/** The sets of a body that pass pathlab's checks, as the sync reads them. */
function setsOf(bytes, prompt) {
  if (!bytes.includes(0x4e) && !bytes.includes(0x49)) {
    try {
      const parsed = parsePredictionSetBytes(bytes, prompt);
      return parsed
        .filter((set) => set.error === undefined)
        .map((set) => pathSetOfParsed(set, prompt));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof RangeError)) throw error;
    }
  }
  refused += 1;
  let records;
  try {
    records = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return [];
  }
  const sets = [];
  for (const record of Array.isArray(records) ? records : []) {
    try {
      sets.push(pathSetFromPrediction(record, prompt));
    } catch (error) {
      if (!(error instanceof PathSetError)) throw error;
    }
  }
  return sets;
}

const store = await openStore(scratch, {
  memoryLimit: jobStoreMemoryLimit(),
  threads: jobStoreThreads(),
});
/** Writes a unit's sets as a job does; a unit is written once all its stored sets are parsed. */
async function write(sets) {
  await writeUnit(store, {
    asset: sets[0].asset,
    horizon: sets[0].timeIncrement === 60 ? "1h" : "24h",
    forecastStartTimeUnix: sets[0].startTime,
    pathSets: sets.map((pathSet) => ({
      pathSet,
      source: "/v2/prediction/historical",
      fetchedAtUnix: pathSet.startTime,
    })),
  });
}

let parseCpuMs = 0;
let storeCpuMs = 0;
let pathSets = 0;
let storedSets = 0;
/** Per unit being parsed, its stored sets so far by miner (one set per miner, as `path_sets`). */
const units = new Map();
for (const { prompt, bytes } of bodies) {
  let started = cpuMs();
  const ready = [];
  for (const pathSet of setsOf(bytes, prompt)) {
    pathSets += 1;
    const unit = keyOf(pathSet.asset, pathSet.startTime, pathSet.timeIncrement);
    if (!stored.get(unit)?.has(pathSet.minerUid)) continue;
    if (!units.has(unit)) units.set(unit, new Map());
    units.get(unit).set(pathSet.minerUid, pathSet);
    if (units.get(unit).size === stored.get(unit).size) ready.push(unit);
  }
  parseCpuMs += cpuMs() - started;
  started = cpuMs();
  for (const unit of ready) {
    const sets = [...units.get(unit).values()];
    units.delete(unit);
    storedSets += sets.length;
    await write(sets);
  }
  storeCpuMs += cpuMs() - started;
}
const started = cpuMs();
await store.close();
storeCpuMs += cpuMs() - started;
const bytes = bodies.reduce((sum, body) => sum + body.bytes.byteLength, 0);
console.log(
  JSON.stringify({
    bodies: bodies.length,
    bytes,
    refused,
    pathSets,
    storedSets,
    parseCpuMs,
    storeCpuMs,
    checksum,
  }),
);
const expected = [...stored.values()].reduce((sum, miners) => sum + miners.size, 0);
if (storedSets !== expected) {
  console.error(`parseAndStore: stored ${storedSets} path sets; ${reference} holds ${expected}`);
  process.exit(1);
}
