/**
 * The store: writing a 10-miner ensemble (10 path sets of 1,000 × 289) as one unit, rewriting it,
 * reading it back, and the layouts that were measured and not chosen. (Over 300 lines: the
 * rejected layouts' writers live here, beside the worker that times them, and nowhere in src/.)
 *
 * DuckDB's API is asynchronous and the harness times synchronous functions, so the store work runs
 * in a worker thread (this same file, started below) and each timed function blocks on
 * `Atomics.wait` until the worker has finished the whole operation, commit included. The timing
 * thus covers the full write as a job would see it, plus ~0.1 ms of signalling.
 */

import {
  DuckDBDataChunk,
  BIGINT,
  DOUBLE,
  INTEGER,
  LIST,
  SMALLINT,
  listValue,
} from "@duckdb/node-api";
import type {
  DuckDBBigIntVector,
  DuckDBConnection,
  DuckDBDoubleVector,
  DuckDBIntegerVector,
  DuckDBSmallIntVector,
} from "@duckdb/node-api";
import { mkdtempSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { readPathSets } from "../../src/store/readPathSets.ts";
import { timestampOfUnix } from "../../src/store/timestamps.ts";
import { writeUnit, type StoreUnit } from "../../src/store/writeUnit.ts";
import {
  defineSuite,
  MINERS,
  PATHS_PER_MINER,
  POINTS,
  readBenchData,
  TIME_INCREMENT,
  type BenchCase,
} from "../harness.ts";

/** The operations the worker performs, by number (index into `operations` below). */
const OPERATIONS = [
  "prepare",
  "writeNewUnit",
  "rewriteUnit",
  "readEnsemble",
  "writeOneMiner",
  "writeRowByRow",
  "writeBlobs",
  "writeLongTable",
  "writeDefaultRowGroups",
] as const;
type Operation = (typeof OPERATIONS)[number];

/** control[0]: 0 idle, 1 requested, 2 done, 3 failed; control[1]: the operation's number. */
interface Shared {
  readonly control: Int32Array;
  /** The bench data folder, as UTF-8 bytes (length in control[2]). */
  readonly text: Uint8Array;
  /** Where the worker keeps its DuckDB files (made and removed by the main thread). */
  readonly folder: string;
}

const START_TIME = 1772063100;

// ── the worker: runs each requested operation on its own DuckDB files ────────────────────────

async function workerMain(shared: Shared): Promise<void> {
  const { control, text, folder } = shared;
  let operations: Record<Operation, () => Promise<unknown>> | undefined;
  const prepare = async () => {
    const directory = new TextDecoder().decode(text.slice(0, control[2]));
    operations = await makeOperations(directory, folder);
  };
  parentPort?.postMessage("ready");
  for (;;) {
    // A blocking wait: the worker has nothing pending between operations. (Atomics.waitAsync is
    // never woken while the main thread blocks in Atomics.wait, on Node 20.)
    while (Atomics.load(control, 0) !== 1) Atomics.wait(control, 0, Atomics.load(control, 0));
    const operation = OPERATIONS[control[1]];
    try {
      if (operation === "prepare") await prepare();
      else await operations![operation]();
      Atomics.store(control, 0, 2);
    } catch (error) {
      // written straight to fd 2: a worker's console goes through the main thread, which is blocked
      writeSync(2, `bench store worker: ${operation} failed: ${(error as Error).stack}\n`);
      Atomics.store(control, 0, 3);
    }
    Atomics.notify(control, 0);
  }
}

function unitOf(miners: readonly Float64Array[], startTime: number): StoreUnit {
  return {
    asset: "BTC",
    horizon: "24h",
    forecastStartTimeUnix: startTime,
    pathSets: miners.map(
      (values, index): { pathSet: PathSet; source: string; fetchedAtUnix: number } => ({
        pathSet: {
          asset: "BTC",
          minerUid: index,
          startTime,
          timeIncrement: TIME_INCREMENT,
          nPaths: PATHS_PER_MINER,
          nPoints: POINTS,
          values,
        },
        source: "bench",
        fetchedAtUnix: startTime,
      }),
    ),
  };
}

async function makeOperations(
  dataDirectory: string,
  folder: string,
): Promise<Record<Operation, () => Promise<unknown>>> {
  const { miners } = readBenchData(dataDirectory);
  const oneMiner = miners.slice(0, 1);
  const chosen = await openStore(join(folder, "chosen.duckdb"));
  const rewritten = await openStore(join(folder, "rewritten.duckdb"));
  await writeUnit(rewritten, unitOf(miners, START_TIME));
  const single = await openStore(join(folder, "one-miner.duckdb"));
  const rowByRow = await openStore(join(folder, "row-by-row.duckdb"));
  const blobs = await variantStore(join(folder, "blobs.duckdb"), CREATE_BLOBS);
  const longTable = await variantStore(join(folder, "long.duckdb"), CREATE_LONG);
  const defaultRowGroups = await openStore(join(folder, "default-row-groups.duckdb"), {
    rowGroupSize: 122880,
  });
  const counters = {
    chosen: 0,
    single: 0,
    rowByRow: 0,
    blobs: 0,
    longTable: 0,
    defaultRowGroups: 0,
  };
  const next = (name: keyof typeof counters) => START_TIME + ++counters[name] * TIME_INCREMENT;
  return {
    prepare: async () => undefined,
    writeNewUnit: () => writeUnit(chosen, unitOf(miners, next("chosen"))),
    rewriteUnit: () => writeUnit(rewritten, unitOf(miners, START_TIME)),
    readEnsemble: () =>
      readPathSets(rewritten, {
        asset: "BTC",
        startTime: START_TIME,
        timeIncrement: TIME_INCREMENT,
      }),
    writeOneMiner: () => writeUnit(single, unitOf(oneMiner, next("single"))),
    writeRowByRow: () => writeRowByRow(rowByRow, oneMiner, next("rowByRow")),
    writeBlobs: () => writeBlobs(blobs, oneMiner, next("blobs")),
    writeLongTable: () => writeLongTable(longTable, oneMiner, next("longTable")),
    writeDefaultRowGroups: () =>
      writeUnit(defaultRowGroups, unitOf(miners, next("defaultRowGroups"))),
  };
}

/** Naive baseline: the same rows through the appender one row and one list value at a time. */
async function writeRowByRow(store: Store, miners: readonly Float64Array[], startTime: number) {
  await store.withTransaction(async (connection) => {
    const ids = await upsertPathSetRows(connection, miners.length, startTime);
    const appender = await connection.createAppender("path_values");
    miners.forEach((values, miner) => {
      for (let path = 0; path < PATHS_PER_MINER; path++) {
        appender.appendBigInt(BigInt(ids[miner]));
        appender.appendInteger(path);
        appender.appendList(
          listValue(Array.from(values.subarray(path * POINTS, (path + 1) * POINTS))),
          LIST(DOUBLE),
        );
        appender.endRow();
      }
    });
    appender.flushSync();
    appender.closeSync();
  });
}

async function upsertPathSetRows(connection: DuckDBConnection, count: number, startTime: number) {
  const ids: number[] = [];
  for (let miner = 0; miner < count; miner++) {
    const reader = await connection.runAndReadAll(
      `INSERT INTO path_sets (asset, miner_uid, start_time, time_increment, time_length, n_paths,
         n_points, source, fetched_at) VALUES ('BTC', $miner, $start, 300, 86400,
         1000, 289, 'bench', $start) RETURNING id`,
      { miner, start: timestampOfUnix(startTime) },
    );
    ids.push(Number(reader.getRowsJS()[0][0]));
  }
  return ids;
}

const CREATE_BLOBS = `CREATE TABLE path_blobs (path_set_id BIGINT, path INTEGER, prices BLOB)`;
const CREATE_LONG = `CREATE TABLE path_longs (path_set_id BIGINT, path INTEGER, point SMALLINT, price DOUBLE)`;

async function variantStore(path: string, createTable: string): Promise<Store> {
  const store = await openStore(path);
  await store.withTransaction((connection) => connection.run(createTable));
  return store;
}

/** Variant: each path's 289 doubles as one BLOB of raw bytes (fast, lossless, opaque to SQL). */
async function writeBlobs(store: Store, miners: readonly Float64Array[], startTime: number) {
  await store.withTransaction(async (connection) => {
    const ids = await upsertPathSetRows(connection, miners.length, startTime);
    const appender = await connection.createAppender("path_blobs");
    miners.forEach((values, miner) => {
      for (let path = 0; path < PATHS_PER_MINER; path++) {
        appender.appendBigInt(BigInt(ids[miner]));
        appender.appendInteger(path);
        appender.appendBlob(
          new Uint8Array(values.buffer, values.byteOffset + path * POINTS * 8, POINTS * 8),
        );
        appender.endRow();
      }
    });
    appender.flushSync();
    appender.closeSync();
  });
}

/** Variant: one row per price (path set, path, point, price), through data chunks. */
async function writeLongTable(store: Store, miners: readonly Float64Array[], startTime: number) {
  await store.withTransaction(async (connection) => {
    const ids = await upsertPathSetRows(connection, miners.length, startTime);
    const appender = await connection.createAppender("path_longs");
    const total = PATHS_PER_MINER * POINTS;
    miners.forEach((values, miner) => {
      const id = BigInt(ids[miner]);
      for (let first = 0; first < total; first += 2048) {
        const rows = Math.min(2048, total - first);
        const chunk = DuckDBDataChunk.create([BIGINT, INTEGER, SMALLINT, DOUBLE], rows);
        const idColumn = chunk.getColumnVector(0) as DuckDBBigIntVector;
        const pathColumn = chunk.getColumnVector(1) as DuckDBIntegerVector;
        const pointColumn = chunk.getColumnVector(2) as DuckDBSmallIntVector;
        const priceColumn = chunk.getColumnVector(3) as DuckDBDoubleVector;
        for (let row = 0; row < rows; row++) {
          const index = first + row;
          idColumn.setItem(row, id);
          pathColumn.setItem(row, (index / POINTS) | 0);
          pointColumn.setItem(row, index % POINTS);
          priceColumn.setItem(row, values[index]);
        }
        idColumn.flush();
        pathColumn.flush();
        pointColumn.flush();
        priceColumn.flush();
        appender.appendDataChunk(chunk);
      }
    });
    appender.flushSync();
    appender.closeSync();
  });
}

// ── the main thread: the suite, whose timed functions wait for the worker ────────────────────

let shared: Shared | undefined;

if (!isMainThread && (workerData as { benchStoreWorker?: Shared } | null)?.benchStoreWorker) {
  await workerMain((workerData as { benchStoreWorker: Shared }).benchStoreWorker);
} else if (isMainThread) {
  shared = {
    control: new Int32Array(new SharedArrayBuffer(16)),
    text: new Uint8Array(new SharedArrayBuffer(4096)),
    folder: mkdtempSync(join(tmpdir(), "pathlab-bench-store-")),
  };
  // the worker never ends on its own (it is unref'd and killed with the process): clean up here
  const { folder } = shared;
  process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  // The worker runs this file under tsx: Node 20 does not pass loader hooks to workers, so a
  // one-line bootstrap registers tsx there first.
  const bootstrap = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { benchStoreWorker: shared } });
  worker.unref();
  await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/** Runs `operation` in the worker and blocks until it is done (throws if it failed). */
