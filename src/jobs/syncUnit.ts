/**
 * One unit of the sync (asset × horizon × the service's forecast start): the service's records,
 * the top-10 path sets at their `forecast_start_time`, the recomputation and cross-check, and one
 * transaction in the store. Shared by the sync job and its tests; the steps are DESIGN.md §3.
 */

import type { PathlabClient } from "../client/pathlab-client.ts";
import type { Semaphore } from "../client/semaphore.ts";
import { VERDICTS, type Verdict } from "../crosscheck/crossCheck.ts";
import { ENSEMBLE_DAYS } from "../spec/insightConventions.ts";
import type { LeaderboardV2Row } from "../spec/records/leaderboard.ts";
import { isoSeconds, parseIsoTimeMs } from "../spec/time.ts";
import type { Store } from "../store/openStore.ts";
import { writeUnit } from "../store/writeUnit.ts";
import { checkConfirmed, type HeldFailure } from "./confirmInputs.ts";
import { fetchServiceRecords } from "./fetchServiceRecords.ts";
import { fetchUnitInputs } from "./fetchUnitInputs.ts";
import { inFetchLane } from "./fetchLane.ts";
import { unitLabel, type SyncUnitPlan } from "./syncPlan.ts";
import type { UnitRanking } from "./syncRanking.ts";
import type { SyncFailure, SyncFailureStage, UnitSummary } from "./syncSummary.ts";
import { UnitFailure } from "./unitFailure.ts";

/**
 * What {@link syncUnit} works with.
 * @example
 * const summary = await syncUnit({ client, store, runId: run.id, plan, ranking, asOfUnix, onFailure });
 */
export interface SyncUnitContext {
  readonly client: PathlabClient;
  readonly store: Store;
  readonly runId: number | null;
  readonly plan: SyncUnitPlan;
  /** The meta-leaderboard (14 days) that ranks the unit's miners (`createUnitRankings`). */
  readonly ranking: (plan: SyncUnitPlan) => Promise<UnitRanking>;
  /**
   * The time a latest leaderboard is stored for when its rows carry no `updated_at` (the
   * sandbox's clock, or the run's start), Unix seconds; otherwise the latest `updated_at` is, so
   * that fetching the same leaderboard again replaces it rather than adding a copy. A history is
   * stored for the unit's start.
   */
  readonly asOfUnix: number;
  /** Receives each failure as it happens. */
  readonly onFailure: (failure: SyncFailure) => void;
  /**
   * Where the unit's requests wait their turn (`inFetchLane`): units fetch one after another
   * through it while earlier units recompute and store, so that the service works on one unit's
   * requests at a time (the embedded sandbox keeps one insight ensemble; two units fetching at once
   * cost `npm start` about 4 s more CPU, bench/README.md). Default: no waiting.
   */
  readonly fetchLane?: Semaphore;
  /**
   * The longest the unit may take, in ms, from the moment its requests may start (it has the
   * fetch lane) until its write begins (a second turn in the lane, to confirm its ensemble, counts
   * too, with its wait behind the units that took the lane meanwhile). When it passes first, the
   * unit's requests stop, nothing of it is stored, and it is one failure that says so. A write
   * under way is not cut. Default: none.
   */
  readonly deadlineMs?: number;
  /**
   * The job's interruption: once it aborts, the unit stops where it is (its open transaction
   * rolled back) and ends `interrupted`, without a failure.
   */
  readonly signal?: AbortSignal;
  /**
   * Runs once the unit is written, with its forecast start (Unix seconds): `sync --lake` moves
   * the unit into the lake there. Its failure is the unit's failure to store.
   */
  readonly afterWrite?: (startUnix: number) => Promise<void>;
  /**
   * Whether the unit at this forecast start (Unix seconds) is stored already: then it ends
   * `already stored` once its service records are fetched, without its path sets.
   */
  readonly isStored?: (startUnix: number) => boolean;
}

