/**
 * The insight conventions: grids, windows, keys and rounding that make the sandbox's records
 * (computed with `src/reference/`) and pathlab's recomputation (`src/insights/`, with `src/core/`)
 * comparable field by field. These are conventions, not algorithms: each is a constant or a tiny
 * pure helper, so that both sides build the same levels, strikes, windows and keys bit for bit.
 * Where the spec is ambiguous the choice is an option whose default is named here.
 *
 * This file is over 300 lines because it is the ONE agreed table of conventions (the lead's
 * decision): splitting it would let the two implementations drift apart.
 */
import type { Horizon } from "./assets.ts";
import { PERCENTILE_KEYS } from "./records/percentiles.ts";
import type { BinaryOutcome, UpDownOutcome } from "./records/outcomes.ts";

// ── Ensemble ────────────────────────────────────────────────────────────────────────────────

/**
 * Miners pooled into an insight's ensemble: the top 10 of the meta-leaderboard for the competition
 * of the asset and horizon, each with its 1,000 paths at the insight's forecast start, equal weight.
 * @example ENSEMBLE_SIZE // => 10
 */
export const ENSEMBLE_SIZE = 10;

/**
 * Days of incentives the meta-leaderboard aggregates to select the ensemble's miners.
 * @example ENSEMBLE_DAYS // => 14
 */
export const ENSEMBLE_DAYS = 14;

/**
 * How paths are re-based to the current price c, per path with p₀ its point 0: `"additive"`
 * p − p₀ + c (the default, as the service), `"multiplicative"` p·c / p₀.
 * @example const rebase: RebaseOption = "multiplicative";
 */
export type RebaseOption = "additive" | "multiplicative";

/**
 * The default re-base: additive.
 * @example DEFAULT_REBASE // => "additive"
 */
export const DEFAULT_REBASE: RebaseOption = "additive";

/**
 * One re-based price, with the floating-point order of `paths/ensemble.ts`: additive
 * `(price − pathStart) + currentPrice` (so point 0 becomes exactly `currentPrice`), multiplicative
 * `(price · currentPrice) / pathStart`. `currentPrice` is the market price at the query minute (the
 * last observed 1-minute close at or before `now`).
 * @param price - a path's price at some point.
 * @param pathStart - the same path's price at point 0.
 * @param currentPrice - the market price at the query minute, which point 0 becomes.
 * @param rebase - `"additive"` (the default) or `"multiplicative"`.
 * @example
 * rebasePrice(105, 100, 200) // => 205
 * rebasePrice(105, 100, 200, "multiplicative") // => 210
 */
export function rebasePrice(
  price: number,
  pathStart: number,
  currentPrice: number,
  rebase: RebaseOption = DEFAULT_REBASE,
): number {
  return rebase === "additive"
    ? price - pathStart + currentPrice
    : (price * currentPrice) / pathStart;
}

// ── Horizons and time ───────────────────────────────────────────────────────────────────────

/**
 * The path grid of a horizon (the network's prompts).
 * @example const { timeIncrement, nPoints } = HORIZON_LAYOUTS["1h"]; // 60, 61
 */
export interface HorizonLayout {
  /** Seconds between path points. */
  readonly timeIncrement: number;
  /** Points per path, point 0 the forecast start. */
  readonly nPoints: number;
  /** Length of the horizon in minutes. */
  readonly horizonMinutes: number;
}

/**
 * Path grids: 24h = 289 points every 300 s; 1h = 61 points every 60 s.
 * @example HORIZON_LAYOUTS["24h"].nPoints // => 289
 */
export const HORIZON_LAYOUTS: Readonly<Record<Horizon, HorizonLayout>> = Object.freeze({
  "24h": Object.freeze({ timeIncrement: 300, nPoints: 289, horizonMinutes: 1440 }),
  "1h": Object.freeze({ timeIncrement: 60, nPoints: 61, horizonMinutes: 60 }),
});

/**
 * The path point of a time: round((time − forecastStart) / timeIncrement), clamped to
 * [0, nPoints − 1] (so a time past the horizon is the last point). Times are unix seconds.
 * Throws `RangeError` for non-finite times, a non-positive increment or fewer than one point.
 * @param timeUnix - the time, in Unix seconds.
 * @param forecastStartUnix - the forecast's start (its point 0), in Unix seconds.
 * @param timeIncrement - seconds between two path points, > 0.
 * @param nPoints - points per path, ≥ 1.
 * @example
 * stepOfTime(1000 + 310, 1000, 300, 289) // => 1
 * stepOfTime(1000 + 999999, 1000, 300, 289) // => 288
 */
export function stepOfTime(
  timeUnix: number,
  forecastStartUnix: number,
  timeIncrement: number,
  nPoints: number,
): number {
  if (!Number.isFinite(timeUnix) || !Number.isFinite(forecastStartUnix)) {
    throw new RangeError(
      `stepOfTime requires finite times, got timeUnix ${timeUnix} and forecastStartUnix ${forecastStartUnix}`,
    );
  }
  if (!(timeIncrement > 0) || !Number.isInteger(nPoints) || nPoints < 1) {
    throw new RangeError(
      `stepOfTime requires timeIncrement > 0 and an integer nPoints ≥ 1, got ${timeIncrement} and ${nPoints}`,
    );
  }
  const step = Math.round((timeUnix - forecastStartUnix) / timeIncrement);
  return Math.min(nPoints - 1, Math.max(0, step));
}

