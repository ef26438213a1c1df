/** The options of `runSync` (`sync.ts`), and the check of those that cannot run together. */

import type { ClientOptions } from "../../client/options.ts";
import type { SyncEvent } from "./events.ts";
import { checkServiceRequest, type ServiceChoice } from "../../service/resolveService.ts";
import { UsageError } from "../../service/usageError.ts";
import { DEFAULT_SYNC_CONCURRENCY } from "../harness/defaults.ts";
import { planSyncUnits, type SyncUnitPlan } from "./plan.ts";
import { syncRangeOf, type SyncRange } from "./range.ts";

/**
 * Options of {@link runSync}; all optional.
 * @example
 * const options: SyncOptions = { assets: ["BTC", "ETH"], horizons: ["24h", "1h"], database: "/tmp/pathlab.duckdb", now: "2026-02-25T23:47:00Z" };
 */
export interface SyncOptions extends ServiceChoice {
  /** Assets (default `DEFAULT_SYNC_ASSETS`: every asset the prediction operations serve). */
  readonly assets?: readonly string[];
  /** Horizons (default both, `24h` and `1h`). */
  readonly horizons?: readonly string[];
  /**
   * With `to`: the forecasts that started from `from` to `to` (ISO 8601, both included), each
   * asset and horizon's unit of every start the service lists (`syncRange.ts`), fetched as the
   * service's historical data. Without them: the service's latest forecast of each.
   */
  readonly from?: string;
  /** The end of the range that `from` begins. */
  readonly to?: string;
  /** The database file; default `DEFAULT_DATABASE` (`./pathlab.duckdb`); not with `lake`. */
  readonly database?: string;
  /**
   * A lake to write instead of a DuckDB file: each unit, once stored, as that unit's files
   * (`syncLake.ts`), so that readers (`pathlab query --lake`, the notebooks) are never locked
   * out while the sync goes on. The run's record and failures are in its summary only.
   */
  readonly lake?: string;
  /**
   * Leave out the units whose forecast start the database (or the lake) already holds, as
   * `pathlab sync --watch` does at each tick: only their service records are fetched, to learn
   * the start. Default `false`: every unit is fetched and stored again.
   */
  readonly skipStored?: boolean;
  /** Units at once; default `DEFAULT_SYNC_CONCURRENCY` (3). */
  readonly concurrency?: number;
  /**
   * Unit pool threads that fetch, check and recompute whole units (the job's thread stores them);
   * 0: all on the job's thread. Default `defaultSyncThreads`: none with the embedded sandbox, the
   * machine's cores but one with a service. 0 with `record` (more is refused), and with client
   * options that hold functions (they cannot cross to a thread).
   */
  readonly threads?: number;
  /** The longest one unit may take, in ms; default `DEFAULT_UNIT_DEADLINE_MS` (5 minutes). */
  readonly unitDeadlineMs?: number;
  /**
   * The longest the whole sync may take, in ms; default `DEFAULT_JOB_DEADLINE_MS` (6 hours). When
   * it passes, the units in flight stop, the units stored are kept, and the summary says so
   * (`stopped`). So does the breaker: `BREAKER_UNITS` units in a row that fail the same way.
   */
  readonly deadlineMs?: number;
  /**
   * Client settings (retries, timeouts, requests in flight). Default: 4 retries, 8 requests in
   * flight, the client's own timeouts and backoff.
   */
  readonly client?: Pick<
    ClientOptions,
    "maxRetries" | "retryBaseMs" | "retryMaxMs" | "timeoutMs" | "concurrency" | "naming" | "paths"
  >;
  /** Save every raw response into this directory (new or empty; layout in `record.ts`). */
  readonly record?: string;
  /** Answer from the recording in this directory instead of the network (`replay.ts`). */
  readonly replay?: string;
  /** Receives progress events. */
  readonly onEvent?: (event: SyncEvent) => void;
  /**
   * Interrupts the sync: no unit starts after it aborts, the units in progress stop (an open
   * transaction is rolled back), and the run is recorded as `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/**
 * What {@link checkSyncOptions} derives from the options.
 * @example const { concurrency } = checkSyncOptions(options);
 */
export interface CheckedSyncOptions {
  /** Units at once (default `DEFAULT_SYNC_CONCURRENCY`). */
  readonly concurrency: number;
}

/**
 * Refuses options that cannot run: a deadline or concurrency out of range, the sandbox's clock or
 * seed with a service, a service without a key. Throws a `UsageError` naming the option.
 * @example checkSyncOptions({ concurrency: 0 }); // throws: concurrency below 1
 */
export function checkSyncOptions(options: SyncOptions): CheckedSyncOptions {
  const concurrency = options.concurrency ?? DEFAULT_SYNC_CONCURRENCY;
  const deadline = options.unitDeadlineMs;
  if (deadline !== undefined && !(Number.isFinite(deadline) && deadline > 0)) {
    throw new UsageError(`sync: unitDeadlineMs: expected a number of ms > 0, got ${deadline}`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new UsageError(`sync: concurrency: expected a whole number ≥ 1, got ${concurrency}`);
  }
  checkServiceRequest("sync", options);
  return { concurrency };
}

/**
 * The units a sync's options select before anything is asked of the service: each asset and
 * horizon's latest forecast (`planSyncUnits`), and the range of forecast starts (`syncRangeOf`)
 * when `from` and `to` are given.
 * @example const { latest, range } = checkSyncSelection({ assets: ["BTC"] });
 */
export interface SyncSelection {
  readonly latest: readonly SyncUnitPlan[];
  readonly range: SyncRange | undefined;
}

/**
 * Checks what the options select (assets, horizons, range) and the threads, before a recording's
 * folder is made. Throws a `UsageError` naming the option.
 * @example checkSyncSelection({ horizons: ["2h"] }); // throws: unknown horizon
 */
export function checkSyncSelection(options: SyncOptions): SyncSelection {
  const latest = planSyncUnits(options.assets, options.horizons);
  const range = syncRangeOf(options.from, options.to);
  checkSyncThreads(options);
  return { latest, range };
}

/**
 * Refuses a count of threads that is not a whole number ≥ 0, and threads with `record` (the
 * recorder sees the main thread's client only). Throws a `UsageError` naming the option;
 * before `record` creates its directory.
 * @example checkSyncThreads({ threads: 2, record: "rec" }); // throws: threads with --record
 */
function checkSyncThreads(options: SyncOptions): void {
  const threads = options.threads;
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0)) {
    throw new UsageError(`sync: threads: expected a whole number ≥ 0, got ${threads}`);
  }
  if (threads !== undefined && threads > 0 && options.record !== undefined) {
    throw new UsageError(
      "sync: --record keeps what the main thread's client receives, and --threads makes requests on other threads; leave --threads out (or give 0) to record",
    );
  }
}
