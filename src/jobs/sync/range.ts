/**
 * The sync units of a range: every forecast start of each asset and horizon in the range, each a
 * unit of the past (`SyncUnitPlan.startUnix`) that asks the service for its historical data.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { HORIZON_LAYOUTS } from "../../domain/insightConventions.ts";
import type { PromptsParams } from "../../domain/params.ts";
import { ERA_DATES } from "../../domain/eras.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import type { SyncUnitPlan } from "./plan.ts";
import { timeRangeOption } from "../harness/defaults.ts";
import { UsageError } from "../../service/usageError.ts";

/**
 * A range of forecast starts, Unix seconds, both ends included.
 * @example const range: SyncRange = { fromUnix: 1763640000, toUnix: 1763643600 };
 */
export interface SyncRange {
  readonly fromUnix: number;
  readonly toUnix: number;
}

/**
 * The first forecast start a sync unit of the past may ask for: the three competitions' era. A
 * unit is ranked by today's competition of its asset and horizon (`competitionFor`); before this
 * date the service's ensembles came from the two competitions `low` and `high`, which sync units
 * do not model.
 * @example isoSeconds(EARLIEST_SYNC_START) // => "2026-06-23T00:00:00Z"
 */
export const EARLIEST_SYNC_START = ERA_DATES.threeCompetitions;

/**
 * The range of `from` and `to` (ISO 8601), or undefined when neither is given. Throws
 * `UsageError` naming the option for one without the other, a time that does not parse, `to`
 * before `from`, a range longer than `timeRangeOption` allows, and, for sync units (`what`
 * "forecasts"), a start before {@link EARLIEST_SYNC_START}.
 * @param from - `--from`, an ISO 8601 time, or `undefined`.
 * @param to - `--to`, an ISO 8601 time, or `undefined`.
 * @param command - the command the errors name; `sync` by default.
 * @param what - what the range selects: `"forecasts"` (the default) or `"prompts"`.
 * @example syncRangeOf("2026-11-21T00:00:00Z", "2026-11-21T06:00:00Z") // => { fromUnix: 1795219200, toUnix: 1795240800 }
 */
export function syncRangeOf(
  from: string | undefined,
  to: string | undefined,
  command = "sync",
  what: "forecasts" | "prompts" = "forecasts",
): SyncRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  if (from === undefined || to === undefined) {
    throw new UsageError(
      `${command}: --from and --to go together (the ${what} of a range); got only ${from === undefined ? "--to" : "--from"}`,
    );
  }
  const range = timeRangeOption(command, from, to);
  if (what === "forecasts" && range.fromUnix < EARLIEST_SYNC_START) {
    throw new UsageError(
      `${command}: --from: expected a time from ${isoSeconds(EARLIEST_SYNC_START)} on (before it the service's ensembles came from the competitions low and high, which sync units do not model), got ${from}`,
    );
  }
  return range;
}

/**
 * The error of a range in which the service lists no forecast start of `plans`.
 * @param command - the command the message names, e.g. `sync`.
 * @param plans - the assets and horizons asked for.
 * @param range - the range asked for, in Unix seconds.
 * @param nowUnix - the service's clock, in Unix seconds.
 * @example throw noForecastStarts("sync", plans, range, nowUnix);
 */
export function noForecastStarts(
  command: string,
  plans: readonly SyncUnitPlan[],
  range: SyncRange,
  nowUnix: number,
): UsageError {
  const units = [...new Set(plans.map((plan) => `${plan.asset} ${plan.horizon}`))].join(", ");
  const end = Math.min(range.toUnix, nowUnix);
  return new UsageError(
    `${command}: --from/--to: the service lists no forecast start of ${units} from ${isoSeconds(range.fromUnix)} to ${isoSeconds(end)}${end < range.toUnix ? " (its clock)" : ""}`,
  );
}

/**
 * The units of `plans` (asset × horizon) over `range`: one per forecast start of the asset and
 * horizon that the service lists (`/validation/prompts`, the prompts' shape of the horizon) in
 * the range and not after `nowUnix`, ordered by start, then as `plans`.
 * @param client - the client of the service.
 * @param plans - the assets and horizons to sync.
 * @param range - the range of forecast starts, in Unix seconds.
 * @param nowUnix - the service's clock, in Unix seconds: no start after it.
 * @example const units = await planSyncRange(client, planSyncUnits(["BTC"], ["1h"]), range, nowUnix);
 */
export async function planSyncRange(
  client: PathlabClient,
  plans: readonly SyncUnitPlan[],
  range: SyncRange,
  nowUnix: number,
): Promise<SyncUnitPlan[]> {
  const toUnix = Math.min(range.toUnix, nowUnix);
  if (toUnix < range.fromUnix) return [];
  const units: { plan: SyncUnitPlan; order: number }[] = [];
  for (const [order, plan] of plans.entries()) {
    const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[plan.horizon];
    const { start_times: starts } = await client.request("/validation/prompts", {
      asset: plan.asset as PromptsParams["asset"],
      from: isoSeconds(range.fromUnix),
      to: isoSeconds(toUnix),
      time_increment: timeIncrement as PromptsParams["time_increment"],
      time_length: (horizonMinutes * 60) as PromptsParams["time_length"],
    });
    for (const start of starts) {
      const startUnix = parseIsoTimeMs(start) / 1000;
      if (startUnix >= range.fromUnix && startUnix <= toUnix) {
        units.push({ plan: { ...plan, startUnix }, order });
      }
    }
  }
  return units
    .sort((a, b) => a.plan.startUnix! - b.plan.startUnix! || a.order - b.order)
    .map(({ plan }) => plan);
}
