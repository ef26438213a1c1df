/**
 * The second step of a sync unit: what its records are recomputed from, fetched in parallel: the
 * top-10 ensemble at the forecast start, the previous prompt's ensemble, and the minute closes.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { InsightContext } from "../../insights/context.ts";
import type { RecomputablePath } from "../../insights/recompute.ts";
import { ensembleOf } from "../../paths/ensemble.ts";
import type { PathSet } from "../../paths/pathSet.ts";
import { HORIZON_LAYOUTS, VOLATILITY_LAYOUTS } from "../../domain/insightConventions.ts";
import { recomputedPathsReading } from "../../domain/insightKindLists.ts";
import type { LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import {
  fetchEnsembleMembers,
  type EnsembleMembers,
  type RejectedPathSet,
} from "./fetchEnsembleMembers.ts";
import { fetchMinuteCloses, type MinuteCloses } from "./fetchMinuteCloses.ts";
import type { SyncUnitPlan } from "./plan.ts";
import type { SyncFailure, SyncFailureStage } from "./summary.ts";
import { UnitFailure } from "./unitFailure.ts";
import { messageOf } from "./unitResults.ts";

/** Operations whose records need the previous prompt's ensemble and the minute closes. */
const VOLATILITY_OPERATIONS: readonly RecomputablePath[] =
  recomputedPathsReading("previous-prompt");

/**
 * What {@link fetchUnitInputs} gives.
 * @example const { members, previous, closes, unavailable } = await fetchUnitInputs(client, plan, startUnix, ranking, fail);
 */
export interface UnitInputs {
  /** The ensemble's path sets, in ranking order. */
  readonly members: readonly PathSet[];
  /** The previous prompt's ensemble and price, when both could be had. */
  readonly previous: InsightContext["previous"];
  readonly closes: MinuteCloses | undefined;
  /** Operations that cannot be recomputed for want of an input, and why. */
  readonly unavailable: ReadonlyMap<RecomputablePath, string>;
  /** Miners left out of either ensemble because every copy of their set was invalid. */
  readonly replaced: number;
  /**
   * Sets of either ensemble whose first copy was invalid and a later copy valid (damaged on the
   * way, repaired by fetching it again): used, and no failure.
   */
  readonly refetched: number;
  /** The ensembles as fetched (their settled answers are reused when the inputs are confirmed). */
  readonly ensembles: {
    readonly current: EnsembleMembers;
    readonly previous: EnsembleMembers | undefined;
  };
}

/**
 * Copies of an invalid set fetched when a unit's inputs are confirmed (`fetchUnitInputs` with
 * `confirm`): a set the service damages on the way, one response in two, comes back valid at
 * least once in 6 with probability 98.4 %.
 */
export const CONFIRMING_COPIES = 6;

/**
 * Fetches, in parallel: the top-10 ensemble at `startUnix` (`fetchEnsembleMembers`; each set
 * invalid on every copy is reported through `fail` with the validator's reason, and a set that a
 * later copy repaired is counted in `refetched`), the ensemble of the prompt one
 * horizon earlier (for `forecast_past` of the volatility records, only when the unit has them)
 * and its market price, and the 1-minute closes before the start (the realized window or the
 * H + 1 minutes of realized volatility, whichever is longer, and an hour more so that the previous
 * prompt's price is found after missing minutes). Throws a `UnitFailure` when the ensemble cannot
 * be fetched or has no valid member; a missing previous ensemble or closes are reported and make
 * the volatility records `unavailable` instead.
 *
 * With `confirm` (the inputs of a first fetch whose ensemble left a miner out, and whose
 * cross-check then disagreed), only what was not settled is asked again: each left-out miner's set
 * up to {@link CONFIRMING_COPIES} times, and the minute closes if they could not be had. A set that
 * was only damaged on the way then takes its place back, and the verdicts are not computed from a
 * fetch that failed.
 * @example
 * const inputs = await fetchUnitInputs(client, plan, startUnix, ranking, fail);
 * ensembleOf(inputs.members).nPaths // => 10000
 */