// ── Rounding ────────────────────────────────────────────────────────────────────────────────

/**
 * `value` rounded to `decimals` places as `Math.round(value · 10^decimals) / 10^decimals` (halves
 * round toward +∞; binary halves are within any cross-check's rounding tolerance). NaN stays NaN.
 * @param value - the number to round; NaN stays NaN.
 * @param decimals - decimal places to keep.
 * @example
 * roundTo(0.41514, 4) // => 0.4151
 * roundTo(67676.62358575, 2) // => 67676.62
 */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/**
 * Decimals of every reported probability (liquidation, stay, LP levels, venue model sides).
 * @example roundTo(0.69664, PROBABILITY_DECIMALS) // => 0.6966
 */
export const PROBABILITY_DECIMALS = 4;

/**
 * Decimals of the prices of the prediction percentiles.
 * @example roundTo(71181.004, PERCENTILE_PRICE_DECIMALS) // => 71181
 */
export const PERCENTILE_PRICE_DECIMALS = 2;

/**
 * Decimals of volatilities (annualized percent): realized, forecast and percentiles (the averages
 * are unrounded).
 * @example roundTo(61.2749, VOLATILITY_DECIMALS) // => 61.27
 */
export const VOLATILITY_DECIMALS = 2;

/**
 * The map key of a price (LP probability levels, option strikes): `String(price)` of the unrounded
 * number, JavaScript's shortest round-trip form, which equals Python's `repr`.
 * @param price - the unrounded price.
 * @example priceKey(71272.32018575001) // => "71272.32018575001"
 */
export function priceKey(price: number): string {
  return String(price);
}

// ── Percentiles ─────────────────────────────────────────────────────────────────────────────

/**
 * The probabilities of {@link PERCENTILE_KEYS} as numbers, in the same order (R-7 percentiles).
 * Prediction percentiles are reported at every step (289 or 61); step 0 is the current price.
 * @example PERCENTILE_PROBABILITIES[4] // => 0.5
 */
export const PERCENTILE_PROBABILITIES: readonly number[] = Object.freeze(
  PERCENTILE_KEYS.map((key) => Number(key)),
);

// ── Liquidation ─────────────────────────────────────────────────────────────────────────────

/**
 * A percentage used as a key: `"1.0%"` with its fraction `0.01`.
 * @example const scenario: PercentStep = { key: "2.0%", fraction: 0.02 };
 */
export interface PercentStep {
  readonly key: string;
  readonly fraction: number;
}

function percentSteps(count: number): readonly PercentStep[] {
  const steps: PercentStep[] = [];
  for (let percent = 1; percent <= count; percent++) {
    steps.push(Object.freeze({ key: `${percent.toFixed(1)}%`, fraction: percent / 100 }));
  }
  return Object.freeze(steps);
}

/**
 * The 10 liquidation scenarios x = 1 … 10 % (`"1.0%"` … `"10.0%"`, `price_change`).
 * @example LIQUIDATION_SCENARIOS[9] // => { key: "10.0%", fraction: 0.1 }
 */
export const LIQUIDATION_SCENARIOS: readonly PercentStep[] = percentSteps(10);

/**
 * Liquidation levels of scenario x around P0 = the current price: a long is liquidated when a path
 * touches `long` = P0·(1 − x) from above (touch "down"), a short when it touches `short` = P0·(1 + x)
 * from below (touch "up").
 * @param currentPrice - P0, the market price at the query minute.
 * @param fraction - the scenario x as a fraction of P0, e.g. 0.05 for 5 %.
 * @example liquidationLevels(100, 0.05) // => { long: 95, short: 105 }
 */
export function liquidationLevels(
  currentPrice: number,
  fraction: number,
): { readonly long: number; readonly short: number } {
  return { long: currentPrice * (1 - fraction), short: currentPrice * (1 + fraction) };
}

/**
 * A liquidation window: its key and length from the forecast start.
 * @example const window: LiquidationWindow = { key: "6", seconds: 21600 };
 */
export interface LiquidationWindow {
  /** Hours (24h horizon) or minutes (1h horizon), as written in the record. */
  readonly key: string;
  readonly seconds: number;
}

/**
 * Liquidation windows per horizon. 24h: keys `"6"`, `"12"`, `"18"`, `"24"` = hours. 1h (pathlab's
 * choice, the spec shows none): keys `"15"`, `"30"`, `"45"`, `"60"` = minutes.
 * @example LIQUIDATION_WINDOWS["1h"].map((window) => window.key) // => ["15", "30", "45", "60"]
 */
