/**
 * One unit of the sync (asset × horizon × the service's forecast start): the service's records,
 * the top-10 path sets at their `forecast_start_time`, the recomputation and cross-check, and one
 * transaction in the store. Shared by the sync job and its tests; the steps are DESIGN.md §3.
 */

import type { PathlabClient } from "../client/pathlab-client.ts";
import type { Semaphore } from "../client/semaphore.ts";
import { VERDICTS, type Verdict } from "../crosscheck/crossCheck.ts";
import type { InsightContext } from "../insights/context.ts";
import { InsightSession } from "../insights/session.ts";
import { ensembleOf } from "../paths/ensemble.ts";
import { ENSEMBLE_DAYS } from "../spec/insightConventions.ts";
import type { LeaderboardV2Row } from "../spec/records/leaderboard.ts";
import { parseIsoTimeMs } from "../spec/time.ts";
import type { Store } from "../store/openStore.ts";
import { writeUnit } from "../store/writeUnit.ts";
import { checkRecords, type CheckedRecords } from "./checkRecords.ts";
import { fetchServiceRecords, type ServiceRecords } from "./fetchServiceRecords.ts";
import { fetchUnitInputs, type UnitInputs } from "./fetchUnitInputs.ts";
import type { SyncUnitPlan } from "./syncPlan.ts";
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
  /** The meta-leaderboard (14 days) of a competition, best first; shared by the units. */
  readonly ranking: (plan: SyncUnitPlan) => Promise<readonly LeaderboardV2Row[]>;
  /**
   * The time a leaderboard is stored for when its rows carry no `updated_at` (the sandbox's clock,
   * or the run's start), Unix seconds; otherwise the latest `updated_at` is, so that fetching the
   * same leaderboard again replaces it rather than adding a copy.
   */
  readonly asOfUnix: number;
  /** Receives each failure as it happens. */
  readonly onFailure: (failure: SyncFailure) => void;
  /**
   * Where the unit's requests wait their turn: units fetch one after another through it while
   * earlier units recompute and store, so that the service's caches hold one unit's path sets at a
   * time (the sandbox keeps 24 prediction sets: the 20 of one unit fit, two units' do not).
   * Default: no waiting.
   */
  readonly fetchLane?: Semaphore;
  /**
   * The longest the unit may take, in ms, from the moment its requests may start (it has the
   * fetch lane) to its stored transaction. When it passes, the unit's requests stop and it is a
   * failure that says so; nothing of it is stored. Default: none.
   */
  readonly deadlineMs?: number;
  /**
   * The job's interruption: once it aborts, the unit stops where it is (its open transaction
   * rolled back) and ends `interrupted`, without a failure.
   */
  readonly signal?: AbortSignal;
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
 * invalid set and a value is not exact, that miner's set is asked again (`fetchUnitInputs` with
 * `confirm`) and the records checked against the confirmed ensemble, so that a set damaged on the
 * way does not end as stored disagreements; (6) path sets, records, cross-check
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
  const fail = (stage: SyncFailureStage, reason: string, more: Partial<SyncFailure> = {}) => {
    // What an interruption cancels is no failure of the service or of the data.
    if (context.signal?.aborted) return;
    failures += 1;
    context.onFailure({
      unit: `${plan.asset} ${plan.horizon}`,
      asset: plan.asset,
      horizon: plan.horizon,
      stage,
      ...more,
      reason,
    });
  };
  let forecastStartTime: string | null = null;
  const summary = (fields: Partial<UnitSummary>): UnitSummary => ({
    ...emptyUnitSummary(plan, "failed"),
    forecastStartTime,
    ...fields,
    failures,
    durationMs: Math.round(performance.now() - started),
  });
  // The inputs' failures wait until the inputs are final (see the confirmation below).
  const heldFailures: [SyncFailureStage, string, Partial<SyncFailure>?][] = [];
  const held = (stage: SyncFailureStage, reason: string, more?: Partial<SyncFailure>) => {
    heldFailures.push([stage, reason, more]);
  };
  // The unit's own client: its calls stop at the unit's deadline, which starts with its requests.
  const deadline = new AbortController();
  let deadlineTimer: NodeJS.Timeout | undefined;
  const client =
    context.deadlineMs === undefined ? context.client : context.client.withSignal(deadline.signal);
  const deadlinePassed = () =>
    `not finished within ${context.deadlineMs! / 1000} s (the unit's deadline, --unit-deadline)`;
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
      forecastStartTime = start.forecastStartTime;
      const ranking = await Promise.race([
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
      return { start, ranking, inputs };
    };
    const fetched = await (context.fetchLane === undefined
      ? fetchAll()
      : context.fetchLane.run(fetchAll));
    const { start, ranking } = fetched;
    let { inputs } = fetched;
    let checked = checkInputs(plan, start, inputs);
    if (inputs.replaced > 0 && checked.crosschecks.some((row) => row.verdict !== "exact")) {
      // A miner left out for sets that were perhaps only damaged on the way: before a value
      // that is not exact is stored, its set is asked again; the inputs' failures are the final
      // ones.
      heldFailures.length = 0;
      inputs = await fetchUnitInputs(client, plan, start.startUnix, ranking, held, inputs);
      checked = checkInputs(plan, start, inputs);
    }
    for (const [stage, reason, more] of heldFailures) fail(stage, reason, more);
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
              operation: "/v2/meta-leaderboard/latest",
              promptName: plan.competition,
              days: ENSEMBLE_DAYS,
              asOfUnix: leaderboardTimeUnix(ranking) ?? context.asOfUnix,
              rows: ranking,
            },
          ],
        },
        context.signal,
      );
    } catch (error) {
      if (context.signal?.aborted) throw error;
      throw new UnitFailure("store", messageOf(error));
    }
    return summary({
      status: "stored",
      pathSets: inputs.members.length,
      crossChecked: checked.crossChecked,
      verdicts: checked.verdicts,
      venueComparisons: checked.venueComparisons.length,
    });
  } catch (error) {
    if (context.signal?.aborted) return summary({ status: "interrupted" });
    if (deadline.signal.aborted) {
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

/** The unit's records recomputed from `inputs` and cross-checked (`checkRecords`). */
function checkInputs(
  plan: SyncUnitPlan,
  start: ServiceRecords,
  inputs: UnitInputs,
): CheckedRecords {
  const base: InsightContext = {
    asset: plan.asset,
    horizon: plan.horizon,
    currentPrice: start.currentPrice,
    forecastStartTime: start.forecastStartTime,
    ...(inputs.closes !== undefined && {
      minuteClose: inputs.closes.minuteClose,
      priceAt: inputs.closes.priceAt,
    }),
    ...(inputs.previous !== undefined && { previous: inputs.previous }),
  };
  const session = new InsightSession(ensembleOf(inputs.members), {
    currentPrice: start.currentPrice,
  });
  return checkRecords(start.records, session, base, inputs.unavailable);
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
    forecastStartTime: null,
    status,
    pathSets: 0,
    crossChecked: 0,
    verdicts: noVerdicts(),
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
