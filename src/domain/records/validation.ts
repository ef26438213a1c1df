/**
 * Validation records (spec: "Validation records"). Asset fields are plain strings: the validator may
 * score assets that the spec's list does not name yet (e.g. `SPCX`), and a record is not a request.
 * Time fields are "string" in the spec; they are checked as ISO 8601 times.
 */
import {
  arrayOf,
  booleanCodec,
  finiteNumberCodec,
  integerCodec,
  nullablePositivePriceArrayCodec,
  objectOf,
  stringCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";

/**
 * Whether a miner's latest submission passed validation; `reason` is `CORRECT` or the first failure.
 * @example
 * const record: MinerValidation = { validated: false, reason: "Number of paths is incorrect: expected 1000, got 999", response_time: "1.2" };
 */
export interface MinerValidation {
  validated: boolean;
  reason: string;
  response_time: string;
}

/**
 * Codec of {@link MinerValidation}.
 * @example
 * minerValidationCodec.decode({ validated: true, reason: "CORRECT", response_time: "0.8" }, state).validated // => true
 */
export const minerValidationCodec: Codec<MinerValidation> = objectOf<MinerValidation>({
  validated: booleanCodec,
  reason: stringCodec,
  response_time: stringCodec,
});

/**
 * One prompt score of one miner.
 * @example
 * const row: ScoreRow = { asset: "BTC", crps: 1234.5, miner_uid: 47, prompt_score: 12.3, scored_time: "2026-02-25T23:00:00Z", time_length: 86400 };
 */
export interface ScoreRow {
  asset: string;
  /** Prompt CRPS; −1 marks a missing or invalid submission. */
  crps: number;
  miner_uid: number;
  prompt_score: number;
  scored_time: string;
  time_length: number;
}

/**
 * Codec of an array of {@link ScoreRow}.
 * @example
 * scoreRowsCodec.decode([], state) // => []
 */
export const scoreRowsCodec: Codec<ScoreRow[]> = arrayOf(
  objectOf<ScoreRow>({
    asset: stringCodec,
    crps: finiteNumberCodec,
    miner_uid: integerCodec,
    prompt_score: finiteNumberCodec,
    scored_time: timeCodec,
    time_length: integerCodec,
  }),
);

/**
 * A hotkey that held a uid, at the time it was first seen on that uid.
 * @example
 * const row: UidHolderRow = { created_at: "2026-02-20T10:00:00Z", hotkey: "5F…", miner_uid: 47 };
 */
export interface UidHolderRow {
  created_at: string;
  hotkey: string;
  miner_uid: number;
}

/**
 * Codec of an array of {@link UidHolderRow}.
 * @example
 * uidHolderRowsCodec.decode([], state) // => []
 */
export const uidHolderRowsCodec: Codec<UidHolderRow[]> = arrayOf(
  objectOf<UidHolderRow>({
    created_at: timeCodec,
    hotkey: stringCodec,
    miner_uid: integerCodec,
  }),
);

/**
 * A miner's smoothed score and reward weight in one competition.
 * @example
 * const row: SmoothedScoreRow = { miner_uid: 47, prompt_name: "crypto-24h", reward_weight: 0.011, smoothed_score: 40.2, updated_at: "2026-02-25T23:27:00Z" };
 */
export interface SmoothedScoreRow {
  miner_uid: number;
  /** The competition (or a legacy prompt name) as the service writes it. */
  prompt_name: string;
  reward_weight: number;
  smoothed_score: number;
  updated_at: string;
}

/**
 * Codec of an array of {@link SmoothedScoreRow}.
 * @example
 * smoothedScoreRowsCodec.decode([], state) // => []
 */
export const smoothedScoreRowsCodec: Codec<SmoothedScoreRow[]> = arrayOf(
  objectOf<SmoothedScoreRow>({
    miner_uid: integerCodec,
    prompt_name: stringCodec,
    reward_weight: finiteNumberCodec,
    smoothed_score: finiteNumberCodec,
    updated_at: timeCodec,
  }),
);

/**
 * The start times of the validator's prompts in a time range.
 * @example
 * const prompts: PromptList = { start_times: ["2026-02-25T23:00:00Z"] };
 */
export interface PromptList {
  start_times: string[];
}

/**
 * Codec of {@link PromptList}.
 * @example
 * promptListCodec.decode({ start_times: [] }, state) // => { start_times: [] }
 */
export const promptListCodec: Codec<PromptList> = objectOf<PromptList>({
  start_times: arrayOf(timeCodec),
});

/**
 * The realized prices on a prompt's grid.
 * @example
 * const path: RealizedPath = { asset: "BTC", real_prices: [67676.6, null], start_time: "2026-02-25T23:00:00Z", time_increment: 300, time_length: 86400 };
 */
export interface RealizedPath {
  asset: string;
  /**
   * One price per grid point. The validator holds NaN where a candle is missing; JSON carries that
   * as null, so null is accepted and means "missing".
   */
  real_prices: (number | null)[];
  start_time: string;
  time_increment: number;
  time_length: number;
}

/**
 * Codec of {@link RealizedPath}.
 * @example
 * realizedPathCodec.decode(json, state).real_prices.length // => 289
 */
export const realizedPathCodec: Codec<RealizedPath> = objectOf<RealizedPath>({
  asset: stringCodec,
  real_prices: nullablePositivePriceArrayCodec,
  start_time: timeCodec,
  time_increment: integerCodec,
  time_length: integerCodec,
});

/**
 * A minute in which several assets were scored, with the assets in the order their scores were saved.
 * @example
 * const row: MultiAssetMinuteRow = { assets: ["BTC", "ETH"], scored_time: "2026-02-25T23:27:00Z" };
 */
export interface MultiAssetMinuteRow {
  assets: string[];
  scored_time: string;
}

/**
 * Codec of an array of {@link MultiAssetMinuteRow}.
 * @example
 * multiAssetMinuteRowsCodec.decode([], state) // => []
 */
export const multiAssetMinuteRowsCodec: Codec<MultiAssetMinuteRow[]> = arrayOf(
  objectOf<MultiAssetMinuteRow>({
    assets: arrayOf(stringCodec),
    scored_time: timeCodec,
  }),
);
