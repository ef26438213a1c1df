/**
 * The first step of a sync unit: the service's records of every operation of the unit, and the
 * forecast start and current price they share.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { RecomputablePath } from "../../insights/recompute.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import type { SyncUnitPlan } from "./plan.ts";
import { UnitFailure } from "./unitFailure.ts";
import { messageOf } from "./unitResults.ts";

/**
 * What {@link fetchServiceRecords} gives: the records that arrived and share the unit's forecast
 * start, and that start and current price.
 * @example const { records, startUnix, currentPrice } = await fetchServiceRecords(client, plan, fail);
 */
export interface ServiceRecords {
  /** The records' `forecast_start_time`, as the service wrote it. */
  readonly forecastStartTime: string;
  readonly startUnix: number;
  /** The `current_price` of the record the start was taken from. */
  readonly currentPrice: number;
  /** The decoded records by operation, in the plan's order. */
  readonly records: ReadonlyMap<RecomputablePath, unknown>;
}

/**
 * Fetches every operation of the unit, in parallel, without `start_time` (the latest data) or,
 * for a unit of the past (`plan.startUnix`), with it, and
 * establishes their common `forecast_start_time`: the liquidation record's, or the one most records
 * give. A request that fails, or a record made from another start (the service moved to a newer
 * prompt between requests), is reported through `fail` and left out. Throws a `UnitFailure` when
 * no record gives a forecast start, or the chosen record has no positive current price.
 * @example
 * const { records } = await fetchServiceRecords(client, plan, (operation, reason) => console.error(operation, reason));
 */
export async function fetchServiceRecords(
  client: PathlabClient,
  plan: SyncUnitPlan,
  fail: (operation: RecomputablePath, reason: string) => void,
): Promise<ServiceRecords> {
  return forecastStartOf(await fetchRecords(client, plan, fail), fail);
}

/** Every operation of the unit, in parallel; the records that arrived, in the plan's order. */
async function fetchRecords(
  client: PathlabClient,
  plan: SyncUnitPlan,
  fail: (operation: RecomputablePath, reason: string) => void,
): Promise<Map<RecomputablePath, unknown>> {
  const params = {
    asset: plan.asset,
    horizon: plan.horizon,
    ...(plan.startUnix !== undefined && { start_time: isoSeconds(plan.startUnix) }),
  };
  const settled = await Promise.allSettled(
    plan.operations.map((operation) => client.request(operation, params as never)),
  );
  const records = new Map<RecomputablePath, unknown>();
  settled.forEach((outcome, index) => {
    const operation = plan.operations[index];
    if (outcome.status === "fulfilled") records.set(operation, outcome.value);
    else fail(operation, messageOf(outcome.reason));
  });
  return records;
}

/** The unit's forecast start and current price, and the records made from that start. */
function forecastStartOf(
  records: ReadonlyMap<RecomputablePath, unknown>,
  fail: (operation: RecomputablePath, reason: string) => void,
): ServiceRecords {
  const starts = new Map<RecomputablePath, { text: string; unix: number; price: number }>();
  for (const [operation, record] of records) {
    const first = Array.isArray(record) ? record[0] : record;
    const text = (first as { forecast_start_time?: unknown } | undefined)?.forecast_start_time;
    const milliseconds = typeof text === "string" ? parseIsoTimeMs(text) : NaN;
    if (Number.isFinite(milliseconds)) {
      const price = (first as { current_price?: unknown }).current_price;
      starts.set(operation, {
        text: text as string,
        unix: milliseconds / 1000,
        price: typeof price === "number" ? price : NaN,
      });
    }
  }
  const votes = new Map<number, number>();
  for (const { unix } of starts.values()) votes.set(unix, (votes.get(unix) ?? 0) + 1);
  const chosen =
    starts.get("/insights/liquidation") ??
    [...starts.values()].sort((a, b) => (votes.get(b.unix) ?? 0) - (votes.get(a.unix) ?? 0))[0];
  if (chosen === undefined) {
    throw new UnitFailure(
      "unit",
      `no service record gave a forecast_start_time (${records.size} of the unit's records arrived)`,
    );
  }
  if (!(chosen.price > 0 && chosen.price < Infinity)) {
    throw new UnitFailure(
      "unit",
      `the record of forecast start ${chosen.text} has no current_price to re-base the paths to`,
    );
  }
  const kept = new Map<RecomputablePath, unknown>();
  for (const [operation, record] of records) {
    const start = starts.get(operation);
    if (start !== undefined && start.unix !== chosen.unix) {
      fail(
        operation,
        `forecast_start_time ${start.text}, not the unit's ${chosen.text} (the service moved to another prompt between requests); left out`,
      );
      continue;
    }
    kept.set(operation, record);
  }
  return {
    forecastStartTime: chosen.text,
    startUnix: chosen.unix,
    currentPrice: chosen.price,
    records: kept,
  };
}
