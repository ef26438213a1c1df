/** The defaults of pathlab's jobs, kept apart so that the command line can show them cheaply. */

import { availableParallelism } from "node:os";
import type { OpenStoreOptions } from "../../store/openStore.ts";
import { PREDICTION_ASSETS } from "../../domain/assets.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { UsageError } from "../../service/usageError.ts";

/**
 * The database a sync writes, and `query` and `export` read, when none is named.
 * @example DEFAULT_DATABASE // => "./pathlab.duckdb"
 */
export const DEFAULT_DATABASE = "./pathlab.duckdb";

/**
 * DuckDB's memory limit for a job's database file by default: 512 MB. DuckDB keeps the blocks it
 * writes in its buffer pool up to its limit (80 % of the machine's memory by its own default), so
 * without it a job's memory grows with all it has written: a sync of a day of 24h forecasts (a
 * 724 MB file) peaked at 1.39–1.41 GB, against 1.13–1.18 GB with this limit
 * (docs/performance.md). Past it, DuckDB evicts written blocks and spills what a statement works
 * on to `<file>.tmp`. 128 MB was too little to build a table of 11 million rows with a
 * five-column key in commits of a million rows; 256 MB was enough.
 * @example JOB_STORE_MEMORY_LIMIT // => "512MB"
 */
export const JOB_STORE_MEMORY_LIMIT = "512MB";

/**
 * DuckDB's memory settings for a job's database file (`JobDefinition.storeMemory`): its memory
 * limit, and the size of a deallocation after which DuckDB hands free memory back to the system
 * (`flushFreedMemory` of the store; without one, DuckDB's own 512 MiB).
 * @example const memory: StoreMemory = { limit: "256MB" };
 */
export interface StoreMemory {
  readonly limit: string;
  readonly flushThreshold?: string;
}

/**
 * A sync's database file: a 128 MB limit, and free memory handed back after DuckDB frees 1 MB at
 * once. A sync appends a unit's rows at a time, its bulk tables have no keys, and it reads back
 * little of what it wrote, so the blocks DuckDB keeps only add to its memory. With glibc (Linux),
 * DuckDB hands memory back with `malloc_trim`, which also returns what the job's threads freed
 * (path sets, ensembles). Together they take about 150 MB off the peak of `npm start`'s replayed
 * sync, for about 1.3 s more system time: the pages handed back are faulted in again
 * (docs/performance.md, "A sync's memory stays flat").
 * @example SYNC_STORE_MEMORY.limit // => "128MB"
 */
export const SYNC_STORE_MEMORY: StoreMemory = Object.freeze({
  limit: "128MB",
  flushThreshold: "1MB",
});

/**
 * DuckDB's threads for a job's database file by default: 1, so that DuckDB starts none of its own
 * and each statement runs on the thread that calls it (libuv's, or the job's). A job's cores are
 * its own threads' (its unit pool takes every core but the job's, the embedded sandbox works
 * beside it), and its statements are appends and small deletes, so DuckDB's extra threads only
 * took turns with them. `npm start` took 10 % less wall and CPU time with one (25.3–27.8 s against
 * 28.5–31.1 s), a replay of it 6.6 % less CPU and 3 % less wall (medians of eight alternating
 * runs each), and `score` within its runs' spread (docs/performance.md).
 * @example JOB_STORE_THREADS // => 1
 */
export const JOB_STORE_THREADS = 1;

/**
 * DuckDB's threads for a job's database file: `PATHLAB_DUCKDB_THREADS` when set (a count ≥ 1),
 * else {@link JOB_STORE_THREADS}. DuckDB checks the value.
 * @example jobStoreThreads({ PATHLAB_DUCKDB_THREADS: "4" }) // => "4"
 */
export function jobStoreThreads(env: NodeJS.ProcessEnv = process.env): number | string {
  return env.PATHLAB_DUCKDB_THREADS || JOB_STORE_THREADS;
}

/**
 * DuckDB's memory limit for a job's database file: `PATHLAB_DUCKDB_MEMORY_LIMIT` when set, in
 * DuckDB's words (`2GB`), else the job's own `limit`, {@link JOB_STORE_MEMORY_LIMIT} by default.
 * DuckDB checks the value.
 * @example jobStoreMemoryLimit({ PATHLAB_DUCKDB_MEMORY_LIMIT: "2GB" }) // => "2GB"
 */