export async function fetchUnitInputs(
  client: PathlabClient,
  plan: SyncUnitPlan,
  startUnix: number,
  ranking: readonly LeaderboardV2Row[],
  fail: (stage: SyncFailureStage, reason: string, more?: Partial<SyncFailure>) => void,
  confirm?: UnitInputs,
): Promise<UnitInputs> {
  const ranked = ranking.map((row) => row.neuron_uid);
  const { horizonMinutes } = HORIZON_LAYOUTS[plan.horizon];
  const horizonSeconds = horizonMinutes * 60;
  const volatility = plan.operations.some((operation) => VOLATILITY_OPERATIONS.includes(operation));
  // The realized window (or the H + 1 minutes of realized volatility) before the start, and an
  // hour more so that the previous prompt's price finds a close even after missing minutes.
  const windowMinutes = Math.max(
    VOLATILITY_LAYOUTS[plan.horizon].realizedWindowMinutes,
    horizonMinutes + 1,
  );
  const again = (earlier: EnsembleMembers | undefined) =>
    confirm === undefined ? {} : { copies: CONFIRMING_COPIES, known: earlier?.known };
  const [current, previous, closes] = await Promise.allSettled([
    fetchEnsembleMembers(client, {
      asset: plan.asset,
      horizon: plan.horizon,
      startUnix,
      ranked,
      ...again(confirm?.ensembles.current),
    }),
    volatility
      ? fetchEnsembleMembers(client, {
          asset: plan.asset,
          horizon: plan.horizon,
          startUnix: startUnix - horizonSeconds,
          ranked,
          ...again(confirm?.ensembles.previous),
        })
      : Promise.resolve(undefined),
    confirm?.closes ??
      fetchMinuteCloses(client, plan.asset, startUnix - (windowMinutes + 60) * 60, startUnix),
  ]);
  if (current.status === "rejected") {
    throw new UnitFailure("ensemble", `path sets: ${messageOf(current.reason)}`);
  }
  for (const rejected of replacedSets(current.value)) {
    fail("path set", rejectionReason(rejected), {
      minerUid: rejected.minerUid,
      operation: "/v2/prediction/historical",
    });
  }
  if (current.value.members.length === 0) {
    throw new UnitFailure(
      "ensemble",
      `no valid path set among the ${ranked.length} ranked miners of ${plan.competition}`,
    );
  }
  const unavailable = new Map<RecomputablePath, string>();
  const missing = (what: string) => {
    for (const operation of VOLATILITY_OPERATIONS) {
      if (plan.operations.includes(operation))
        unavailable.set(operation, `${what}; not recomputed`);
    }
  };
  let previousForecast: InsightContext["previous"];
  let minuteCloses: MinuteCloses | undefined;
  if (closes.status === "fulfilled") minuteCloses = closes.value;
  else {
    fail("minute closes", messageOf(closes.reason), { operation: "/validation/realized-path" });
    missing(`the minute closes could not be fetched (${messageOf(closes.reason)})`);
  }
  if (previous.status === "rejected") {
    fail("previous path set", messageOf(previous.reason), {
      operation: "/v2/prediction/historical",
    });
    missing(`the previous prompt's path sets could not be fetched (${messageOf(previous.reason)})`);
  } else if (previous.value !== undefined) {
    for (const rejected of replacedSets(previous.value)) {
      fail("previous path set", rejectionReason(rejected), {
        minerUid: rejected.minerUid,
        operation: "/v2/prediction/historical",
      });
    }
    const price = minuteCloses?.priceAt(startUnix - horizonSeconds) ?? NaN;
    if (previous.value.members.length > 0 && price > 0) {
      // re-based here as its session would re-base it (additive, to its own price): one copy
      const ensemble = ensembleOf(previous.value.members, { rebaseTo: price });
      previousForecast = { ensemble, currentPrice: price };
    } else if (minuteCloses !== undefined) {
      missing(
        previous.value.members.length === 0
          ? `no valid path set of the prompt one horizon earlier`
          : `no market price at the prompt one horizon earlier`,
      );
    }
  }
  const previousMembers = previous.status === "fulfilled" ? previous.value : undefined;
  const count = (outcome: RejectedPathSet["outcome"]) =>
    [current.value, previousMembers].reduce(
      (sum, ensemble) =>
        sum + (ensemble?.rejected.filter((entry) => entry.outcome === outcome).length ?? 0),
      0,
    );
  return {
    members: current.value.members,
    previous: previousForecast,
    closes: minuteCloses,
    unavailable,
    replaced: count("replaced"),
    refetched: count("corrected"),
    ensembles: { current: current.value, previous: previousMembers },
  };
}

/** The sets of `ensemble` invalid on every copy: failures (a set repaired by a later copy is none). */
function replacedSets(ensemble: EnsembleMembers): RejectedPathSet[] {
  return ensemble.rejected.filter((rejected) => rejected.outcome === "replaced");
}

function rejectionReason(rejected: RejectedPathSet): string {
  return `${rejected.reason} (invalid on every copy fetched: left out, the next miner of the ranking takes its place)`;
}
