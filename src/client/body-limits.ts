/**
 * The largest response body the client reads per operation, so that no server (broken or hostile)
 * can make it hold more than that in memory. Defaults come from the spec's sizes with a generous
 * factor; `maxBodyBytes` overrides them.
 */

/** One mebibyte, in bytes. @example 8 * mebibyte // => 8_388_608 */
export const mebibyte = 1_048_576;

/**
 * The default limits, in bytes, by kind of operation:
 * - `prediction` (`/v2/prediction/*`): 64 MiB. A set is 1,000 paths × 289 points (spec, Limits):
 *   about 3 MB with the miners' 8 significant digits, up to about 6 MB with 17-digit doubles; 64 MiB
 *   holds 10 full-precision sets (the insights ensemble's top 10) or about 20 rounded ones.
 * - `scoresHistory` (`/validation/scores/historical`): 256 MiB. A 10-day competition window of
 *   24 h BTC prompts (every 4 minutes: 3,600 scored times) for ~256 miners at ~150 bytes a row is
 *   ~140 MB; the job that checks such a window asks for exactly that.
 * - `range` (other operations over a time range: historical leaderboards, smoothed scores, uid
 *   holders, prompts, multi-asset minutes): 64 MiB, a generous factor over days of rows.
 * - `other` (insights, venue comparisons, latest leaderboards and scores, one miner, one realized
 *   path): 8 MiB; their records are a few kB to a few hundred kB.
 * @example defaultBodyLimits.prediction // => 67_108_864
 */
export const defaultBodyLimits = Object.freeze({
  prediction: 64 * mebibyte,
  scoresHistory: 256 * mebibyte,
  range: 64 * mebibyte,
  other: 8 * mebibyte,
});

/** Spec paths of the `range` operations (the prediction and scores-history ones match by name). */
const rangeOperations: ReadonlySet<string> = new Set([
  "/leaderboard/historical",
  "/v2/leaderboard/historical",
  "/v2/meta-leaderboard/historical",
  "/validation/uid-holders",
  "/validation/smoothed-scores",
  "/validation/prompts",
  "/validation/multi-asset-minutes",
]);

/**
 * The default body limit of the operation with the spec's path `operation` (see
 * {@link defaultBodyLimits}).
 * @param operation - the operation's spec path, e.g. `/v2/prediction/latest`.
 * @example
 * defaultMaxBodyBytes("/v2/prediction/latest") // => 67_108_864
 * defaultMaxBodyBytes("/insights/liquidation") // => 8_388_608
 */
export function defaultMaxBodyBytes(operation: string): number {
  if (operation.startsWith("/v2/prediction/")) return defaultBodyLimits.prediction;
  if (operation === "/validation/scores/historical") return defaultBodyLimits.scoresHistory;
  if (rangeOperations.has(operation)) return defaultBodyLimits.range;
  return defaultBodyLimits.other;
}

/**
 * `bytes` as a short human-readable size, for error messages.
 * @example
 * formatBytes(67_108_864) // => "64 MiB (67108864 bytes)"
 * formatBytes(1500) // => "1500 bytes"
 */
export function formatBytes(bytes: number): string {
  if (bytes >= mebibyte && bytes % mebibyte === 0)
    return `${bytes / mebibyte} MiB (${bytes} bytes)`;
  return `${bytes} bytes`;
}