export function jobStoreMemoryLimit(
  env: NodeJS.ProcessEnv = process.env,
  limit = JOB_STORE_MEMORY_LIMIT,
): string {
  return env.PATHLAB_DUCKDB_MEMORY_LIMIT || limit;
}

/**
 * DuckDB's settings for a job's store at `database` (the `openStore` options the harness opens it
 * with): the memory limit ({@link jobStoreMemoryLimit} with the job's `memory.limit`, left out for
 * a database in memory, whose rows have no file to be dropped to), the threads
 * ({@link jobStoreThreads}) and the job's `memory.flushThreshold`, when it has one.
 * @example jobStoreOptions("./pathlab.duckdb", SYNC_STORE_MEMORY, {}) // => { memoryLimit: "128MB", threads: 1, flushThreshold: "1MB" }
 */
export function jobStoreOptions(
  database: string,
  memory?: StoreMemory,
  env: NodeJS.ProcessEnv = process.env,
): Pick<OpenStoreOptions, "memoryLimit" | "threads" | "flushThreshold"> {
  return {
    ...(database !== ":memory:" && { memoryLimit: jobStoreMemoryLimit(env, memory?.limit) }),
    threads: jobStoreThreads(env),
    ...(memory?.flushThreshold !== undefined && { flushThreshold: memory.flushThreshold }),
  };
}

/**
 * The assets a sync covers by default: every asset whose paths the prediction operations serve
 * (the spec's `BTC ETH SOL XAU SPYX NVDAX`, and `TSLAX AAPLX GOOGLX` of an earlier description).
 * Other insight assets (`XRP`, `HYPE`, `WTIOIL`, `SPCX`) have no path sets to recompute from.
 * @example DEFAULT_SYNC_ASSETS.includes("SPYX") // => true
 */
export const DEFAULT_SYNC_ASSETS: readonly string[] = PREDICTION_ASSETS;

/**
 * The assets audited by default: those whose records the captured live responses hold.
 * @example DEFAULT_AUDIT_ASSETS[0] // => "BTC"
 */
export const DEFAULT_AUDIT_ASSETS: readonly string[] = [
  "BTC",
  "ETH",
  "SOL",
  "XAU",
  "SPY",
  "NVDA",
  "GOOGL",
  "TSLA",
  "AAPL",
];

/**
 * Units a sync works on at once by default. Units fetch one at a time (the fetch lane), and each
 * then recomputes and is stored on the job's thread. With three, a unit fetches while the two
 * before it recompute and are stored, so that the service always has a unit's requests to answer;
 * with two, it has none while one unit is stored and the next recomputes. `npm start` against the
 * embedded sandbox takes about 20.3 s with two and 17.8 s with three, with a peak about 70 MiB
 * higher, within its run-to-run variation (bench/README.md). Each unit in flight holds its arrays
 * (about 150 MB for a 24h unit: its ensemble and the previous prompt's, re-based and step-major);
 * with `--lake`, also an in-memory database of its own. A three-hour range into a lake (26 units,
 * bench/README.md) takes about the same time with two and three, at about the same peak.
 * @example DEFAULT_SYNC_CONCURRENCY // => 3
 */
export const DEFAULT_SYNC_CONCURRENCY = 3;

/**
 * Unit pool threads a sync fetches, checks and recomputes its units on when `threads` is not given:
 * none with the embedded sandbox, which works on this machine's cores beside the job (`npm start`
 * took 18.4 s on the job's thread and 20.8 s with one pool thread, on 2 cores); with a service
 * (or `--replay`), one per core but the one the job's thread stores on (1 on 2 cores: the 18 units
 * of `npm start` replayed took 14.0 s on the job's thread and 11.2 s with one thread, 11.9 s with
 * two; bench/README.md). Units in flight (`concurrency`) bound the threads in use.
 * @example defaultSyncThreads(true) // => 0
 */
export function defaultSyncThreads(embeddedSandbox: boolean): number {
  return embeddedSandbox ? 0 : Math.max(0, availableParallelism() - 1);
}

/**
 * The longest a sync unit may take, in milliseconds, from the moment its requests may start (after
 * the units before it in the fetch lane) to its stored transaction: 5 minutes, where a unit of the
 * live service takes well under one. A unit past it stops its requests and is a failure; the next
 * units go on. The client's own deadline (10 minutes per call) bounds each call within it.
 * @example DEFAULT_UNIT_DEADLINE_MS // => 300000
 */
