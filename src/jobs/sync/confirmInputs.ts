/**
 * The compute step of a sync unit with its one correction: the records checked against the unit's
 * inputs, and, when a miner left out for invalid sets may only have been damaged on the way, its
 * set asked again before the disagreement is believed.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { InsightContext } from "../../insights/context.ts";
import { InsightSession } from "../../insights/session.ts";
import { ensembleOf } from "../../paths/ensemble.ts";
import type { LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import { checkRecords, type CheckedRecords } from "./checkRecords.ts";
import type { ServiceRecords } from "./fetchServiceRecords.ts";
import { fetchUnitInputs, type UnitInputs } from "./fetchUnitInputs.ts";
import { inFetchLane, type FetchLane } from "../harness/fetchLane.ts";
import type { SyncUnitPlan } from "./plan.ts";
import type { SyncFailure, SyncFailureStage } from "./summary.ts";

/**
 * A failure of the inputs, held until they are final.
 * @example const held: HeldFailure = ["path set", "miner 5: …", { minerUid: 5 }];
 */
export type HeldFailure = readonly [SyncFailureStage, string, Partial<SyncFailure>?];

/**
 * What {@link checkConfirmed} works with: the unit's client, plan, service records and ranking,
 * the first fetch's inputs and their failures, the fetch lane, and whether the unit was stopped.
 */
export interface ConfirmContext {
  readonly client: PathlabClient;
  readonly plan: SyncUnitPlan;
  readonly start: ServiceRecords;
  readonly ranking: readonly LeaderboardV2Row[];
  readonly inputs: UnitInputs;
  readonly failures: readonly HeldFailure[];
  readonly fetchLane?: FetchLane;
  /** True once the job is interrupted or the unit's deadline passed. */
  readonly stopped: () => boolean;
}

/**
 * The unit's records checked against its inputs (`checkRecords`). When a miner was left out for
 * sets that were invalid on every copy and a value then is `within-mc` or `mismatch` (the values
 * an ensemble changes), the left-out miners are asked again (`fetchUnitInputs` with `confirm`, in
 * the fetch lane) and the records checked against the confirmed inputs, with their failures. If
 * that second fetch fails, the first inputs stand, and the failure is added to theirs.
 * @example const { inputs, checked, failures } = await checkConfirmed(context);
 */
export async function checkConfirmed(
  context: ConfirmContext,
): Promise<{ inputs: UnitInputs; checked: CheckedRecords; failures: readonly HeldFailure[] }> {
  const { plan, start, inputs } = context;
  const checked = checkInputs(plan, start, inputs);
  const moved = checked.crosschecks.some(
    (row) => row.verdict === "within-mc" || row.verdict === "mismatch",
  );
  if (inputs.replaced === 0 || !moved) return { inputs, checked, failures: context.failures };
  const again: HeldFailure[] = [];
  const confirm = () =>
    fetchUnitInputs(
      context.client,
      plan,
      start.startUnix,
      context.ranking,
      (stage, reason, more) => again.push([stage, reason, more]),
      inputs,
    );
  try {
    const confirmed = await inFetchLane(context.fetchLane, confirm);
    return { inputs: confirmed, checked: checkInputs(plan, start, confirmed), failures: again };
  } catch (error) {
    if (context.stopped()) throw error;
    const reason = `asking the left-out miners again failed (${error instanceof Error ? error.message : String(error)}); the first fetch's ensemble is used`;
    return { inputs, checked, failures: [...context.failures, ["ensemble", reason]] };
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
  // Pooled and re-based in one copy: the session takes an ensemble re-based to its price as it is.
  const ensemble = ensembleOf(inputs.members, { rebaseTo: start.currentPrice });
  const session = new InsightSession(ensemble, { currentPrice: start.currentPrice });
  return checkRecords(start.records, session, base, inputs.unavailable);
}
