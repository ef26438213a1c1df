/**
 * A sync unit up to its write: the service's records, the top-10 path sets at their
 * `forecast_start_time`, the recomputation and cross-check, and the rows to store. Free of the
 * store, so that it runs on the job's thread (`syncUnit`, which then writes) or on a unit pool
 * thread (`src/jobs/sync/task.ts`, whose rows the job's thread writes).
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { ENSEMBLE_DAYS } from "../../domain/insightConventions.ts";
import type { LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import type { PathSet } from "../../paths/pathSet.ts";
import type { StoreUnit } from "../../store/writeUnit.ts";
import { checkConfirmed, type HeldFailure } from "./confirmInputs.ts";
import { fetchServiceRecords } from "./fetchServiceRecords.ts";
import { fetchUnitInputs } from "./fetchUnitInputs.ts";
import { inFetchLane, type FetchLane } from "../harness/fetchLane.ts";
import type { SyncUnitPlan } from "./plan.ts";
import type { UnitRanking } from "./ranking.ts";
import type { SyncFailure, SyncFailureStage, UnitSummary } from "./summary.ts";
import { deadlineMessage, UnitDeadline } from "../harness/unitDeadline.ts";
import { UnitFailure } from "./unitFailure.ts";
import { emptyUnitSummary, messageOf, unitFailure } from "./unitResults.ts";

/**
 * What {@link fetchCheckedUnit} works with (and `syncUnit`, with a store).
 * @example
 * const checked = await fetchCheckedUnit({ client, runId: null, plan, ranking, asOfUnix, onFailure });
 */
export interface UnitCheckContext {
  readonly client: PathlabClient;
  /** The run the rows are written for (their `run_id`), if any. */
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
  readonly fetchLane?: FetchLane;
  /**
   * The longest the unit may take, in ms, from the moment its requests may start (it has the
   * fetch lane) until its write begins (a second turn in the lane, to confirm its ensemble, counts
   * too, with its wait behind the units that took the lane meanwhile). When it passes first, the
   * unit's requests stop, nothing of it is stored, and it is one failure that says so. A write
   * under way is not cut. Default: none.
   */
  readonly deadlineMs?: number;
  /**
   * The job's interruption: once it aborts, the unit stops where it is and ends `interrupted`,
   * without a failure.
   */
  readonly signal?: AbortSignal;
  /**
   * Whether the unit at this forecast start (Unix seconds) is stored already: then it ends
   * `already stored` once its service records are fetched, without its path sets.
   */
  readonly isStored?: (startUnix: number) => boolean;
}

/**
 * A unit up to its write: its summary so far and, when it has rows to store, those rows (the
 * summary then says `stored`, which holds once they are written). Plain data: it crosses threads.
 * @example const { summary, rows } = await fetchCheckedUnit(context);
 */
export interface CheckedUnit {
  readonly summary: UnitSummary;
  readonly rows?: StoreUnit;
}

/**
 * Steps (1)–(5) of a unit (`syncUnit` is the whole): (1) every operation of the unit at the
 * service, without `start_time` (the latest data), in parallel; (2) their common
 * `forecast_start_time` (the liquidation record's, or the one most records give; a record from
 * another start is a failure and left out) and the current price; (3) the ranking of the unit's
 * competition; (4) in parallel, the top-10 ensemble at that start (`fetchUnitInputs`,
 * `fetchEnsembleMembers`: invalid sets are failures with the validator's reason, the next miners
 * take their place, as the service does), the previous prompt's ensemble (one horizon earlier,
 * for `forecast_past`), and the 1-minute closes before the start (for `realized`); (5) each record
 * recomputed and cross-checked (`checkRecords`); when a miner was left out for an invalid set and
 * a value disagrees, that miner's set is asked again and the records checked against the
 * confirmed ensemble (`checkConfirmed`), so that a set damaged on the way does not end as stored
 * disagreements. Resolves to the rows to write (path sets, records, cross-check rows, venue
 * comparisons and the leaderboard), or to a summary without rows for a unit that ended before
 * (stored already, interrupted, or failed: without a forecast start, ranking or ensemble, or past
 * its deadline). Failures of one record or one path set are reported through `onFailure` and the
 * rest goes on. Never rejects for the service's failures: they are in the summary.
 * @example
 * const { summary, rows } = await fetchCheckedUnit(context);
 * summary.status // => "stored" (once `rows` are written)
 */