export const LIQUIDATION_WINDOWS: Readonly<Record<Horizon, readonly LiquidationWindow[]>> =
  Object.freeze({
    "24h": Object.freeze(
      [6, 12, 18, 24].map((hours) => Object.freeze({ key: String(hours), seconds: hours * 3600 })),
    ),
    "1h": Object.freeze(
      [15, 30, 45, 60].map((minutes) =>
        Object.freeze({ key: String(minutes), seconds: minutes * 60 }),
      ),
    ),
  });

/**
 * The points of a liquidation window: [0, seconds / timeIncrement], both inclusive.
 * Throws `RangeError` when the window is not a whole number of steps.
 * @param window - the window, with its length in seconds.
 * @param timeIncrement - seconds between two path points.
 * @example liquidationWindowSteps({ key: "6", seconds: 21600 }, 300) // => { fromStep: 0, toStep: 72 }
 */
export function liquidationWindowSteps(
  window: LiquidationWindow,
  timeIncrement: number,
): { readonly fromStep: number; readonly toStep: number } {
  const toStep = window.seconds / timeIncrement;
  if (!Number.isInteger(toStep)) {
    throw new RangeError(
      `liquidationWindowSteps requires window "${window.key}" (${window.seconds} s) to be a whole number of ${timeIncrement} s steps`,
    );
  }
  return { fromStep: 0, toStep };
}

/**
 * How a touch probability is estimated: `"discrete"` (the default: a path touches when one of its
 * points reaches the level) or `"bridge"` (Brownian-bridge corrected between points).
 * @example const estimate: TouchEstimate = "bridge";
 */
export type TouchEstimate = "discrete" | "bridge";

/**
 * The default touch estimate: discrete.
 * @example DEFAULT_TOUCH_ESTIMATE // => "discrete"
 */
export const DEFAULT_TOUCH_ESTIMATE: TouchEstimate = "discrete";

// ── LP bounds and LP probabilities ──────────────────────────────────────────────────────────

/**
 * The 16 LP interval widths w = 1 … 16 % (`"1.0%"` … `"16.0%"`, `full_width`).
 * @example LP_WIDTHS[15].key // => "16.0%"
 */
export const LP_WIDTHS: readonly PercentStep[] = percentSteps(16);

/**
 * The LP interval of width w around P0 = the current price: lower = P0·(1 − w/2),
 * upper = P0·(1 + w/2) (reproduces the live deployment's bounds bit for bit).
 * @param currentPrice - P0, the market price at the query minute.
 * @param widthFraction - the interval's width w as a fraction of P0, e.g. 0.01 for 1 %.
 * @example lpBounds(67723.5, 0.01) // => { lower: 67384.88249999999, upper: 68062.1175 }
 */
export function lpBounds(
  currentPrice: number,
  widthFraction: number,
): { readonly lower: number; readonly upper: number } {
  return {
    lower: currentPrice * (1 - widthFraction / 2),
    upper: currentPrice * (1 + widthFraction / 2),
  };
}

/**
 * The key of `probability_to_stay_in_interval`: the horizon in hours.
 * @example LP_STAY_KEYS["1h"] // => "1"
 */
export const LP_STAY_KEYS: Readonly<Record<Horizon, string>> = Object.freeze({
  "24h": "24",
  "1h": "1",
});

/**
 * Unit of `expected_time_in_interval`: `"minutes"` (the default, as the live deployment),
 * `"hours"`, or `"fraction"` of the horizon (as one description of the spec).
 * @example const unit: TimeInIntervalUnit = "fraction";
 */
export type TimeInIntervalUnit = "minutes" | "hours" | "fraction";

/**
 * The default unit of `expected_time_in_interval`: minutes.
 * @example DEFAULT_TIME_IN_INTERVAL_UNIT // => "minutes"
 */
export const DEFAULT_TIME_IN_INTERVAL_UNIT: TimeInIntervalUnit = "minutes";

/**
 * A time inside an interval, given in minutes, expressed in `unit` (`horizonMinutes` for
 * `"fraction"`). Not rounded.
 * @param minutes - the time, in minutes.
 * @param unit - `"minutes"`, `"hours"` or `"fraction"` (of the horizon).
 * @param horizonMinutes - the interval's horizon in minutes; used only for `"fraction"`.
 * @example
 * timeInIntervalIn(720, "hours", 1440) // => 12
 * timeInIntervalIn(720, "fraction", 1440) // => 0.5
 */
export function timeInIntervalIn(
  minutes: number,
  unit: TimeInIntervalUnit,
  horizonMinutes: number,
): number {
  if (unit === "minutes") return minutes;
  return unit === "hours" ? minutes / 60 : minutes / horizonMinutes;
}

/**
 * Number of LP probability levels.
 * @example LP_LEVEL_COUNT // => 11
 */
export const LP_LEVEL_COUNT = 11;

/**
 * The LP probability levels: {@link LP_LEVEL_COUNT} equally spaced levels from the lowest to the
 * highest terminal price, as numpy `linspace(minimum, maximum, 11)`: level i = minimum + i·step with
 * step = (maximum − minimum)/10, and the last level = maximum exactly. Keys are {@link priceKey}.
 * @param minimum - the lowest terminal price.
 * @param maximum - the highest terminal price.
 * @example lpLevels(59563.76458575, 76290.27258575)[7] // => 71272.32018575001
 */
