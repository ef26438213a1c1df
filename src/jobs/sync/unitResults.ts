/**
 * What a sync unit ends with, as a job reports it: a summary with nothing in it yet, a failure of
 * the unit at one of its stages, and an error's message for its reason.
 */

import { VERDICTS, type Verdict } from "../../crosscheck/verdicts.ts";
import { isoSeconds } from "../../domain/time.ts";
import { unitLabel, type SyncUnitPlan } from "./plan.ts";
import type { SyncFailure, SyncFailureStage, UnitSummary } from "./summary.ts";

/**
 * The summary of `plan`'s unit with nothing in it: no forecast start, path sets, verdicts or
 * failures (a unit that failed before it had any, or that an interrupted sync never started).
 * @example emptyUnitSummary(plan, "interrupted").pathSets // => 0
 */
export function emptyUnitSummary(plan: SyncUnitPlan, status: UnitSummary["status"]): UnitSummary {
  return {
    asset: plan.asset,
    horizon: plan.horizon,
    competition: plan.competition,
    forecastStartTime: plan.startUnix === undefined ? null : isoSeconds(plan.startUnix),
    status,
    pathSets: 0,
    pathSetsRefetched: 0,
    crossChecked: 0,
    verdicts: noVerdicts(),
    lacking: [],
    venueComparisons: 0,
    failures: 0,
    durationMs: 0,
  };
}

/**
 * A count of 0 for every verdict.
 * @example noVerdicts().exact // => 0
 */
export function noVerdicts(): Record<Verdict, number> {
  return Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
}

/**
 * A failure of `plan`'s unit at `stage`, with `reason` and what `more` adds (the operation, …).
 * @example unitFailure(plan, "store", "unit not stored: disk full").unit // => "BTC 24h"
 */
export function unitFailure(
  plan: SyncUnitPlan,
  stage: SyncFailureStage,
  reason: string,
  more: Partial<SyncFailure> = {},
): SyncFailure {
  return {
    unit: unitLabel(plan),
    asset: plan.asset,
    horizon: plan.horizon,
    stage,
    ...more,
    reason,
  };
}

/** An error's message, or the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
