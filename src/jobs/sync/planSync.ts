/**
 * The plan step of a sync: the units to run (the latest forecasts, or each forecast start of a
 * range the service lists), the run's row, and, for a tick of a watch, the units stored already.
 */

import type { Run } from "../../store/runs.ts";
import type { Job } from "../harness/runJob.ts";
import type { CheckedSyncOptions, SyncOptions, SyncSelection } from "./options.ts";
import type { SyncUnitPlan } from "./plan.ts";
import type { SyncProgress } from "./progress.ts";
import { noForecastStarts, planSyncRange, type SyncRange } from "./range.ts";
import { storedSyncUnitKeys } from "./lake.ts";

/**
 * What a sync runs: its units, its run, and what the units share.
 * @example const { units, run } = await planSync(job, options, selection, progress);
 */
export interface SyncPlan {
  readonly units: readonly SyncUnitPlan[];
  readonly range: SyncRange | undefined;
  readonly run: Run;
  /** Units at once. */
  readonly concurrency: number;
  /**
   * The time a latest leaderboard without `updated_at` is stored for: the service's clock, or the
   * job's start floored to the minute (Unix seconds).
   */
  readonly asOfUnix: number;
  /** The keys (`syncUnitKey`) of the units stored already, when the sync leaves them out. */
  readonly stored: ReadonlySet<string> | undefined;
}

/**
 * Plans a sync (see the module comment) and starts its run. Throws for a range whose forecast
 * starts the service does not list.
 * @example const plan = await planSync(job, options, selection, progress);
 */
export async function planSync(
  job: Job<CheckedSyncOptions>,
  options: SyncOptions,
  selection: SyncSelection,
  progress: SyncProgress,
): Promise<SyncPlan> {
  const { latest, range } = selection;
  const nowUnix = job.clockUnix ?? Date.now() / 1000;
  const units =
    range === undefined ? latest : await planSyncRange(job.client, latest, range, nowUnix);
  if (range !== undefined && units.length === 0) {
    throw noForecastStarts("sync", latest, range, nowUnix);
  }
  const { concurrency } = job.checked;
  const run = await job.startRun({
    assets: [...new Set(latest.map((plan) => plan.asset))],
    horizons: [...new Set(latest.map((plan) => plan.horizon))],
    ...(options.from !== undefined && { from: options.from, to: options.to }),
    database: job.database,
    ...(job.lake !== undefined && { lake: job.lake }),
    service: job.service,
    concurrency,
    ...(options.replay !== undefined && { replay: options.replay }),
  });
  progress.emit({
    type: "plan",
    units: units.map(({ asset, horizon }) => ({ asset, horizon })),
    database: job.lake ?? job.database,
  });
  // what a watch's tick leaves out: the units whose forecast start is stored already
  const stored =
    options.skipStored === true ? await storedSyncUnitKeys(job.store, job.lake) : undefined;
  return { units, range, run, concurrency, asOfUnix: job.nowUnix, stored };
}