export function lpLevels(minimum: number, maximum: number): number[] {
  const intervals = LP_LEVEL_COUNT - 1;
  const step = (maximum - minimum) / intervals;
  const levels: number[] = [];
  for (let index = 0; index < intervals; index++) levels.push(minimum + index * step);
  levels.push(maximum);
  return levels;
}

/**
 * The single key of the LP probabilities record's `data`: the horizon label.
 * @example LP_PROBABILITY_KEYS["24h"] // => "24h"
 */
export const LP_PROBABILITY_KEYS: Readonly<Record<Horizon, string>> = Object.freeze({
  "24h": "24h",
  "1h": "1h",
});

// ── Option pricing ──────────────────────────────────────────────────────────────────────────

/**
 * The hour (UTC) of the default option expiry.
 * @example OPTION_EXPIRY_HOUR_UTC // => 8
 */
export const OPTION_EXPIRY_HOUR_UTC = 8;

/**
 * The default option expiry: the next 08:00 UTC strictly after the forecast start (unix seconds).
 * The terminal price is the path point at {@link stepOfTime} of the expiry (clamped to the last
 * point). Prices are undiscounted.
 * @param forecastStartUnix - the forecast's start, in Unix seconds.
 * @example nextExpiryUnix(Date.UTC(2026, 1, 25, 23, 40) / 1000) // => 1772092800 (2026-02-26 08:00Z)
 */
export function nextExpiryUnix(forecastStartUnix: number): number {
  const dayStart = Math.floor(forecastStartUnix / 86400) * 86400;
  const expiry = dayStart + OPTION_EXPIRY_HOUR_UTC * 3600;
  return expiry > forecastStartUnix ? expiry : expiry + 86400;
}

/**
 * Days a monthly expiry must lie ahead to be used: the live BTC record of 2026-02-25 23:45 UTC
 * skipped 2026-02-27 (2 days ahead) for 2026-03-27.
 * @example MONTHLY_EXPIRY_MIN_DAYS // => 7
 */
export const MONTHLY_EXPIRY_MIN_DAYS = 7;

/**
 * The monthly option expiry: the last Friday of a month at 08:00 UTC, the first that lies more
 * than {@link MONTHLY_EXPIRY_MIN_DAYS} days after the forecast start.
 * @param forecastStartUnix - the forecast's start, in Unix seconds.
 * @example monthlyExpiryUnix(Date.UTC(2026, 1, 25, 23, 45) / 1000) // => 1774598400 (2026-03-27 08:00Z)
 */
export function monthlyExpiryUnix(forecastStartUnix: number): number {
  const start = new Date(forecastStartUnix * 1000);
  for (let month = 0; ; month++) {
    const lastDay = new Date(
      Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + month + 1, 0, OPTION_EXPIRY_HOUR_UTC),
    );
    const friday = lastDay.getTime() / 1000 - ((lastDay.getUTCDay() + 2) % 7) * 86400;
    if (friday - forecastStartUnix > MONTHLY_EXPIRY_MIN_DAYS * 86400) return friday;
  }
}

/**
 * The option expiry of an asset's record: BTC uses the monthly expiry (as the live record does),
 * every other asset the next 08:00 UTC.
 * @param asset - the record's asset symbol, e.g. `BTC`.
 * @param forecastStartUnix - the forecast's start, in Unix seconds.
 * @example optionExpiryUnix("ETH", Date.UTC(2026, 1, 25, 23, 45) / 1000) // => 1772092800
 */
export function optionExpiryUnix(asset: string, forecastStartUnix: number): number {
  return asset === "BTC" ? monthlyExpiryUnix(forecastStartUnix) : nextExpiryUnix(forecastStartUnix);
}

/**
 * Decimals of an asset's option prices: whole dollars for BTC (as the live record), none
 * (unrounded) for every other asset.
 * @param asset - the asset's symbol, e.g. `BTC`.
 * @example optionPriceDecimals("BTC") // => 0
 */
export function optionPriceDecimals(asset: string): number | undefined {
  return asset === "BTC" ? 0 : undefined;
}

/**
 * An option price of `asset` as its record writes it: rounded to {@link optionPriceDecimals}.
 * @param asset - the asset's symbol, e.g. `BTC`.
 * @param price - the unrounded option price.
 * @example roundOptionPrice("BTC", 4890.4) // => 4890
 */
export function roundOptionPrice(asset: string, price: number): number {
  const decimals = optionPriceDecimals(asset);
  return decimals === undefined ? price : roundTo(price, decimals);
}

/**
 * A strike grid rule: spacing and number of strikes.
 * @example const rule: StrikeGridRule = { step: 25, count: 13 };
 */
export interface StrikeGridRule {
  readonly step: number;
  readonly count: number;
  /** Strikes below the centre; default ⌊(count − 1)/2⌋ (an even count then has one more above). */
  readonly below?: number;
}

const EQUITY_RULE: StrikeGridRule = Object.freeze({ step: 0.5, count: 22 });
const SP_RULE: StrikeGridRule = Object.freeze({ step: 1, count: 21 });