function run(operation: Operation): number {
  const { control } = shared!;
  control[1] = OPERATIONS.indexOf(operation);
  Atomics.store(control, 0, 1);
  Atomics.notify(control, 0);
  while (Atomics.load(control, 0) === 1) Atomics.wait(control, 0, 1);
  const state = Atomics.load(control, 0);
  Atomics.store(control, 0, 0);
  if (state !== 2) throw new Error(`bench store worker: ${operation} failed (see stderr)`);
  return state;
}

export const suite = defineSuite({
  name: "store",
  cases: (data) => {
    const bytes = new TextEncoder().encode(data.directory);
    shared!.text.set(bytes);
    shared!.control[2] = bytes.length;
    run("prepare");
    const size = `${MINERS} × ${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`;
    const sizeOfOne = `1 × ${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`;
    return [
      {
        name: "writeUnit: 10-miner ensemble, a new unit (commit included)",
        size,
        pathlab: () => run("writeNewUnit"),
        targetMs: 250,
      },
      {
        name: "  writeUnit again, same keys (upsert, values replaced)",
        size,
        pathlab: () => run("rewriteUnit"),
      },
      {
        name: "readPathSets: the ensemble back into 10 PathSets",
        size,
        pathlab: () => run("readEnsemble"),
      },
      {
        name: "writeUnit: one miner (layouts compared on this size)",
        size: sizeOfOne,
        pathlab: () => run("writeOneMiner"),
        naive: () => run("writeRowByRow"),
        note: "naive = appender, one row and one list value at a time",
      },
      {
        name: "  variant: prices as one BLOB per path",
        size: sizeOfOne,
        pathlab: () => run("writeBlobs"),
        note: "not used: opaque to SQL",
      },
      {
        name: "  variant: long table, one row per price",
        size: sizeOfOne,
        pathlab: () => run("writeLongTable"),
        note: "not used: 289 rows per path",
      },
      {
        name: "  variant: DuckDB's default row groups (122,880 rows)",
        size,
        pathlab: () => run("writeDefaultRowGroups"),
        note: "not used: checkpoints rewrite the open group",
      },
    ] satisfies BenchCase[];
  },
});