export async function fetchCheckedUnit(context: UnitCheckContext): Promise<CheckedUnit> {
  const started = performance.now();
  const { plan } = context;
  let failures = 0;
  // The unit's own client: its calls stop at the unit's deadline, which starts with its requests.
  const deadline = new UnitDeadline(
    context.deadlineMs,
    undefined,
    deadlineMessage("unit", context.deadlineMs ?? 0),
  );
  const client =
    context.deadlineMs === undefined ? context.client : context.client.withSignal(deadline.signal);
  const fail = (stage: SyncFailureStage, reason: string, more: Partial<SyncFailure> = {}) => {
    // What an interruption cancels is no failure of the service or of the data; what the
    // deadline cancels is the one failure of the unit that says so.
    if (context.signal?.aborted) return;
    if (deadline.passed && stage !== "unit") return;
    failures += 1;
    context.onFailure(unitFailure(plan, stage, reason, more));
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
      deadline.start();
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
      // the ranking is the job's (shared by the units): the unit's deadline stops its wait
      const { operation: rankedBy, rows: ranking } = await untilAborted(
        rankingPromise,
        deadline.signal,
      ).catch((error: unknown) => {
        throw new UnitFailure("ranking", messageOf(error));
      });
      const inputs = await fetchUnitInputs(client, plan, start.startUnix, ranking, held);
      return { start, ranking, rankedBy, inputs };
    };
    const fetched = await inFetchLane(context.fetchLane, fetchAll);
    if (fetched === undefined) return { summary: summary({ status: "already stored" }) };
    const { inputs, checked, ...confirmed } = await checkConfirmed({
      client,
      plan,
      start: fetched.start,
      ranking: fetched.ranking,
      inputs: fetched.inputs,
      failures: heldFailures,
      ...(context.fetchLane !== undefined && { fetchLane: context.fetchLane }),
      stopped: () => context.signal?.aborted === true || deadline.passed,
    });
    for (const [stage, reason, more] of confirmed.failures) fail(stage, reason, more);
    for (const failure of checked.failures) {
      fail(failure.stage, failure.reason, { operation: failure.operation });
    }
    deadline.signal.throwIfAborted();
    context.signal?.throwIfAborted();
    const rows = unitRows(context, { ...fetched, inputs, checked });
    return {
      summary: summary({
        status: "stored",
        pathSets: inputs.members.length,
        pathSetsRefetched: inputs.refetched,
        crossChecked: checked.crossChecked,
        verdicts: checked.verdicts,
        lacking: checked.lacking,
        venueComparisons: checked.venueComparisons.length,
      }),
      rows,
    };
  } catch (error) {
    if (context.signal?.aborted) return { summary: summary({ status: "interrupted" }) };
    if (deadline.passed) {
      fail("unit", `unit not stored: ${deadline.message}`);
      return { summary: summary({}) };
    }
    const stage = error instanceof UnitFailure ? error.stage : "unit";
    fail(stage, `unit not stored: ${messageOf(error)}`);
    return { summary: summary({}) };
  } finally {
    deadline.stop();
  }
}

/** `promise`, or its rejection with `signal`'s reason once `signal` aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      const stop = () => reject(signal.reason as Error);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    }),
  ]);
}

/**
 * The rows of a unit to write: its path sets, the records and their cross-checks, the venue
 * comparisons, and the ranking as the leaderboard of its time (the rows' latest `updated_at`, the
 * forecast start for a historical ranking, else the job's time).
 */
function unitRows(
  context: UnitCheckContext,
  unit: {
    readonly start: { readonly startUnix: number };
    readonly ranking: readonly LeaderboardV2Row[];
    readonly rankedBy: UnitRanking["operation"];
    readonly inputs: { readonly members: readonly PathSet[] };
    readonly checked: Pick<StoreUnit, "insights" | "crosschecks" | "venueComparisons">;
  },
): StoreUnit {
  const { plan } = context;
  const { start, ranking, rankedBy, inputs, checked } = unit;
  const fetchedAtUnix = Date.now() / 1000;
  return {
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
          (rankedBy === "/v2/meta-leaderboard/historical" ? start.startUnix : context.asOfUnix),
        rows: ranking,
      },
    ],
  };
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