/**
 * Strike grid rules per asset (canonical and short symbols). Others: {@link strikeGridRule}.
 * @example STRIKE_GRID_RULES.ETH // => { step: 25, count: 13 }
 */
export const STRIKE_GRID_RULES: Readonly<Record<string, StrikeGridRule>> = Object.freeze({
  BTC: Object.freeze({ step: 1000, count: 7 }),
  ETH: Object.freeze({ step: 25, count: 13 }),
  SOL: Object.freeze({ step: 2, count: 14, below: 7 }),
  XRP: Object.freeze({ step: 0.05, count: 13 }),
  HYPE: Object.freeze({ step: 1, count: 13 }),
  SPYX: SP_RULE,
  SPY: SP_RULE,
  NVDAX: EQUITY_RULE,
  NVDA: EQUITY_RULE,
  GOOGLX: EQUITY_RULE,
  GOOGL: EQUITY_RULE,
  TSLAX: EQUITY_RULE,
  TSLA: EQUITY_RULE,
  AAPLX: EQUITY_RULE,
  AAPL: EQUITY_RULE,
  WTIOIL: Object.freeze({ step: 0.5, count: 13 }),
  SPCX: Object.freeze({ step: 1, count: 13 }),
  XAU: Object.freeze({ step: 25, count: 13 }),
});

/** Decimal places of a positive step written in decimal (0.05 → 2, 2.5e-7 → 8, 1000 → 0). */
function decimalsOf(step: number): number {
  const [mantissa, exponent] = step.toExponential().split("e");
  const mantissaDecimals = mantissa.includes(".") ? mantissa.split(".")[1].length : 0;
  return Math.max(0, mantissaDecimals - Number(exponent));
}

/**
 * The "nice" number (1, 2, 2.5 or 5 × 10^k) nearest `target` (absolute distance; a tie goes to the
 * smaller), built by exact decimal arithmetic (2.5 × 10⁻² is exactly the double of 0.025).
 * Throws `RangeError` unless `target` is finite and positive.
 * @param target - the step wanted, finite and > 0.
 * @example
 * niceStep(0.0025 * 250) // => 0.5
 * niceStep(0.09) // => 0.1 (nearer than 0.05)
 */
export function niceStep(target: number): number {
  if (!(target > 0 && Number.isFinite(target))) {
    throw new RangeError(`niceStep requires a finite positive target, got ${target}`);
  }
  const exponent = Math.floor(Math.log10(target));
  const scaled = (multiple: number, power: number): number =>
    power >= 0 ? multiple * 10 ** power : multiple / 10 ** -power;
  const candidates = [1, 2, 2.5, 5].map((multiple) => scaled(multiple, exponent));
  candidates.push(scaled(1, exponent + 1));
  let best = candidates[0];
  for (const candidate of candidates) {
    if (Math.abs(candidate - target) < Math.abs(best - target)) best = candidate;
  }
  return best;
}

/**
 * The strike grid rule of an asset at a spot price: {@link STRIKE_GRID_RULES}, or for other assets
 * a step of {@link niceStep}(0.25 % of spot) and 13 strikes.
 * @param asset - the asset's symbol.
 * @param spotPrice - the asset's current price, which sets the step of an asset without a rule of
 *   its own.
 * @example strikeGridRule("SP500", 6900) // => { step: 20, count: 13 }
 */
export function strikeGridRule(asset: string, spotPrice: number): StrikeGridRule {
  if (Object.hasOwn(STRIKE_GRID_RULES, asset)) return STRIKE_GRID_RULES[asset];
  return { step: niceStep(0.0025 * spotPrice), count: 13 };
}

/**
 * The option strikes of an asset at a spot price: with the asset's rule (step s, count n), centre
 * c = round(spot / s)·s and strike i = c + (i − b)·s for i = 0 … n − 1, b the rule's strikes below
 * the centre (default ⌊(n − 1)/2⌋; the live SOL grid has 7 below and 6 above), each rounded to
 * the decimals of s (so 0.05-step strikes are `2.15`, not `2.1500000000000004`). Keys are
 * {@link priceKey}. Throws `RangeError` for a spot that is not finite and positive.
 * @param asset - the asset's symbol, which picks its rule in {@link STRIKE_GRID_RULES}.
 * @param spotPrice - the asset's current price, finite and > 0.
 * @example
 * strikeGrid("BTC", 71181) // => [68000, 69000, 70000, 71000, 72000, 73000, 74000]
 * strikeGrid("XRP", 2.1371).slice(0, 2) // => [1.85, 1.9]
 */
export function strikeGrid(asset: string, spotPrice: number): number[] {
  if (!(spotPrice > 0 && Number.isFinite(spotPrice))) {
    throw new RangeError(
      `strikeGrid requires a finite positive spotPrice for ${asset}, got ${spotPrice}`,
    );
  }
  const { step, count, below } = strikeGridRule(asset, spotPrice);
  const decimals = decimalsOf(step);
  const centerIndex = Math.round(spotPrice / step);
  const firstOffset = below ?? Math.floor((count - 1) / 2);
  const strikes: number[] = [];
  for (let index = 0; index < count; index++) {
    strikes.push(roundTo((centerIndex + index - firstOffset) * step, decimals));
  }
  return strikes;
}

