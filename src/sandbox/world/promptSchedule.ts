/**
 * When the sandbox's validator prompts which asset: one series of prompts per (asset, horizon),
 * each at a fixed period and offset from the Unix epoch, so that prompt times are known without
 * any state. Which competition's miners answer a series, and whether it is scored.
 */

import type { Competition } from "../../domain/assets.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../domain/intervals.ts";

/**
 * The two prompt lengths of the validator: `1h` (60 s steps, 61 points) and `24h` (300 s steps,
 * 289 points).
 * @example const horizon: PromptHorizon = "24h";
 */
export type PromptHorizon = "1h" | "24h";

/**
 * How often the validator prompts: `real` is the network's cadence (the network's prompts: 1h prompts
 * every minute, each asset every 5 minutes; 24h BTC every 4 minutes, the others every 12);
 * `sandbox` is thinned so that scoring stays affordable offline — 1h prompts 4× rarer (each asset
 * every 20 minutes), 24h prompts of BTC every 30 minutes (7.5× rarer) and of the others every 120
 * (10× rarer).
 * @example const cadence: PromptCadence = "real";
 */
export type PromptCadence = "sandbox" | "real";

/**
 * The prompt layout of a horizon: grid and scoring intervals (the network's prompt grids and scoring intervals).
 * @example PROMPT_LAYOUTS["24h"].pointCount // => 289
 */
export interface PromptLayout {
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly pointCount: number;
  readonly scoringIntervals: Readonly<Record<string, number>>;
}

/**
 * Layouts of the two horizons.
 * @example PROMPT_LAYOUTS["1h"].timeIncrement // => 60
 */
export const PROMPT_LAYOUTS: Readonly<Record<PromptHorizon, PromptLayout>> = Object.freeze({
  "1h": Object.freeze({
    timeIncrement: 60,
    timeLength: 3600,
    pointCount: 61,
    scoringIntervals: SCORING_INTERVALS_1H,
  }),
  "24h": Object.freeze({
    timeIncrement: 300,
    timeLength: 86400,
    pointCount: 289,
    scoringIntervals: SCORING_INTERVALS_24H,
  }),
});

/**
 * One series of prompts: starts at `offsetMinutes + k·periodMinutes` minutes after the epoch.
 * @example promptSeriesTable("real")[0] // => { asset: "BTC", horizon: "1h", periodMinutes: 5, … }
 */
export interface PromptSeries {
  readonly asset: string;
  readonly horizon: PromptHorizon;
  /** The competition whose miners answer these prompts and whose ranking picks the ensemble. */
  readonly competition: Competition;
  /**
   * Whether the validator scores these prompts. Unscored series (1h prompts of the non-crypto
   * assets, 24h `SPYX` — the validator scores `SP500`) exist so that every insight of FULL has an
   * ensemble at both horizons.
   */
  readonly scored: boolean;
  readonly periodMinutes: number;
  readonly offsetMinutes: number;
  /** Position in the table: the order in which scores of one minute are saved. */
  readonly saveOrder: number;
}

type SeriesRow = readonly [
  asset: string,
  horizon: PromptHorizon,
  competition: Competition,
  scored: boolean,
  realPeriod: number,
  realOffset: number,
  sandboxPeriod: number,
  sandboxOffset: number,
];

/**
 * Periods and offsets in minutes, `real` then `sandbox`. Offsets spread the series over the cycle
 * and make some assets share a minute (the validator's multi-asset minutes): in the `sandbox`
 * cadence each 30-minute slot of a 24h competition holds two prompts.
 */
