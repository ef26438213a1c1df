/**
 * The reduce step of a sync: how the run ended, recorded with its failures, and the summary with
 * the run's totals and its largest live venue edges.
 */

import { isoSeconds } from "../../domain/time.ts";
import type { RunStatus } from "../../store/runs.ts";
import { runVenueEdges } from "../../store/venueComparisons.ts";
import type { Job } from "../harness/runJob.ts";
import { mergeVenueEdges } from "./lake.ts";
import type { CheckedSyncOptions } from "./options.ts";
import type { SyncPlan } from "./planSync.ts";
import type { SyncTraffic } from "./progress.ts";
import { totalsOf, type SyncSummary } from "./summary.ts";
import type { SyncUnitResults } from "./syncUnits.ts";

/**
 * Records how the run ended and returns the summary (without secrets): `interrupted` when a unit
 * was cut short, `ok` without failures, `failed` when no unit was stored, else `partial`.
 * @example const summary = await reduceSync(job, plan, results, progress.traffic);
 */
export async function reduceSync(
  job: Job<CheckedSyncOptions>,
  plan: SyncPlan,
  results: SyncUnitResults,
  traffic: SyncTraffic,
): Promise<SyncSummary> {
  const { units, failures } = results;
  const status = syncStatus(units, failures.length);
  await job.finishRun({ status, failures });
  // the summary lists the five largest live edges
  const venueEdges =
    job.lake === undefined
      ? await runVenueEdges(job.store, plan.run.id, 5)
      : mergeVenueEdges(results.lakeEdges, 5);
  const interrupted = status === "interrupted";
  return job.redact<SyncSummary>({
    command: "sync",
    runId: plan.run.id,
    database: job.database,
    ...(job.lake !== undefined && { lake: job.lake }),
    ...(plan.range !== undefined && {
      range: { from: isoSeconds(plan.range.fromUnix), to: isoSeconds(plan.range.toUnix) },
    }),
    service: job.service,
    startedAt: new Date(job.startedAtUnix * 1000).toISOString(),
    durationMs: job.durationMs(),
    status,
    exitCode: interrupted ? 130 : failures.length === 0 ? 0 : 1,
    units,
    failures,
    totals: totalsOf(units, failures.length, traffic),
    venueEdges,
    ...(await job.recordReplaySummary()),
  });
}

/** How a sync of `units` with `failures` ended (see {@link reduceSync}). */
function syncStatus(units: SyncUnitResults["units"], failures: number): RunStatus {
  // Ctrl-C after the last unit was stored cut nothing: the run ended as it would have.
  if (units.some((unit) => unit.status === "interrupted")) return "interrupted";
  if (failures === 0) return "ok";
  // a unit stored by an earlier run counts as stored here
  const stored = units.filter(
    (unit) => unit.status === "stored" || unit.status === "already stored",
  ).length;
  return stored === 0 ? "failed" : "partial";
}
