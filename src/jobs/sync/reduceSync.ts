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
 * was cut short by the caller, `ok` without failures, `failed` when no unit was stored, else
 * `partial`. A sync its deadline or breaker stopped is `partial` or `failed` by the same rule (a
 * unit is stored whole or not at all, so the units stored are as good as those of a full run),
 * with exit code 1 and the line that says what stopped it and how much was done (`stopped`).
 * @example const summary = await reduceSync(job, plan, results, progress.traffic);
 */
export async function reduceSync(
  job: Job<CheckedSyncOptions>,
  plan: SyncPlan,
  results: SyncUnitResults,
  traffic: SyncTraffic,
): Promise<SyncSummary> {
  const { units, failures } = results;
  const stopped = job.stop.stoppedEarly ? stoppedLine(job.stop.message ?? "", units) : undefined;
  const status = syncStatus(units, failures.length, stopped !== undefined);
  await job.finishRun({
    status,
    failures: stopped === undefined ? failures : [...failures, { reason: stopped }],
  });
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
    exitCode: interrupted ? 130 : failures.length === 0 && stopped === undefined ? 0 : 1,
    ...(stopped !== undefined && { stopped }),
    units,
    failures,
    totals: totalsOf(units, failures.length, traffic),
    venueEdges,
    ...(await job.recordReplaySummary()),
  });
}

/** How a sync of `units` with `failures` ended (see {@link reduceSync}). */
function syncStatus(
  units: SyncUnitResults["units"],
  failures: number,
  stoppedEarly: boolean,
): RunStatus {
  // Ctrl-C after the last unit was stored cut nothing: the run ended as it would have.
  if (!stoppedEarly && units.some((unit) => unit.status === "interrupted")) return "interrupted";
  if (failures === 0 && !stoppedEarly) return "ok";
  // a unit stored by an earlier run counts as stored here
  const stored = units.filter(
    (unit) => unit.status === "stored" || unit.status === "already stored",
  ).length;
  return stored === 0 ? "failed" : "partial";
}

/**
 * The line of a sync its deadline or breaker stopped: what stopped it, and how many units were
 * stored, failed and not finished.
 */
function stoppedLine(why: string, units: SyncUnitResults["units"]): string {
  const count = (status: string) => units.filter((unit) => unit.status === status).length;
  const stored = count("stored") + count("already stored");
  return (
    `sync: ${why}; ${stored} of ${units.length} units stored, ${count("failed")} failed, ` +
    `${count("interrupted")} not finished (rerun the same command to complete them)`
  );
}
