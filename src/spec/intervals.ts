/**
 * The validator's scoring intervals (DOMAIN.md §2): interval name → length in seconds. The name's
 * suffix selects how changes are formed: `_abs` = raw price at the end, `_gaps` = only the first
 * change, otherwise consecutive basis-point changes. Insertion order is the validator's order.
 */

/**
 * Scoring intervals of 24h prompts (300 s steps, 289 points): 288 + 48 + 8 + 1 = 345 CRPS terms.
 * @example SCORING_INTERVALS_24H["3hour"] // => 10800
 */
export const SCORING_INTERVALS_24H: Readonly<Record<string, number>> = Object.freeze({
  "5min": 300,
  "30min": 1800,
  "3hour": 10800,
  "24hour_abs": 86400,
});

/**
 * Scoring intervals of 1h prompts (60 s steps, 61 points): 60 + 30 + 12 + 4 + 2 + 1 terms from the
 * regular and `_abs` intervals plus one term per `_gaps` interval (12) = 121 CRPS terms.
 * @example SCORING_INTERVALS_1H["0_25min_gaps"] // => 1500
 */
export const SCORING_INTERVALS_1H: Readonly<Record<string, number>> = Object.freeze({
  "1min": 60,
  "2min": 120,
  "5min": 300,
  "15min": 900,
  "30min": 1800,
  "60min_abs": 3600,
  "0_5min_gaps": 300,
  "0_10min_gaps": 600,
  "0_15min_gaps": 900,
  "0_20min_gaps": 1200,
  "0_25min_gaps": 1500,
  "0_30min_gaps": 1800,
  "0_35min_gaps": 2100,
  "0_40min_gaps": 2400,
  "0_45min_gaps": 2700,
  "0_50min_gaps": 3000,
  "0_55min_gaps": 3300,
  "0_60min_gaps": 3600,
});