// ── Volatility ──────────────────────────────────────────────────────────────────────────────

/**
 * Minutes in a 365-day year: the annualization base of every volatility.
 * @example MINUTES_PER_YEAR // => 525600
 */
export const MINUTES_PER_YEAR = 525600;

/**
 * A standard deviation of log returns over `periodMinutes` as an annualized percent:
 * std × (√(525600 / periodMinutes) × 100).
 * @param standardDeviation - the standard deviation of log returns over one period.
 * @param periodMinutes - the length of one period, in minutes.
 * @example annualizeVolatility(0.001, 1) // => 72.49827584… (√525600 / 10)
 */
export function annualizeVolatility(standardDeviation: number, periodMinutes: number): number {
  return standardDeviation * (Math.sqrt(MINUTES_PER_YEAR / periodMinutes) * 100);
}

/**
 * The block layout of the volatility records of a horizon.
 * @example const { blockMinutes, blockCount, pointCount } = VOLATILITY_LAYOUTS["24h"]; // 15, 96, 97
 */
export interface VolatilityLayout {
  /** Length of a block in minutes (24h: 15 = 3 steps of 300 s; 1h: 2 = 2 steps of 60 s). */
  readonly blockMinutes: number;
  /** Forecast blocks per horizon: 96 (24h) or 30 (1h). */
  readonly blockCount: number;
  /** Points of each volatility series: blockCount + 1, one per UTC clock block (97 or 31). */
  readonly pointCount: number;
  /** Minutes of realized 1-minute closes listed in `realized.prices`: 1,440 (24h) or 120 (1h). */
  readonly realizedWindowMinutes: number;
  /** Listed prices per realized block: 15 (24h) or 2 (1h). */
  readonly realizedBlockEntries: number;
}

/**
 * Volatility layouts per horizon. The realized rules reproduce every captured live record exactly
 * (`realized.volatility` and `realized.average_volatility` from its own `realized.prices`); the
 * forecast series have the live lengths and null positions.
 *
 * - `realized.prices`: one entry per minute of the {@link realizedWindowMinutes} minutes ending at
 *   the forecast start (its own minute included), oldest first; a minute without a close is
 *   `{price: null, returns: null}` (the live spelling of a closed market); `returns` = the simple
 *   return vs the previous entry, null for the first entry and beside a null price.
 * - `realized.volatility`: the entries cut into blocks of `realizedBlockEntries`, aligned to the
 *   end (the first block holds the remainder), at most `pointCount` blocks, the oldest; per block
 *   the sample std (ddof 1) of its non-null `returns` × √525600 × 100, null below 2 returns,
 *   rounded. `average_volatility` = {@link nanMean} of the rounded points (not rounded again).
 * - `forecast_future.volatility`, point i = 0 … blockCount: the sample std ACROSS PATHS of
 *   ln(p[end] / p[start]) between the point's bounds ({@link volatilityPointBounds}: the steps of
 *   the i-th UTC clock block (a − Δ, a] from the start's, a a multiple of Δ), × √(525600 / m) ×
 *   100 with m the minutes between its bounds; null for an empty point 0. When point 0 is empty
 *   (a start on a block's end, or too late in it for a step), blockCount whole blocks follow;
 *   otherwise point 0 and the last point are shorter. This rule is inferred from where the live
 *   records have a number and where null (their start times are not in them).
 * - `forecast_past.volatility`: the points 1 … blockCount of the prompt one horizon earlier (its
 *   own clock blocks, re-based to the market price at its start), then the current ensemble's
 *   point 1. Forecast averages = {@link nanMean} of the unrounded points, unrounded.
 * - Volatility percentiles, block b = 0 … blockCount − 1: R-7 percentiles across paths of
 *   |ln(p[(b+1)k] / p[bk])| × √(525600 / Δ) × 100 (k = Δ·60 / timeIncrement; blocks from the
 *   start, not the clock); past = the previous prompt's ensemble, future = the current one (one
 *   entry per block: no live capture shows another shape).
 * @example VOLATILITY_LAYOUTS["1h"].pointCount // => 31
 */
export const VOLATILITY_LAYOUTS: Readonly<Record<Horizon, VolatilityLayout>> = Object.freeze({
  "24h": Object.freeze({
    blockMinutes: 15,
    blockCount: 96,
    pointCount: 97,
    realizedWindowMinutes: 1440,
    realizedBlockEntries: 15,
  }),
  "1h": Object.freeze({
    blockMinutes: 2,
    blockCount: 30,
    pointCount: 31,
    realizedWindowMinutes: 120,
    realizedBlockEntries: 2,
  }),
});

/**
 * The sum numpy computes for a float64 array (`np.sum`, `np.mean`): pairwise summation, with
 * blocks of up to 128 values summed in 8 interleaved partial sums. The live service's averages
 * are numpy's to the last bit, which a left-to-right sum is not.
 * @param values - the numbers to add.
 * @param from - the first index summed; 0 by default.
 * @param to - the index after the last one summed; the length by default.
 * @example numpySum([0.1, 0.2, 0.3]) // => 0.6000000000000001
 */
