/**
 * The volatility records: `/insights/volatility` and `/insights/volatility-percentiles`, with the
 * block layout of the insight conventions (`VOLATILITY_LAYOUTS`).
 */

import type { Horizon } from "../../domain/assets.ts";
import {
  DEFAULT_REBASE,
  HORIZON_LAYOUTS,
  VOLATILITY_DECIMALS,
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  nanMean,
  realizedWindowMinutes,
  roundTo,
  volatilityBlockSteps,
  volatilityPointBounds,
} from "../../domain/insightConventions.ts";
import type { Percentiles } from "../../domain/records/percentiles.ts";
import type {
  RealizedPrice,
  VolatilityPercentilesRecord,
  VolatilityRecord,
} from "../../domain/records/volatility.ts";
import { crossPathVolatility, realizedEntryVolatility } from "../../reference/volatility.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { preparedEnsemble, type PreparedEnsemble } from "./preparedEnsemble.ts";
import { percentilesOfSorted } from "./sortedColumnStatistics.ts";
import { sortAscending } from "./sortAscending.ts";

/**
 * Realized, backtested and forecast volatility (annualized percent), laid out as the insight
 * conventions' `VOLATILITY_LAYOUTS` describe (97 points for 24h, 31 for 1h):
 * - `realized`: from the window's listed prices (`realizedEntryVolatility` of the reference);
 * - `forecast_future.volatility`: per point of the UTC clock blocks (`volatilityPointBounds` of
 *   the conventions) the std across paths of the point's log return (`crossPathVolatility` of the
 *   reference, annualized by the point's length); null for an empty first point;
 * - `forecast_past.volatility`: the points after the first of the prompt one horizon earlier,
 *   re-based to the market price at its start, then the current ensemble's point 1.
 * Throws `RangeError` when no realized block can be computed, or when the previous prompt's
 * ensemble is missing or gives a non-finite value (the record has no place for them).
 * @example buildVolatilityRecord(inputs).forecast_future.volatility.length // => 97 (24h)
 */
export function buildVolatilityRecord(inputs: SandboxInsightInputs): VolatilityRecord {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  const prices = realizedPrices(inputs);
  const layout = VOLATILITY_LAYOUTS[inputs.horizon];
  const realized = realizedEntryVolatility(
    prices.map((entry) => entry.returns),
    layout.realizedBlockEntries,
    layout.pointCount,
  ).map(roundedOrNull);
  const future = pointVolatilities(ensemble, inputs, inputs.forecastStartUnix);
  const past = [
    ...pointVolatilities(previousEnsemble(inputs), inputs, previousStartUnix(inputs)).slice(1),
    future[1],
  ];
  if (!past.every(Number.isFinite)) {
    throw new RangeError(
      `${inputs.operationPath}: forecast_past.volatility: the ensembles give a non-finite volatility`,
    );
  }
  return {
    forecast_start_time: forecastStartTime,
    current_price: inputs.currentPrice,
    realized: {
      prices,
      volatility: realized,
      average_volatility: averageOf(realized, inputs, "realized.average_volatility"),
    },
    forecast_past: {
      volatility: past.map((value) => roundTo(value, VOLATILITY_DECIMALS)),
      average_volatility: averageOf(past, inputs, "forecast_past.average_volatility"),
    },
    forecast_future: {
      volatility: future.map(roundedOrNull),
      average_volatility: averageOf(future, inputs, "forecast_future.average_volatility"),
    },
  };
}

/**
 * Percentiles across paths of each block's annualized absolute log return
 * |ln(p[end] / p[start])| × √(525600 / block minutes) × 100 (R-7, 2 decimals): future = the current
 * ensemble, past = the previous prompt's (re-based to the price at its start); `realized.prices`
 * as in {@link buildVolatilityRecord}.
 * @example buildVolatilityPercentilesRecord(inputs).forecast_future.percentiles[0]["0.5"]
 */
export function buildVolatilityPercentilesRecord(
  inputs: SandboxInsightInputs,
): VolatilityPercentilesRecord {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  return {
    forecast_start_time: forecastStartTime,
    current_price: inputs.currentPrice,
    realized: { prices: realizedPrices(inputs) },
    forecast_past: {
      percentiles: blockPercentiles(previousEnsemble(inputs), inputs.horizon, inputs.timeIncrement),
    },
    forecast_future: {
      percentiles: blockPercentiles(ensemble, inputs.horizon, inputs.timeIncrement),
    },
  };
}

/** One entry per minute of the window, oldest first, `{price: null, returns: null}` without a close. */
function realizedPrices(inputs: SandboxInsightInputs): RealizedPrice[] {
  const prices: RealizedPrice[] = [];
  let previous = NaN;
  for (const minute of realizedWindowMinutes(inputs.horizon, inputs.forecastStartUnix)) {
    const price = inputs.minuteClose(minute);
    if (!Number.isFinite(price)) {
      prices.push({ price: null, returns: null });
    } else {
      prices.push({ price, returns: Number.isFinite(previous) ? price / previous - 1 : null });
    }
    previous = price;
  }
  return prices;
}

