/**
 * What an insight is computed for besides the paths: asset, horizon, current price, forecast start,
 * and every ambiguous choice of the spec as an option with a documented default (the defaults are
 * the insight conventions of `src/domain/insightConventions.ts`).
 */

import type { Horizon } from "../domain/assets.ts";
import {
  HORIZON_LAYOUTS,
  type LiquidationWindow,
  type RebaseOption,
  type TimeInIntervalUnit,
  type TouchEstimate,
} from "../domain/insightConventions.ts";
import type { ComparisonType } from "../domain/records/outcomes.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightSession } from "./session.ts";

/**
 * One market of a venue A range-family event, as the model side needs it (usually taken from the
 * service's record).
 * @example const market: RangeMarket = { cmpType: "range", refPrices: [66000, 68000], title: "[66000, 68000]" };
 */
export interface RangeMarket {
  /** `range` P(lo ≤ S_end ≤ hi), `above` P(S_end > k), `below` P(S_end < k), `hit` touch of k. */
  readonly cmpType: ComparisonType;
  /** Two bounds for `range`, one level otherwise. */
  readonly refPrices: readonly number[];
  /** Copied into the model side when given (the earlier range form requires a title). */
  readonly title?: string;
  /** Copied into the model side when given. */
  readonly slug?: string;
}

/**
 * One venue B contract: its strike (`start_price`).
 * @example const contract: VenueBContract = { startPrice: 68250.5, slug: "btc-above-68250-5" };
 */
export interface VenueBContract {
  /** The strike: P(S_end ≥ startPrice) is the model's probability Up. */
  readonly startPrice: number;
  /** Copied into the model side when given. */
  readonly slug?: string;
}

/**
 * The forecast-past input of the volatility records: the ensemble of the prompt one horizon before
 * the forecast start, and the market price it is re-based to (the price at its own start, as the
 * service reported it then).
 * @example const previous: PreviousForecast = { ensemble: previousEnsemble, currentPrice: 67012.4 };
 */
export interface PreviousForecast {
  readonly ensemble: Ensemble | InsightSession;
  readonly currentPrice: number;
}

/**
 * Everything an insight function needs besides the ensemble. Only the first four fields are
 * required; every other field has the default named in its comment.
 * @example
 * const context: InsightContext = {
 *   asset: "BTC", horizon: "24h", currentPrice: 67676.62, forecastStartTime: "2026-02-25T23:40:00+00:00",
 * };
 */
export interface InsightContext {
  /** The asset (canonical symbol, e.g. `SPYX`; the short form works for the strike grid too). */
  readonly asset: string;
  /** The ensemble's horizon: `24h` (289 points of 300 s) or `1h` (61 points of 60 s). */
  readonly horizon: Horizon;
  /** The spot price (`current_price`); every path is re-based to it. */
  readonly currentPrice: number;
  /**
   * The ensemble's start (`forecast_start_time`), ISO 8601; must equal the ensemble's start time.
   * Written into the records as given.
   */
  readonly forecastStartTime: string;
  /** The query time (`current_time`, venue event windows). Default: `forecastStartTime`. */
  readonly now?: string;
  /** Re-basing of the paths: default `"additive"` (p − p₀ + c), or `"multiplicative"` (p·c/p₀). */
  readonly rebase?: RebaseOption;
  /**
   * Touch estimate of liquidation and hit probabilities: default `"discrete"` (a point reaches the
   * level), or `"bridge"` (Brownian-bridge corrected between points, pooled σ of the ensemble).
   */
  readonly touchEstimate?: TouchEstimate;
  /** Unit of `expected_time_in_interval`: default `"minutes"`, or `"hours"`, `"fraction"` of the horizon. */
  readonly timeInIntervalUnit?: TimeInIntervalUnit;
  /**
   * Liquidation windows. Default `LIQUIDATION_WINDOWS[horizon]`: hours 6/12/18/24 (24h), and
   * minutes 15/30/45/60 (1h, pathlab's choice; the spec shows none).
   */
  readonly liquidationWindows?: readonly LiquidationWindow[];
  /** Option expiry, ISO 8601. Default: `optionExpiryUnix` (BTC monthly, others the next 08:00 UTC). */
  readonly expiryTime?: string;
  /** Option strikes. Default: `strikeGrid(asset, currentPrice)` of the insight conventions. */
  readonly strikes?: readonly number[];
  /**
   * LP probability levels. Default: 11 levels equally spaced from the lowest to the highest
   * terminal price (`lpLevels`). Pass a service record's levels to compare on its grid.
   */
  readonly lpLevels?: readonly number[];
  /**
   * Close of the 1-minute candle starting at `minuteUnix` (NaN where missing). Required by the
   * volatility records (`realized`); no default.
   */
  readonly minuteClose?: (minuteUnix: number) => number;
  /**
   * The market price at a time (the last close at or before it). Used for the Up/Down and venue B
   * start price when `startPrice` / `venueBContracts` are not given; no default.
   */
  readonly priceAt?: (unix: number) => number;
  /** The previous prompt's ensemble, for `forecast_past` of the volatility records; no default. */
  readonly previous?: PreviousForecast;
  /** Up/Down: the market price at the event start. Default: `priceAt(event start)`. */
  readonly startPrice?: number;
  /** Up/Down and range family: copied into the model side as `slug` when given. */
  readonly slug?: string;
  /** Range family: the event's markets. Required by the range-family model sides; no default. */
  readonly rangeMarkets?: readonly RangeMarket[];
  /**
   * Venue B: the contracts. Default: one contract at the market price at the event start
   * (`startPrice`, else `priceAt`).
   */
  readonly venueBContracts?: readonly VenueBContract[];
}

