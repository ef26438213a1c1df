/**
 * The validator's scoring intervals (the validator's CRPS): interval name → length in seconds. The name's
 * suffix selects how changes are formed: `_abs` = raw price at the end, `_gaps` = only the first
 * change, otherwise consecutive basis-point changes. Insertion order is the validator's order.
 * Also the block sizes of the crypto-1h volatility CRPS (the validator's dated rules).
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

/**
 * λ of the crypto-1h volatility CRPS (the validator's dated rules): the weight of the volatility part against
 * the price part.
 * @example VOLATILITY_CRPS_LAMBDA // => 5.25
 */
export const VOLATILITY_CRPS_LAMBDA = 5.25;

/**
 * One block size of the volatility CRPS: its length in seconds and the weight of its CRPS sum.
 * @example const block: VolatilityBlock = { seconds: 900, weight: 5.25 / 12 };
 */
export interface VolatilityBlock {
  /** Block length in seconds (block steps = trunc(seconds / time increment)). */
  readonly seconds: number;
  /** Factor of the sum of the block size's CRPS terms: λ / (3 · blocks of that size in an hour). */
  readonly weight: number;
}

/**
 * The volatility CRPS blocks of crypto-1h prompts (the validator's dated rules; the validator's
 * `vol_scoring_blocks`, synthdataco/synth-subnet pull request #323), name → block, in the
 * validator's order: one 60-minute block, four 15-minute and twelve 5-minute blocks, each size
 * weighted λ / (3 · its block count), so that each size adds λ/3 × its mean CRPS per block.
 * @example VOLATILITY_BLOCKS_1H.vol_15min // => { seconds: 900, weight: 0.4375 }
 */
export const VOLATILITY_BLOCKS_1H: Readonly<Record<string, VolatilityBlock>> = Object.freeze({
  vol_60min: Object.freeze({ seconds: 3600, weight: VOLATILITY_CRPS_LAMBDA / 3 }),
  vol_15min: Object.freeze({ seconds: 900, weight: VOLATILITY_CRPS_LAMBDA / 12 }),
  vol_5min: Object.freeze({ seconds: 300, weight: VOLATILITY_CRPS_LAMBDA / 36 }),
});