export function numpySum(values: ArrayLike<number>, from = 0, to = values.length): number {
  const count = to - from;
  if (count < 8) {
    let sum = -0;
    for (let index = from; index < to; index++) sum += values[index];
    return sum;
  }
  if (count <= 128) {
    const partial = [0, 1, 2, 3, 4, 5, 6, 7].map((lane) => values[from + lane]);
    let index = from + 8;
    for (; index < to - (count % 8); index += 8) {
      for (let lane = 0; lane < 8; lane++) partial[lane] += values[index + lane];
    }
    let sum =
      partial[0] +
      partial[1] +
      (partial[2] + partial[3]) +
      (partial[4] + partial[5] + (partial[6] + partial[7]));
    for (; index < to; index++) sum += values[index];
    return sum;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return numpySum(values, from, from + half) + numpySum(values, from + half, to);
}

/**
 * numpy's `np.nanmean`: the {@link numpySum} of the values with nulls and NaN as 0, divided by the
 * count of the others; NaN when there are none.
 * @param values - the numbers to average; nulls and NaN are skipped.
 * @example nanMean([null, 1, 2]) // => 1.5
 */
export function nanMean(values: readonly (number | null)[] | Float64Array): number {
  const filled = new Float64Array(values.length);
  let count = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (value !== null && !Number.isNaN(value)) {
      filled[index] = value;
      count++;
    }
  }
  return count === 0 ? NaN : numpySum(filled) / count;
}

/**
 * Path points per volatility block: blockMinutes·60 / timeIncrement (3 for 24h, 2 for 1h).
 * Throws `RangeError` when a block is not a whole number of steps.
 * @param horizon - the prompt's horizon, `"24h"` or `"1h"`.
 * @param timeIncrement - seconds between two path points.
 * @example volatilityBlockSteps("24h", 300) // => 3
 */
export function volatilityBlockSteps(horizon: Horizon, timeIncrement: number): number {
  const steps = (VOLATILITY_LAYOUTS[horizon].blockMinutes * 60) / timeIncrement;
  if (!Number.isInteger(steps) || steps < 1) {
    throw new RangeError(
      `volatilityBlockSteps requires a ${horizon} block to be a whole number of ${timeIncrement} s steps, got ${steps}`,
    );
  }
  return steps;
}

/**
 * The path points that bound the forecast volatility points of a prompt: point i of
 * `forecast_future.volatility` is the log return from point `bounds[i]` to point `bounds[i + 1]`
 * (`pointCount + 1` bounds). The points follow the UTC clock blocks (a − Δ, a], a a multiple of
 * Δ: point 0 runs from the start to the last step at or before the end of the start's block, and
 * point i from there to the last step at or before the end of the i-th block after it (the end
 * of the path for the last point). Returns are taken on the path's grid, so the points end on
 * steps, not on the blocks' ends. Point 0 is empty (`bounds[0] === bounds[1]`, null in the
 * record) when no step falls after the start and at or before its block's end: a start on a
 * block's end, or more than 10 minutes past a quarter hour for 24h. The other points are then
 * whole blocks of steps from the start; otherwise point 0 and the last point are shorter.
 * Throws `RangeError` for a start that is not finite, and as {@link volatilityBlockSteps} does.
 * @param horizon - the prompt's horizon, `"24h"` or `"1h"`.
 * @param startUnix - the prompt's start, Unix seconds.
 * @param timeIncrement - seconds between two path points.
 * @example volatilityPointBounds("24h", 1771977600 + 7 * 60, 300).slice(0, 4) // => [0, 1, 4, 7]
 */
export function volatilityPointBounds(
  horizon: Horizon,
  startUnix: number,
  timeIncrement: number,
): Int32Array {
  if (!Number.isFinite(startUnix)) {
    throw new RangeError(`volatilityPointBounds requires a finite startUnix, got ${startUnix}`);
  }
  const steps = volatilityBlockSteps(horizon, timeIncrement);
  const { blockCount, blockMinutes } = VOLATILITY_LAYOUTS[horizon];
  const blockSeconds = blockMinutes * 60;
  const intoBlock = ((startUnix % blockSeconds) + blockSeconds) % blockSeconds;
  const first = intoBlock === 0 ? 0 : Math.floor((blockSeconds - intoBlock) / timeIncrement);
  const last = blockCount * steps;
  const bounds = new Int32Array(blockCount + 2);
  for (let point = 0; point <= blockCount; point++) {
    bounds[point + 1] = Math.min(first + point * steps, last);
  }
  return bounds;
}

function minuteOf(timeUnix: number): number {
  return Math.floor(timeUnix / 60) * 60;
}

/**
 * The minutes (unix seconds, multiples of 60) listed in `realized.prices`: the
 * `realizedWindowMinutes` minutes ending at the forecast start's minute, oldest first.
 * @param horizon - the prompt's horizon, `"24h"` or `"1h"`, which sets the window's length.
 * @param forecastStartUnix - the forecast's start, in Unix seconds; the window ends at its minute.
 * @example realizedWindowMinutes("1h", 7200).length // => 120 (from 60 to 7200)
 */