export const DEFAULT_UNIT_DEADLINE_MS = 300_000;

/**
 * The longest a whole job (`sync`, `score`) may take, in milliseconds, from its start: 6 hours.
 * The largest normal jobs end well within it: a sync of every asset and horizon takes under a
 * minute against the embedded sandbox and a few against the live service, a day of crypto-24h
 * prompts scored about 25 s (docs/performance.md), so a month's range some tens of minutes. A job
 * that limps (a server that answers slowly but never fails) ends within a working day. When it
 * passes, the units in flight stop, the job ends with exit code 1, and the units stored are kept.
 * @example DEFAULT_JOB_DEADLINE_MS // => 21600000
 */
export const DEFAULT_JOB_DEADLINE_MS = 6 * 3600 * 1000;

/**
 * Units in a row that fail the same way (the same HTTP status, the same deadline or timeout) after
 * which a job stops early (`Breaker`): 3, so that a server that fails every unit alike costs three
 * units' time (at the defaults, three units in flight at once each wait out its 5 minutes) rather
 * than the whole plan's; a unit that fails on its own among others that succeed does not stop it.
 * @example BREAKER_UNITS // => 3
 */
export const BREAKER_UNITS = 3;

/**
 * The longest range of prompts `score` and `baseline` take at once, in days: a month of crypto-1h
 * prompts is already ~45,000 prompts on the live network. A longer range is refused with a hint to
 * split it.
 * @example MAX_PROMPT_RANGE_DAYS // => 31
 */
export const MAX_PROMPT_RANGE_DAYS = 31;

/**
 * A time option of `command` in Unix seconds (fractions dropped). Throws `UsageError` naming
 * the option for text that is not an ISO 8601 time.
 * @example timeOptionUnix("sync", "--from", "2026-02-25T23:47:00Z") // => 1772063220
 */
export function timeOptionUnix(command: string, name: string, text: string): number {
  const milliseconds = parseIsoTimeMs(text);
  if (Number.isNaN(milliseconds)) {
    throw new UsageError(
      `${command}: ${name}: expected an ISO 8601 time such as 2026-02-25T23:47:00Z, got ${JSON.stringify(text)}`,
    );
  }
  return Math.floor(milliseconds / 1000);
}

/**
 * The range `--from`, `--to` of `command` in Unix seconds. Throws `UsageError` naming the
 * option for a time that does not parse, `--to` before `--from`, and a range that
 * {@link promptRangeTooLong} finds too long.
 * @example timeRangeOption("score", "2026-11-20T10:00:00Z", "2026-11-21T10:00:00Z") // => { fromUnix: 1795168800, toUnix: 1795255200 }
 */
export function timeRangeOption(
  command: string,
  from: string,
  to: string,
): { fromUnix: number; toUnix: number } {
  const fromUnix = timeOptionUnix(command, "--from", from);
  const toUnix = timeOptionUnix(command, "--to", to);
  if (toUnix < fromUnix) {
    throw new UsageError(
      `${command}: --to: expected a time at or after --from (${from}), got ${to}`,
    );
  }
  const tooLong = promptRangeTooLong(command, fromUnix, toUnix);
  if (tooLong !== undefined) throw new UsageError(tooLong);
  return { fromUnix, toUnix };
}

/**
 * Why a range of prompt starts from `fromUnix` to `toUnix` is too long for `command`, or
 * `undefined` when it is not.
 * @example promptRangeTooLong("score", 0, 40 * 86400) // => "score: --from/--to: …"
 */
export function promptRangeTooLong(
  command: string,
  fromUnix: number,
  toUnix: number,
): string | undefined {
  const days = (toUnix - fromUnix) / 86400;
  if (days <= MAX_PROMPT_RANGE_DAYS) return undefined;
  const end = new Date((fromUnix + MAX_PROMPT_RANGE_DAYS * 86400) * 1000).toISOString();
  return `${command}: --from/--to: expected a range of at most ${MAX_PROMPT_RANGE_DAYS} days, got ${days.toFixed(1)} days; run it in parts (the first: --to ${end.replace(".000Z", "Z")})`;
}
