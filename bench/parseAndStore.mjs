// Two steps of `npm run bench -- replay` timed alone, in a fresh process: the built pathlab's
// reading of every path-set body of a recording, and the path sets that the sync stored (the
// reference database's `path_sets`) written again into a new database file with the sync's DuckDB
// settings. Each body is read as the sync reads it: its `predictionSetsDecoder` (the byte parser)
// or, for a body the byte parser does not take as it is (`refused`), JSON.parse and the
// operation's record checks, as the client decodes it; a body that fails those (`undecodable`)
// fails the sync's request, and this script keeps nothing of it. Of a body's sets, the sync keeps
// one (it asks for one miner per request), as this script does: the set of the miner asked for,
// else the first, left out when its miner_uid or start_time is not the query's or it fails
// pathlab's checks. Each unit is written once the body holding the last of its stored sets is
// read; a later copy of a set already read is skipped, as the first valid copy is the one stored.
// No insight is recomputed, cross-checked or stored; nothing goes over HTTP. The bodies are read
// from their files, and each cache line is read once before the clock starts, as the floor
// (`jsonFloor.mjs`) decodes its text untimed.
// Prints `{ bodies, bytes, refused, undecodable, pathSets, duplicates, storedSets, parseCpuMs,
// storeCpuMs, checksum }` as JSON: CPU time of every thread of this process (DuckDB's included),
// each step on its own. Exits 1, naming the units, unless it writes every unit of the reference
// with its sets. Prints `{ skipped }` instead when the built pathlab predates what it uses.
// Usage: node bench/parseAndStore.mjs <dist> <recording> <reference.duckdb> <new.duckdb>
// (<dist>: the built pathlab whose CLI replayed the recording).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, directory, reference, scratch] = process.argv.slice(2);
/** What this script uses of the built pathlab, by module. */
const USES = {
  "jobs/sync/fetchPredictionSets.js": ["predictionSetsDecoder"],
  "client/streamed-decoder.js": ["DecodeAsUsual"],
  "paths/predictionBytes.js": ["pathSetOfParsed"],
  "paths/fromPrediction.js": ["pathSetFromPrediction"],
  "paths/pathSetError.js": ["PathSetError"],
  "domain/operations/predictions.js": ["predictionOperations"],
  "domain/errors.js": ["DecodeError"],
  "domain/naming.js": ["neutralNaming"],
  "store/index.js": ["openStore", "writeUnit"],
  "jobs/harness/defaults.js": ["jobStoreOptions", "SYNC_STORE_MEMORY"],
};
const built = {};
const missing = [];
for (const [path, names] of Object.entries(USES)) {
  const file = resolve(dist, path);
  const module = existsSync(file) ? await import(pathToFileURL(file).href) : {};
  for (const name of names) {
    if (module[name] !== undefined) built[name] = module[name];
    else missing.push(`${name} (${path})`);
  }
}
if (missing.length > 0) {
  console.log(JSON.stringify({ skipped: `${dist} has no ${missing.join(", ")}` }));
  process.exit(0);
}
if (existsSync(scratch) || existsSync(`${scratch}.wal`)) {
  console.error(`parseAndStore: ${scratch} or its .wal exists; it writes a new database file only`);
  process.exit(2);
}
const { predictionSetsDecoder, DecodeAsUsual, pathSetOfParsed, pathSetFromPrediction } = built;
const { PathSetError, openStore, writeUnit, jobStoreOptions, SYNC_STORE_MEMORY } = built;
const { predictionOperations, DecodeError, neutralNaming } = built;
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
  const miners = query.getAll("miner"); // one `miner=` per miner asked for, as the client sends them
  bodies.push({
    prompt,
    minerUid: miners.length === 1 ? Number(miners[0]) : undefined,
    startUnix: Date.parse(query.get("start_time")) / 1000,
    maxSets: miners.length > 0 ? miners.length : Infinity,
    bytes: readFileSync(join(directory, name.replace(/\.json$/, ".body"))),
  });
}
// Each cache line read once before the clock starts, as the floor's decoding to text reads it.
let checksum = 0;
for (const { bytes } of bodies)
  for (let index = 0; index < bytes.length; index += 64) checksum ^= bytes[index];

const utf8 = new TextDecoder("utf-8");
let refused = 0;
let undecodable = 0;
/**
 * The set of a body that the sync keeps, read as the sync reads it: the miner's asked for, else
 * the first; none when its miner_uid or start_time is not the query's, or it fails the checks.
 */
function setsOf({ prompt, minerUid, startUnix, maxSets, bytes }) {
  const decoding = predictionSetsDecoder(prompt, {}, maxSets).start();
  decoding.push(bytes);
  const decoded = decoding.finish();
  let candidates;
  if (decoded instanceof DecodeAsUsual) {
    // As the client decodes a body: JSON.parse, then the operation's record checks. A body that
    // fails either fails the sync's request (ResponseDecodeError), and with it the unit.
    refused += 1;
    let records;
    try {
      records = predictionOperations.historical.decode(JSON.parse(utf8.decode(decoded.body)), {
        naming: neutralNaming, // the body's fields are the same under every naming
      });
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof DecodeError)) throw error;
      undecodable += 1;
      return [];
    }
    candidates = records.map((record) => ({
      minerUid: record.miner_uid,
      startTime: record.start_time,
      pathSet: () => pathSetFromPrediction(record, prompt),
    }));
  } else {
    candidates = decoded.parsed.map((set) => ({
      minerUid: set.minerUid,
      startTime: set.startTime,
      pathSet: () => pathSetOfParsed(set, prompt),
    }));
  }
  const set = candidates.find((candidate) => candidate.minerUid === minerUid) ?? candidates[0];
  if (set === undefined || set.minerUid !== minerUid || set.startTime !== startUnix) return [];
  try {
    return [set.pathSet()];
  } catch (error) {
    if (!(error instanceof PathSetError)) throw error;
    return [];
  }
}

// the DuckDB settings a sync opens its database file with
const store = await openStore(scratch, jobStoreOptions(scratch, SYNC_STORE_MEMORY));
/** Writes a unit's sets as a job does. */
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
let duplicates = 0;
let storedSets = 0;
/** Per unit whose sets are being read, its stored sets read so far, by miner. */
const units = new Map();
const written = new Set();
for (const body of bodies) {
  let started = cpuMs();
  const ready = [];
  for (const pathSet of setsOf(body)) {
    pathSets += 1;
    const unit = keyOf(pathSet.asset, pathSet.startTime, pathSet.timeIncrement);
    const miners = stored.get(unit);
    if (miners === undefined || !miners.has(pathSet.minerUid)) continue;
    if (!written.has(unit) && !units.has(unit)) units.set(unit, new Map());
    const read = units.get(unit);
    if (read === undefined || read.has(pathSet.minerUid)) {
      duplicates += 1; // a later copy of a set already read
      continue;
    }
    read.set(pathSet.minerUid, pathSet);
    if (read.size === miners.size) {
      ready.push(unit);
      written.add(unit);
    }
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
    undecodable,
    pathSets,
    duplicates,
    storedSets,
    parseCpuMs,
    storeCpuMs,
    checksum,
  }),
);
const unwritten = [...stored.keys()].filter((unit) => !written.has(unit));
if (unwritten.length > 0) {
  console.error(`parseAndStore: no sets read for every stored miner of ${unwritten.join(", ")}`);
  process.exit(1);
}