export function realizedWindowMinutes(horizon: Horizon, forecastStartUnix: number): number[] {
  const last = minuteOf(forecastStartUnix);
  const count = VOLATILITY_LAYOUTS[horizon].realizedWindowMinutes;
  const minutes: number[] = [];
  for (let index = count - 1; index >= 0; index--) minutes.push(last - index * 60);
  return minutes;
}

// ── Venue comparisons (model side) ──────────────────────────────────────────────────────────

/**
 * The event windows of venue contracts.
 * @example const window: VenueWindow = "15min";
 */
export type VenueWindow = "daily" | "hourly" | "15min" | "5min";

/**
 * Length of each venue window in seconds.
 * @example VENUE_WINDOW_SECONDS["5min"] // => 300
 */
export const VENUE_WINDOW_SECONDS: Readonly<Record<VenueWindow, number>> = Object.freeze({
  daily: 86400,
  hourly: 3600,
  "15min": 900,
  "5min": 300,
});

/**
 * The UTC hour at which daily contracts start and end (the captured daily events run 17:00 UTC to
 * 17:00 UTC the next day; the spec's "end of UTC day" was not what the deployment served).
 * @example DAILY_EVENT_HOUR_UTC // => 17
 */
export const DAILY_EVENT_HOUR_UTC = 17;

/**
 * The horizon of the ensemble that prices each window: daily the 24h ensemble; hourly, 15min and
 * 5min the 1h ensemble (venue A and venue B alike).
 * @example VENUE_WINDOW_HORIZONS.hourly // => "1h"
 */
export const VENUE_WINDOW_HORIZONS: Readonly<Record<VenueWindow, Horizon>> = Object.freeze({
  daily: "24h",
  hourly: "1h",
  "15min": "1h",
  "5min": "1h",
});

/**
 * The contract window containing `timeUnix`, half-open [start, end): daily = the 17:00 UTC → 17:00
 * UTC day; hourly = the UTC hour; 15min and 5min = the quarter hour and the 5-minute slot. The
 * event's start price is the market price at `startUnix`; the model resolves at
 * {@link stepOfTime}(endUnix).
 * @param window - the contract's window: `"daily"`, `"hourly"`, `"15min"` or `"5min"`.
 * @param timeUnix - a time inside the window, in Unix seconds.
 * @example venueEventWindow("15min", Date.UTC(2026, 1, 27, 15, 4, 21) / 1000)
 * // => { startUnix: 1772204400, endUnix: 1772205300 }
 */
export function venueEventWindow(
  window: VenueWindow,
  timeUnix: number,
): { readonly startUnix: number; readonly endUnix: number } {
  if (!Number.isFinite(timeUnix)) {
    throw new RangeError(`venueEventWindow requires a finite timeUnix, got ${timeUnix}`);
  }
  const length = VENUE_WINDOW_SECONDS[window];
  if (length === undefined) {
    throw new RangeError(
      `venueEventWindow requires window daily, hourly, 15min or 5min, got ${String(window)}`,
    );
  }
  let startUnix: number;
  if (window === "daily") {
    startUnix = Math.floor(timeUnix / 86400) * 86400 + DAILY_EVENT_HOUR_UTC * 3600;
    if (startUnix > timeUnix) startUnix -= 86400;
  } else {
    startUnix = Math.floor(timeUnix / length) * length;
  }
  return { startUnix, endUnix: startUnix + length };
}

/**
 * The probability at and above which the model's outcome is UP (or YES).
 * @example MODEL_OUTCOME_THRESHOLD // => 0.5
 */
export const MODEL_OUTCOME_THRESHOLD = 0.5;

/**
 * `model_outcome` of an Up/Down record from the reported (rounded) probability: UP at ≥ 0.5.
 * @param probabilityUp - the reported (rounded) probability of UP.
 * @example upDownOutcomeOf(0.4151) // => "DOWN"
 */
export function upDownOutcomeOf(probabilityUp: number): UpDownOutcome {
  return probabilityUp >= MODEL_OUTCOME_THRESHOLD ? "UP" : "DOWN";
}

/**
 * `model_outcome` of a range-family record from the reported (rounded) probability: 1 at ≥ 0.5.
 * @param probability - the reported (rounded) probability.
 * @example binaryOutcomeOf(0.5) // => 1
 */
export function binaryOutcomeOf(probability: number): BinaryOutcome {
  return probability >= MODEL_OUTCOME_THRESHOLD ? 1 : 0;
}

/**
 * The direction of a hit contract's touch: `"up"` (some point ≥ level) when the level is above the
 * current price, else `"down"` (some point ≤ level), over points [0, step(event end)].
 * @param level - the hit contract's price level.
 * @param currentPrice - the market price at the query minute.
 * @example hitDirection(70000, 67676.6) // => "up"
 */
export function hitDirection(level: number, currentPrice: number): "up" | "down" {
  return level > currentPrice ? "up" : "down";
}
