/**
 * The volatility records recomputed from an ensemble: `/insights/volatility` and
 * `/insights/volatility-percentiles` (realized part from 1-minute closes, forecast parts from the
 * current and the previous prompt's ensembles).
 */

import { realizedEntryVolatilities } from "../core/volatility.ts";
import {
  HORIZON_LAYOUTS,
  VOLATILITY_DECIMALS,
  VOLATILITY_LAYOUTS,
  nanMean,
  realizedWindowMinutes,
  roundTo,
} from "../domain/insightConventions.ts";
import type {
  RealizedPrice,
  VolatilityPercentilesRecord,
  VolatilityRecord,
} from "../domain/records/volatility.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import { blockVolatilityPercentiles, volatilityPoints } from "./blockVolatility.ts";
import type { InsightContext, ResolvedContext } from "./context.ts";
import { percentileObjects } from "./percentileObjects.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import { insightSessionFor, type InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";

/**
 * Realized, backtested and forecast volatility, annualized percent, laid out as the insight
 * conventions' `VOLATILITY_LAYOUTS` describe (97 points for 24h, 31 for 1h):
 * - `realized.prices`: one entry per minute of the window ending at the forecast start's minute
 *   (1,440 minutes for 24h, 120 for 1h), `{price: null, returns: null}` where `minuteClose` has no
 *   close, `returns` the simple return vs the previous entry;
 * - `realized.volatility`: blocks of the listed returns (`realizedEntryVolatilities` of core),
 *   rounded, null below 2 returns; its average is numpy's nanmean of the rounded points;
 * - `forecast_future.volatility`: per point of the UTC clock blocks the std across paths of the
 *   point's log return (`volatilityPoints`), null for an empty point 0 (a start on a block's end,
 *   or too late in it for a step);
 * - `forecast_past.volatility`: the points after the first of `context.previous` (the prompt one
 *   horizon earlier, or the latest one before that when none starts exactly then, re-based to its
 *   own price), then the current ensemble's point 1;
 * - forecast averages: numpy's nanmean of the unrounded points, unrounded.
 * Requires `context.minuteClose` and `context.previous` (no defaults). Standard errors for the
 * forecast values (the realized part is data, not Monte Carlo); an average's is √(Σ SE²)/points
 * (blocks taken as independent).
 * Throws `RangeError` naming the field for a missing input, a context that does not fit the
 * ensemble, or a part with no finite block (the record has no place for it).
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start, with `minuteClose` and
 *   `previous`.
 * @example volatilityInsight(ensemble, context).record.forecast_future.volatility.length // => 97
 */
export function volatilityInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<VolatilityRecord> {
  const operation = "volatilityInsight";
  const { session, previous, prices } = volatilityInputs(operation, source, context);
  const layout = VOLATILITY_LAYOUTS[context.horizon];
  const realized = Array.from(
    realizedEntryVolatilities(
      Float64Array.from(prices, (entry) => entry.returns ?? NaN),
      layout.realizedBlockEntries,
      layout.pointCount,
    ),
    roundedOrNull,
  );
  const future = volatilityPoints(session, context.horizon);
  const pastPoints = volatilityPoints(previous, context.horizon);
  const past = {
    values: Float64Array.of(...pastPoints.values.subarray(1), future.values[1]),
    standardErrors: Float64Array.of(
      ...pastPoints.standardErrors.subarray(1),
      future.standardErrors[1],
    ),
  };
  for (let point = 0; point < past.values.length; ++point) {
    if (!Number.isFinite(past.values[point])) {
      throw new RangeError(
        `${operation}: forecast_past.volatility[${point}]: the ensembles give a non-finite volatility`,
      );
    }
  }
  const standardErrors: Record<string, number> = {};
  const futureAverage = averageOf(operation, "forecast_future.average_volatility", future.values);
  const pastAverage = averageOf(operation, "forecast_past.average_volatility", past.values);
  recordErrors(standardErrors, "forecast_future", future, futureAverage.count);
  recordErrors(standardErrors, "forecast_past", past, pastAverage.count);
  return {
    record: {
      forecast_start_time: context.forecastStartTime,
      current_price: context.currentPrice,
      realized: {
        prices,
        volatility: realized,
        average_volatility: averageOf(operation, "realized.average_volatility", realized).value,
      },
      forecast_past: {
        volatility: Array.from(past.values, (value) => roundTo(value, VOLATILITY_DECIMALS)),
        average_volatility: pastAverage.value,
      },
      forecast_future: {
        volatility: Array.from(future.values, roundedOrNull),
        average_volatility: futureAverage.value,
      },
    },
    standardErrors,
  };
}

/**
 * Percentiles (the nine keys, R-7, 2 decimals) across paths of each block's annualized absolute
 * log return |ln(p[end] / p[start])| × √(525600 / block minutes) × 100 (`blockVolatilityPercentiles`): `forecast_future` over the ensemble, `forecast_past` over
 * `context.previous`; `realized.prices` as in {@link volatilityInsight}. Requires
 * `context.minuteClose` and `context.previous`. Standard errors from the order statistics.
 * Throws `RangeError` naming the field for a missing input or a context that does not fit.
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start, with `minuteClose` and
 *   `previous`.
 * @example volatilityPercentilesInsight(ensemble, context).record.forecast_future.percentiles[0]["0.5"]
 */