/** The points that bound the blocks: 0, k, 2k, … (blockCount + 1 of them). */
function blockBoundaries(
  ensemble: PreparedEnsemble,
  horizon: Horizon,
  timeIncrement: number,
): number[] {
  const stepsPerBlock = volatilityBlockSteps(horizon, timeIncrement);
  const { blockCount } = VOLATILITY_LAYOUTS[horizon];
  requirePoints(ensemble, horizon, blockCount * stepsPerBlock);
  return Array.from({ length: blockCount + 1 }, (_, block) => block * stepsPerBlock);
}

function requirePoints(ensemble: PreparedEnsemble, horizon: Horizon, lastPoint: number): void {
  if (lastPoint > ensemble.pointCount - 1) {
    throw new RangeError(
      `volatility requires ${lastPoint + 1} points per path for ${horizon}, got ${ensemble.pointCount}`,
    );
  }
}

/**
 * Per point of the volatility series of a prompt starting at `startUnix` (the insight
 * conventions' `volatilityPointBounds`: UTC clock blocks), the std across paths of the point's log
 * return, annualized by the point's own length: `crossPathVolatility` of the reference; NaN for an
 * empty point.
 */
function pointVolatilities(
  ensemble: PreparedEnsemble,
  inputs: SandboxInsightInputs,
  startUnix: number,
): number[] {
  const bounds = volatilityPointBounds(inputs.horizon, startUnix, inputs.timeIncrement);
  requirePoints(ensemble, inputs.horizon, bounds[bounds.length - 1]);
  return blockReturnColumns(ensemble, Array.from(bounds)).map((returns, point) => {
    const steps = bounds[point + 1] - bounds[point];
    return steps === 0 ? NaN : crossPathVolatility(returns, (steps * inputs.timeIncrement) / 60);
  });
}

/**
 * The buffer of {@link blockReturnColumns}, kept from one call to the next (7.7 MB for a 24h
 * ensemble of 10,000 paths, allocated twice per record otherwise).
 */
let blockReturns = new Float64Array(0);

/**
 * Every path's log return ln(p[end] / p[start]) between consecutive `boundaries` (path points),
 * one column per block (in path order): views of one block-major buffer that the next call
 * overwrites. It is filled path by path, so that each path's prices are read in order, where
 * reading block by block would visit every path's array once per block.
 */
function blockReturnColumns(
  ensemble: PreparedEnsemble,
  boundaries: readonly number[],
): Float64Array[] {
  const { pathCount } = ensemble;
  const blockCount = boundaries.length - 1;
  if (blockReturns.length < blockCount * pathCount) {
    blockReturns = new Float64Array(blockCount * pathCount);
  }
  const returns = blockReturns;
  for (let path = 0; path < pathCount; path++) {
    const prices = ensemble.paths[path];
    for (let block = 0; block < blockCount; block++) {
      returns[block * pathCount + path] = Math.log(
        prices[boundaries[block + 1]] / prices[boundaries[block]],
      );
    }
  }
  return Array.from({ length: blockCount }, (_, block) =>
    returns.subarray(block * pathCount, (block + 1) * pathCount),
  );
}

/** Per block, the nine percentiles across paths of the annualized absolute log return. */
function blockPercentiles(
  ensemble: PreparedEnsemble,
  horizon: Horizon,
  timeIncrement: number,
): Percentiles[] {
  const { blockMinutes } = VOLATILITY_LAYOUTS[horizon];
  const boundaries = blockBoundaries(ensemble, horizon, timeIncrement);
  return blockReturnColumns(ensemble, boundaries).map((column) => {
    for (let index = 0; index < column.length; index++) {
      column[index] = annualizeVolatility(Math.abs(column[index]), blockMinutes);
    }
    return percentilesOfSorted(sortAscending(column), VOLATILITY_DECIMALS);
  });
}

/** The previous prompt's start: one horizon before the forecast's unless the inputs name it. */
function previousStartUnix(inputs: SandboxInsightInputs): number {
  return (
    inputs.previousForecastStartUnix ??
    inputs.forecastStartUnix - HORIZON_LAYOUTS[inputs.horizon].horizonMinutes * 60
  );
}

/** The previous prompt's ensemble re-based to the market price at its start. */
function previousEnsemble(inputs: SandboxInsightInputs): PreparedEnsemble {
  const previousStart = previousStartUnix(inputs);
  if (inputs.previousPaths === undefined) {
    throw new RangeError(
      `${inputs.operationPath}: forecast_past needs inputs.previousPaths, the ensemble of the prompt at ${previousStart}; got none`,
    );
  }
  const price = inputs.priceAt(previousStart);
  if (!(price > 0 && Number.isFinite(price))) {
    throw new RangeError(
      `${inputs.operationPath}: forecast_past needs the market price at ${previousStart}, got ${price}`,
    );
  }
  return preparedEnsemble(inputs.previousPaths, price, inputs.options?.rebase ?? DEFAULT_REBASE);
}

function roundedOrNull(value: number): number | null {
  return Number.isFinite(value) ? roundTo(value, VOLATILITY_DECIMALS) : null;
}

/** numpy's nanmean of the points (NaN and null left out), unrounded; throws naming the field when there are none. */
function averageOf(
  values: readonly (number | null)[],
  inputs: SandboxInsightInputs,
  field: string,
): number {
  const mean = nanMean(values);
  if (Number.isNaN(mean)) {
    throw new RangeError(
      `${inputs.operationPath}: ${field}: no block has a finite volatility (${values.length} blocks)`,
    );
  }
  return mean;
}