const ROWS: readonly SeriesRow[] = [
  ["BTC", "1h", "crypto-1h", true, 5, 0, 20, 0],
  ["ETH", "1h", "crypto-1h", true, 5, 1, 20, 4],
  ["SOL", "1h", "crypto-1h", true, 5, 2, 20, 8],
  ["XRP", "1h", "crypto-1h", true, 5, 3, 20, 12],
  ["HYPE", "1h", "crypto-1h", true, 5, 4, 20, 16],
  ["XAU", "1h", "crypto-1h", false, 5, 0, 20, 0],
  ["SPYX", "1h", "crypto-1h", false, 5, 1, 20, 4],
  ["NVDAX", "1h", "crypto-1h", false, 5, 2, 20, 8],
  ["GOOGLX", "1h", "crypto-1h", false, 5, 3, 20, 12],
  ["TSLAX", "1h", "crypto-1h", false, 5, 4, 20, 16],
  ["AAPLX", "1h", "crypto-1h", false, 5, 0, 20, 0],
  ["WTIOIL", "1h", "crypto-1h", false, 5, 1, 20, 4],
  ["SPCX", "1h", "crypto-1h", false, 5, 2, 20, 8],
  ["SP500", "1h", "crypto-1h", false, 5, 3, 20, 12],
  ["BTC", "24h", "crypto-24h", true, 4, 0, 30, 0],
  ["ETH", "24h", "crypto-24h", true, 12, 0, 120, 0],
  ["SOL", "24h", "crypto-24h", true, 12, 4, 120, 30],
  ["XRP", "24h", "crypto-24h", true, 12, 8, 120, 60],
  ["HYPE", "24h", "crypto-24h", true, 12, 0, 120, 90],
  ["XAU", "24h", "com-equ-24h", true, 12, 2, 120, 15],
  ["NVDAX", "24h", "com-equ-24h", true, 12, 2, 120, 15],
  ["GOOGLX", "24h", "com-equ-24h", true, 12, 2, 120, 45],
  ["TSLAX", "24h", "com-equ-24h", true, 12, 6, 120, 45],
  ["AAPLX", "24h", "com-equ-24h", true, 12, 6, 120, 75],
  ["WTIOIL", "24h", "com-equ-24h", true, 12, 6, 120, 75],
  ["SPCX", "24h", "com-equ-24h", true, 12, 10, 120, 105],
  ["SP500", "24h", "com-equ-24h", true, 12, 10, 120, 105],
  ["SPYX", "24h", "com-equ-24h", false, 12, 10, 120, 105],
];

const TABLES: Readonly<Record<PromptCadence, readonly PromptSeries[]>> = Object.freeze({
  real: buildTable("real"),
  sandbox: buildTable("sandbox"),
});

function buildTable(cadence: PromptCadence): readonly PromptSeries[] {
  return Object.freeze(
    ROWS.map((row, saveOrder) => {
      const [asset, horizon, competition, scored] = row;
      const [periodMinutes, offsetMinutes] =
        cadence === "real" ? [row[4], row[5]] : [row[6], row[7]];
      return Object.freeze({
        asset,
        horizon,
        competition,
        scored,
        periodMinutes,
        offsetMinutes,
        saveOrder,
      });
    }),
  );
}

/**
 * Every prompt series of a cadence, in save order.
 * @example promptSeriesTable("sandbox").find((series) => series.asset === "ETH" && series.horizon === "24h")?.periodMinutes // => 120
 */
export function promptSeriesTable(cadence: PromptCadence): readonly PromptSeries[] {
  return TABLES[cadence];
}

/**
 * The start times of `series` in [fromUnix, toUnix], ascending.
 * @example promptStartsBetween(series, 0, 3600).length // => 4 for a 15-minute series at offset 0
 */
export function promptStartsBetween(
  series: PromptSeries,
  fromUnix: number,
  toUnix: number,
): number[] {
  const periodSeconds = series.periodMinutes * 60;
  const offsetSeconds = series.offsetMinutes * 60;
  const starts: number[] = [];
  let start = Math.ceil((fromUnix - offsetSeconds) / periodSeconds) * periodSeconds + offsetSeconds;
  for (; start <= toUnix; start += periodSeconds) starts.push(start);
  return starts;
}

/**
 * The latest start of `series` at or before `atUnix`.
 * @example latestStartAtOrBefore(series, 1000) // => a start ≤ 1000
 */
export function latestStartAtOrBefore(series: PromptSeries, atUnix: number): number {
  const periodSeconds = series.periodMinutes * 60;
  const offsetSeconds = series.offsetMinutes * 60;
  return Math.floor((atUnix - offsetSeconds) / periodSeconds) * periodSeconds + offsetSeconds;
}

/**
 * Whether `startUnix` is a start of `series`.
 * @example isStartOf(series, latestStartAtOrBefore(series, 1000)) // => true
 */
export function isStartOf(series: PromptSeries, startUnix: number): boolean {
  return Number.isInteger(startUnix) && latestStartAtOrBefore(series, startUnix) === startUnix;
}