/**
 * Runs one unit: (1) every operation of the unit at the service, without `start_time` (the
 * latest data), in parallel; (2) their common `forecast_start_time` (the liquidation record's, or
 * the one most records give; a record from another start is a failure and left out) and the
 * current price; (3) the ranking of the unit's competition; (4) in parallel, the top-10 ensemble at
 * that start (`fetchUnitInputs`, `fetchEnsembleMembers`: invalid sets are failures with the validator's reason, the
 * next miners take their place, as the service does), the previous prompt's ensemble (one horizon
 * earlier, for `forecast_past`), and the 1-minute closes before the start (for `realized`); (5)
 * each record recomputed and cross-checked (`checkRecords`); when a miner was left out for an
 * invalid set and a value disagrees, that miner's set is asked again and the records checked
 * against the confirmed ensemble (`checkConfirmed`), so that a set damaged on the way does not end
 * as stored disagreements; (6) path sets, records, cross-check
 * rows, venue comparisons and the leaderboard written in one transaction (`writeUnit`).
 * Failures of one record or one path set are reported through `onFailure` and the rest goes on;
 * a unit without a forecast start, ranking or ensemble, or whose write fails, stores nothing. Never
 * throws for the service's or the store's failures: they are in the summary.
 * @example
 * const unit = await syncUnit(context);
 * unit.status // => "stored"
 */
