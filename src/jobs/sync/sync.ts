/**
 * `runSync`, the main job: plan the units (each asset and horizon's latest forecast, or each
 * forecast start of a range), run each unit (fetch, recompute, cross-check, store), and reduce
 * them to the run's record and summary. The run harness (`runJob`) does the rest.
 */

import { DEFAULT_JOB_DEADLINE_MS, SYNC_STORE_MEMORY } from "../harness/defaults.ts";
import { runJob } from "../harness/runJob.ts";
import { checkSyncOptions, checkSyncSelection, type SyncOptions } from "./options.ts";
import { planSync } from "./planSync.ts";
import { SyncProgress } from "./progress.ts";
import { reduceSync } from "./reduceSync.ts";
import type { SyncSummary } from "./summary.ts";
import { runSyncUnits } from "./syncUnits.ts";

/**
 * What the sync job is to the harness, but for its client's events (`runSync` adds them).
 * @example SYNC_JOB.storeMemory.limit // => "128MB"
 */
export const SYNC_JOB = {
  command: "sync",
  check: checkSyncOptions,
  // a recording's clock is the minute a latest leaderboard without `updated_at` is stored for
  clockSeconds: 60,
  defaultDeadlineMs: DEFAULT_JOB_DEADLINE_MS,
  storeMemory: SYNC_STORE_MEMORY,
} as const;

/**
 * Runs a sync: checks the options, opens (creating or migrating) the database, starts the embedded
 * sandbox unless `baseUrl` is given, plans the units (each asset and horizon's latest forecast,
 * or with `from`/`to` each forecast start of the range: `planSyncRange`), records a run, fetches
 * each ranking once (`createUnitRankings`), runs the units up to `concurrency` at a time (on the
 * job's thread, `syncUnit`, or with `threads` fetched, checked and recomputed on the unit pool and
 * written here, `syncUnitOnPool`), records how the run ended (`ok`, `partial`, `failed`, or
 * `interrupted` when `signal` cut a unit short; with every failure and its reason, without
 * secrets), then stops the sandbox and closes the client and the database, whatever happened.
 * Resolves with the summary; a unit's failures never reject it. Rejects for bad options
 * (`UsageError`: an asset without path sets, an unknown horizon, options that do not fit
 * together), a database that cannot be opened (a `StoreLockedError` when another process holds
 * it), a sandbox that cannot start and a range whose forecast starts the service does not list.
 * @param options - the assets, horizons, range, store and service, all optional; see each field's
 *   default.
 * @example
 * const summary = await runSync({ assets: ["BTC"], horizons: ["1h"], database: "/tmp/p.duckdb" });
 * summary.units[0].verdicts.exact // => 1873
 */
export async function runSync(options: SyncOptions = {}): Promise<SyncSummary> {
  const selection = checkSyncSelection(options); // before `record` makes its folder
  const progress = new SyncProgress(options.onEvent);
  const definition = { ...SYNC_JOB, onClientEvent: progress.onClientEvent };
  return runJob(definition, options, async (job) => {
    progress.redactWith(job);
    progress.emit({
      type: "service",
      service: job.service,
      ...(options.replay !== undefined && { replay: options.replay }),
    });
    // the job's signal: it aborts when the job is interrupted, past its deadline or by its breaker
    const jobOptions = { ...options, signal: job.signal };
    const plan = await planSync(job, jobOptions, selection, progress);
    const units = await runSyncUnits(job, plan, jobOptions, progress);
    return reduceSync(job, plan, units, progress.traffic);
  });
}