/**
 * A context checked against its ensemble, with the times parsed once.
 * @example const { forecastStartUnix, nowUnix } = resolveContext("liquidationInsight", context, ensemble);
 */
export interface ResolvedContext {
  readonly context: InsightContext;
  readonly forecastStartUnix: number;
  readonly nowUnix: number;
  readonly timeIncrement: number;
  readonly nPoints: number;
  /** Minutes between points (5 for 24h, 1 for 1h). */
  readonly stepMinutes: number;
  /** The horizon in minutes (1440 or 60). */
  readonly horizonMinutes: number;
}

/**
 * Parses an ISO 8601 time of a context field into unix seconds, or throws a `RangeError` naming the
 * operation and the field.
 * @example unixOfContextTime("optionPricingInsight", "expiryTime", "2026-02-26T08:00:00Z") // => 1772092800
 */
export function unixOfContextTime(operation: string, field: string, text: string): number {
  const milliseconds = typeof text === "string" ? parseIsoTimeMs(text) : NaN;
  if (!Number.isFinite(milliseconds)) {
    throw new RangeError(
      `${operation} requires context.${field} to be an ISO 8601 time, got ${JSON.stringify(text)}`,
    );
  }
  return milliseconds / 1000;
}

/**
 * Checks `context` against the ensemble it is used with: a known horizon whose grid (points and
 * increment) is the ensemble's, a finite positive current price, and a forecast start equal to the
 * ensemble's start. Throws `RangeError` naming the operation and the field otherwise.
 * @example resolveContext("liquidationInsight", context, session.ensemble).stepMinutes // => 5
 */
export function resolveContext(
  operation: string,
  context: InsightContext,
  ensemble: Pick<Ensemble, "startTime" | "timeIncrement" | "nPoints">,
): ResolvedContext {
  const layout = Object.hasOwn(HORIZON_LAYOUTS, context.horizon)
    ? HORIZON_LAYOUTS[context.horizon]
    : undefined;
  if (layout === undefined) {
    throw new RangeError(
      `${operation} requires context.horizon "24h" or "1h", got ${JSON.stringify(context.horizon)}`,
    );
  }
  if (ensemble.nPoints !== layout.nPoints || ensemble.timeIncrement !== layout.timeIncrement) {
    throw new RangeError(
      `${operation} requires a ${context.horizon} ensemble (${layout.nPoints} points every ${layout.timeIncrement} s), ` +
        `got ${ensemble.nPoints} points every ${ensemble.timeIncrement} s`,
    );
  }
  if (!(context.currentPrice > 0 && context.currentPrice < Infinity)) {
    throw new RangeError(
      `${operation} requires context.currentPrice to be a finite positive price, got ${context.currentPrice}`,
    );
  }
  const forecastStartUnix = unixOfContextTime(
    operation,
    "forecastStartTime",
    context.forecastStartTime,
  );
  if (forecastStartUnix !== ensemble.startTime) {
    throw new RangeError(
      `${operation} requires context.forecastStartTime to be the ensemble's start ` +
        `(unix ${ensemble.startTime}), got ${JSON.stringify(context.forecastStartTime)} (unix ${forecastStartUnix})`,
    );
  }
  const nowUnix =
    context.now === undefined
      ? forecastStartUnix
      : unixOfContextTime(operation, "now", context.now);
  return {
    context,
    forecastStartUnix,
    nowUnix,
    timeIncrement: layout.timeIncrement,
    nPoints: layout.nPoints,
    stepMinutes: layout.timeIncrement / 60,
    horizonMinutes: layout.horizonMinutes,
  };
}