export function volatilityPercentilesInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<VolatilityPercentilesRecord> {
  const { session, previous, prices } = volatilityInputs(
    "volatilityPercentilesInsight",
    source,
    context,
  );
  const standardErrors: Record<string, number> = {};
  return {
    record: {
      forecast_start_time: context.forecastStartTime,
      current_price: context.currentPrice,
      realized: { prices },
      forecast_past: {
        percentiles: percentileObjects(
          blockVolatilityPercentiles(previous, context.horizon),
          "forecast_past",
          VOLATILITY_DECIMALS,
          standardErrors,
        ),
      },
      forecast_future: {
        percentiles: percentileObjects(
          blockVolatilityPercentiles(session, context.horizon),
          "forecast_future",
          VOLATILITY_DECIMALS,
          standardErrors,
        ),
      },
    },
    standardErrors,
  };
}

/**
 * What both records read first, in this order: the session and the checked context
 * ({@link sessionAndContext}), the session of `context.previous` and the realized prices.
 */
function volatilityInputs(
  operation: string,
  source: Ensemble | InsightSession,
  context: InsightContext,
): {
  readonly session: InsightSession;
  readonly previous: InsightSession;
  readonly prices: RealizedPrice[];
} {
  const { session, resolved } = sessionAndContext(operation, source, context);
  const previous = previousSession(operation, resolved, session);
  return { session, previous, prices: realizedPrices(operation, resolved) };
}

function requireMinuteClose(
  operation: string,
  context: InsightContext,
): (minuteUnix: number) => number {
  const minuteClose = context.minuteClose;
  if (typeof minuteClose !== "function") {
    throw new RangeError(
      `${operation} requires context.minuteClose (the 1-minute closes before the forecast start, for realized), got ${typeof minuteClose}`,
    );
  }
  return minuteClose;
}

/** One entry per minute of the window, oldest first, `{price: null, returns: null}` without a close. */
function realizedPrices(operation: string, resolved: ResolvedContext): RealizedPrice[] {
  const minuteClose = requireMinuteClose(operation, resolved.context);
  const prices: RealizedPrice[] = [];
  let previous = NaN;
  for (const minute of realizedWindowMinutes(
    resolved.context.horizon,
    resolved.forecastStartUnix,
  )) {
    const price = minuteClose(minute);
    if (!(price > 0 && price < Infinity)) {
      prices.push({ price: null, returns: null });
      previous = NaN;
      continue;
    }
    prices.push({ price, returns: previous > 0 ? price / previous - 1 : null });
    previous = price;
  }
  return prices;
}

/** The session of `context.previous`, checked: the prompt one horizon before the forecast start. */
function previousSession(
  operation: string,
  resolved: ResolvedContext,
  current: InsightSession,
): InsightSession {
  const previous = resolved.context.previous;
  const expectedStart = resolved.forecastStartUnix - resolved.horizonMinutes * 60;
  if (previous === undefined) {
    throw new RangeError(
      `${operation} requires context.previous (the ensemble of the prompt at unix ${expectedStart}, for forecast_past), got none`,
    );
  }
  const session = insightSessionFor(previous.ensemble, {
    currentPrice: previous.currentPrice,
    rebase: current.rebase,
  });
  const layout = HORIZON_LAYOUTS[resolved.context.horizon];
  const { startTime, nPoints, timeIncrement } = session.ensemble;
  // The prompt one horizon earlier, or (none starting exactly then) the latest one before it.
  const horizonSeconds = resolved.horizonMinutes * 60;
  if (
    !(startTime <= expectedStart && startTime > expectedStart - horizonSeconds) ||
    nPoints !== layout.nPoints ||
    timeIncrement !== layout.timeIncrement
  ) {
    throw new RangeError(
      `${operation} requires context.previous.ensemble to start one horizon before the forecast start ` +
        `(unix ${expectedStart}, or the latest prompt before it; ${layout.nPoints} points every ${layout.timeIncrement} s), ` +
        `got unix ${startTime}, ${nPoints} points every ${timeIncrement} s`,
    );
  }
  return session;
}

function roundedOrNull(value: number): number | null {
  return Number.isFinite(value) ? roundTo(value, VOLATILITY_DECIMALS) : null;
}

/** numpy's nanmean of the points, unrounded, and their count; throws naming the field when there are none. */
function averageOf(
  operation: string,
  field: string,
  values: Float64Array | readonly (number | null)[],
): { value: number; count: number } {
  let count = 0;
  for (const value of values) if (value !== null && Number.isFinite(value)) ++count;
  if (count === 0) {
    throw new RangeError(
      `${operation}: ${field}: no block has a finite volatility (${values.length} blocks)`,
    );
  }
  return { value: nanMean(values), count };
}

function recordErrors(
  standardErrors: Record<string, number>,
  part: "forecast_past" | "forecast_future",
  estimates: { values: Float64Array; standardErrors: Float64Array },
  finiteCount: number,
): void {
  let sumOfSquares = 0;
  for (let block = 0; block < estimates.values.length; ++block) {
    if (!Number.isFinite(estimates.values[block])) continue;
    const error = estimates.standardErrors[block];
    standardErrors[standardErrorKey([part, "volatility", block])] = error;
    sumOfSquares += error * error;
  }
  standardErrors[standardErrorKey([part, "average_volatility"])] =
    Math.sqrt(sumOfSquares) / finiteCount;
}
