/**
 * The units step of a sync: each planned unit run up to `concurrency` at a time by the unit
 * runner, on the job's thread (`syncUnit`) or with its fetching, checking and recomputing on the
 * unit pool (`syncUnitOnPool`), and written into the job's store or, with a lake, into a store of
 * its own that is then moved into the lake.
 */

import { isoSeconds } from "../../domain/time.ts";
import { threadClientOptions } from "../../service/jobClient.ts";
import { unitPoolThreads } from "../../service/clientData.ts";
import { openStore } from "../../store/openStore.ts";
import { runVenueEdges, type VenueEdges } from "../../store/venueComparisons.ts";
import { DEFAULT_UNIT_DEADLINE_MS, defaultSyncThreads } from "../harness/defaults.ts";
import type { Job } from "../harness/runJob.ts";
import { runUnits, UnitRunner } from "../harness/unitRunner.ts";
import { createSemaphore } from "../../client/semaphore.ts";
import { moveSyncUnitToLake } from "./lake.ts";
import { syncUnitOnPool } from "./onPool.ts";
import type { CheckedSyncOptions, SyncOptions } from "./options.ts";
import { syncUnitKey, type SyncUnitPlan } from "./plan.ts";
import type { SyncPlan } from "./planSync.ts";
import type { SyncProgress } from "./progress.ts";
import { createUnitRankings } from "./ranking.ts";
import type { SyncFailure, UnitSummary } from "./summary.ts";
import { syncUnit, type SyncUnitContext } from "./syncUnit.ts";
import { emptyUnitSummary } from "./unitResults.ts";

/** The venue edges of a unit moved into a lake (read before the move). */

/**
 * What the units step ends with: each unit's summary in the plan's order, every failure (without
 * secrets), and with a lake each unit's venue edges.
 * @example const { units, failures } = await runSyncUnits(job, plan, options, progress);
 */
export interface SyncUnitResults {
  readonly units: readonly UnitSummary[];
  readonly failures: readonly SyncFailure[];
  readonly lakeEdges: readonly VenueEdges[];
}

/**
 * Runs the plan's units (see the module comment). A unit's failures are in its summary and in
 * `failures`; a unit never rejects. Each unit that fails or is stored is told to the job's
 * breaker, which stops the job (`options.signal`, the job's) once units fail alike in a row.
 * @example const results = await runSyncUnits(job, plan, options, progress);
 */
export async function runSyncUnits(
  job: Job<CheckedSyncOptions>,
  plan: SyncPlan,
  options: SyncOptions,
  progress: SyncProgress,
): Promise<SyncUnitResults> {
  const threads = options.threads ?? defaultSyncThreads(job.sandboxInProcess);
  const runner = new UnitRunner(
    unitPoolThreads(threads, options.client, job.recorder !== undefined),
    options.signal,
  );
  job.defer(() => runner.close());
  const ranking = createUnitRankings(job.client);
  const fetchLane = createSemaphore(1);
  const failures: SyncFailure[] = [];
  const lakeEdges: VenueEdges[] = [];
  const threadClient = threadClientOptions(job.clientOptions);
  const { stored } = plan;
  const runOne = async (unitPlan: SyncUnitPlan): Promise<UnitSummary> => {
    const startTime =
      unitPlan.startUnix === undefined ? {} : { startTime: isoSeconds(unitPlan.startUnix) };
    progress.emit({
      type: "unit-start",
      asset: unitPlan.asset,
      horizon: unitPlan.horizon,
      ...startTime,
    });
    // a unit of the past is known by its start before any request
    if (
      unitPlan.startUnix !== undefined &&
      stored?.has(syncUnitKey(unitPlan, unitPlan.startUnix))
    ) {
      const unit = emptyUnitSummary(unitPlan, "already stored");
      progress.emit({ type: "unit-end", unit, ...startTime });
      return unit;
    }
    // Into a lake, each unit is stored in a store of its own, then moved (lake.ts).
    const lake = job.lake;
    // the reason of the unit's last failure: the one that ended it, when it failed
    let lastReason = "";
    const unitStore = lake === undefined ? job.store : await openStore(":memory:");
    const context: SyncUnitContext = {
      client: job.client,
      store: unitStore,
      runId: plan.run.id,
      ...(stored !== undefined && {
        isStored: (startUnix: number) => stored.has(syncUnitKey(unitPlan, startUnix)),
      }),
      ...(lake !== undefined && {
        afterWrite: async (startUnix: number) => {
          // read before the move, which clears the run ids; counted once the move succeeded
          const edges = await runVenueEdges(unitStore, plan.run.id, 5);
          await moveSyncUnitToLake(unitStore, lake, unitPlan, startUnix);
          lakeEdges.push(edges);
        },
      }),
      plan: unitPlan,
      ranking,
      asOfUnix: plan.asOfUnix,
      fetchLane,
      deadlineMs: options.unitDeadlineMs ?? DEFAULT_UNIT_DEADLINE_MS,
      ...(options.signal !== undefined && { signal: options.signal }),
      onFailure: (failure) => {
        const clean = job.redact(failure);
        lastReason = clean.reason;
        failures.push(clean);
        progress.emit({ type: "failure", failure: clean });
      },
    };
    let unit;
    try {
      unit = runner.onThreads
        ? await syncUnitOnPool(runner.pool, context, {
            client: threadClient,
            ...(stored !== undefined && { storedKeys: stored }),
            onClientEvent: progress.onClientEvent,
          })
        : await syncUnit(context);
    } finally {
      if (unitStore !== job.store) await unitStore.close();
    }
    progress.emit({ type: "unit-end", unit, ...startTime });
    if (unit.status === "failed") job.breaker.failed(lastReason);
    else if (unit.status === "stored") job.breaker.succeeded();
    return unit;
  };
  const units = await runUnits(
    plan.units,
    {
      concurrency: plan.concurrency,
      ...(options.signal !== undefined && { signal: options.signal }),
    },
    runOne,
    (unitPlan) => emptyUnitSummary(unitPlan, "interrupted"),
  );
  return { units, failures, lakeEdges };
}