export async function syncUnit(context: SyncUnitContext): Promise<UnitSummary> {
  const started = performance.now();
  const { plan } = context;
  let failures = 0;
  // The unit's own client: its calls stop at the unit's deadline, which starts with its requests.
  const deadline = new AbortController();
  let deadlineTimer: NodeJS.Timeout | undefined;
  const client =
    context.deadlineMs === undefined ? context.client : context.client.withSignal(deadline.signal);
  const deadlinePassed = () =>
    `not finished within ${context.deadlineMs! / 1000} s (the unit's deadline, --unit-deadline)`;
  const fail = (stage: SyncFailureStage, reason: string, more: Partial<SyncFailure> = {}) => {
    // What an interruption cancels is no failure of the service or of the data; what the
    // deadline cancels is the one failure of the unit that says so.
    if (context.signal?.aborted) return;
    if (deadline.signal.aborted && stage !== "unit") return;
    failures += 1;
    context.onFailure({
      unit: unitLabel(plan),
      asset: plan.asset,
      horizon: plan.horizon,
      stage,
      ...more,
      reason,
    });
  };
  // a unit of the past is known by its start even when it fails before the service's answer
  let forecastStartTime: string | null =
    plan.startUnix === undefined ? null : isoSeconds(plan.startUnix);
  const summary = (fields: Partial<UnitSummary>): UnitSummary => ({
    ...emptyUnitSummary(plan, "failed"),
    forecastStartTime,
    ...fields,
    failures,
    durationMs: Math.round(performance.now() - started),
  });
  // The inputs' failures wait until the inputs are final (`checkConfirmed`).
  const heldFailures: HeldFailure[] = [];
  const held = (stage: SyncFailureStage, reason: string, more?: Partial<SyncFailure>) => {
    heldFailures.push([stage, reason, more]);
  };
  try {
    const fetchAll = async () => {
      if (context.deadlineMs !== undefined) {
        deadlineTimer = setTimeout(
          () => deadline.abort(new UnitFailure("unit", deadlinePassed())),
          context.deadlineMs,
        );
      }
      const rankingPromise = context.ranking(plan);
      rankingPromise.catch(() => undefined); // awaited below; a failure is reported there
      const start = await fetchServiceRecords(client, plan, (operation, reason) =>
        fail("record", reason, { operation }),
      );
      if (plan.startUnix !== undefined && start.startUnix !== plan.startUnix) {
        throw new UnitFailure(
          "unit",
          `asked for the forecast of ${isoSeconds(plan.startUnix)} (start_time), the service answered with the one of ${start.forecastStartTime}`,
        );
      }
      forecastStartTime = start.forecastStartTime;
      if (context.isStored?.(start.startUnix) === true) return undefined;
      const { operation: rankedBy, rows: ranking } = await Promise.race([
        rankingPromise,
        // the ranking is the job's (shared by the units): the unit's deadline stops its wait
        new Promise<never>((_resolve, reject) => {
          const stop = () => reject(deadline.signal.reason as Error);
          if (deadline.signal.aborted) stop();
          else deadline.signal.addEventListener("abort", stop, { once: true });
        }),
      ]).catch((error: unknown) => {
        throw new UnitFailure("ranking", messageOf(error));
      });
      const inputs = await fetchUnitInputs(client, plan, start.startUnix, ranking, held);
      return { start, ranking, rankedBy, inputs };
    };
    const fetched = await inFetchLane(context.fetchLane, fetchAll);
    if (fetched === undefined) return summary({ status: "already stored" });
    const { start, ranking, rankedBy } = fetched;
    const { inputs, checked, ...confirmed } = await checkConfirmed({
      client,
      plan,
      start,
      ranking,
      inputs: fetched.inputs,
      failures: heldFailures,
      ...(context.fetchLane !== undefined && { fetchLane: context.fetchLane }),
      stopped: () => context.signal?.aborted === true || deadline.signal.aborted,
    });
    for (const [stage, reason, more] of confirmed.failures) fail(stage, reason, more);
    for (const failure of checked.failures) {
      fail(failure.stage, failure.reason, { operation: failure.operation });
    }
    const fetchedAtUnix = Date.now() / 1000;
    deadline.signal.throwIfAborted();
    try {
      context.signal?.throwIfAborted();
      await writeUnit(
        context.store,
        {
          asset: plan.asset,
          horizon: plan.horizon,
          forecastStartTimeUnix: start.startUnix,
          runId: context.runId,
          pathSets: inputs.members.map((pathSet) => ({
            pathSet,
            source: "/v2/prediction/historical",
            fetchedAtUnix,
          })),
          insights: checked.insights,
          crosschecks: checked.crosschecks,
          venueComparisons: checked.venueComparisons,
          leaderboards: [
            {
              operation: rankedBy,
              promptName: plan.competition,
              days: ENSEMBLE_DAYS,
              asOfUnix:
                leaderboardTimeUnix(ranking) ??
                (rankedBy === "/v2/meta-leaderboard/historical"
                  ? start.startUnix
                  : context.asOfUnix),
              rows: ranking,
            },
          ],
        },
        context.signal,
      );
      await context.afterWrite?.(start.startUnix);
    } catch (error) {
      if (context.signal?.aborted) throw error;
      throw new UnitFailure("store", messageOf(error));
    }
    return summary({
      status: "stored",
      pathSets: inputs.members.length,
      crossChecked: checked.crossChecked,
      verdicts: checked.verdicts,
      lacking: checked.lacking,
      venueComparisons: checked.venueComparisons.length,
    });
  } catch (error) {
    if (context.signal?.aborted) return summary({ status: "interrupted" });
    // A write that failed on its own is that failure, even past the deadline.
    if (deadline.signal.aborted && !(error instanceof UnitFailure && error.stage === "store")) {
      fail("unit", `unit not stored: ${deadlinePassed()}`);
      return summary({});
    }
    const stage = error instanceof UnitFailure ? error.stage : "unit";
    fail(stage, `unit not stored: ${messageOf(error)}`);
    return summary({});
  } finally {
    clearTimeout(deadlineTimer);
  }
}

/** The latest `updated_at` of the rows, Unix seconds; undefined when none parses. */
function leaderboardTimeUnix(rows: readonly LeaderboardV2Row[]): number | undefined {
  let latest = -Infinity;
  for (const row of rows) {
    const milliseconds = parseIsoTimeMs(row.updated_at);
    if (milliseconds > latest) latest = milliseconds;
  }
  return Number.isFinite(latest) ? latest / 1000 : undefined;
}

/**
 * The summary of `plan`'s unit with nothing in it: no forecast start, path sets, verdicts or
 * failures (a unit that failed before it had any, or that an interrupted sync never started).
 */
export function emptyUnitSummary(plan: SyncUnitPlan, status: UnitSummary["status"]): UnitSummary {
  return {
    asset: plan.asset,
    horizon: plan.horizon,
    competition: plan.competition,
    forecastStartTime: plan.startUnix === undefined ? null : isoSeconds(plan.startUnix),
    status,
    pathSets: 0,
    crossChecked: 0,
    verdicts: noVerdicts(),
    lacking: [],
    venueComparisons: 0,
    failures: 0,
    durationMs: 0,
  };
}

/** A count of 0 for every verdict. */
export function noVerdicts(): Record<Verdict, number> {
  return Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
