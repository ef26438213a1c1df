/**
 * Query parameters: the typed parameter objects the client accepts per operation, and builders for
 * their run-time descriptions ({@link ParamSpec}) used by the operations table and `encodeQuery`.
 * Over 300 lines because each operation's parameter type is short and documented; they belong together.
 */
import {
  COMPETITIONS,
  HORIZONS,
  PROMPT_NAMES,
  VALIDATION_ASSETS,
  type Competition,
  type Horizon,
  type InsightAsset,
  type PredictionAsset,
  type PromptName,
  type ValidationAsset,
} from "./assets.ts";
import type { ParamSpec } from "./operation.ts";

/**
 * A time parameter: an ISO 8601 string (sent as written) or a Date (sent as `toISOString()`).
 * @example const from: TimeParam = new Date("2026-02-25T00:00:00Z");
 */
export type TimeParam = string | Date;

/**
 * Step of a prompt in seconds: 300 (24 h prompts); 60 in an earlier description (1 h prompts).
 * @example const step: TimeIncrement = 300;
 */
export type TimeIncrement = 300 | 60;

/**
 * Length of a prompt in seconds: 86400 (24 h); 3600 in an earlier description (1 h).
 * @example const length: TimeLength = 86400;
 */
export type TimeLength = 86400 | 3600;

/**
 * Parameters of an operation that takes none.
 * @example const none: NoParams = {};
 */
export type NoParams = Record<string, never>;

/**
 * The common parameters of every `/insights/*` operation (venue comparisons included), `Asset` being
 * the operation's supported symbols; `days` and `limit` come from an earlier description.
 * @example const params: InsightParams = { asset: "BTC", horizon: "24h", start_time: new Date() };
 */
export interface InsightParams<Asset extends string = InsightAsset> {
  /** Default `BTC`. Case-sensitive. */
  asset?: Asset;
  /** Each operation has its own default. */
  horizon?: Horizon;
  /** Historical data from this time; latest when omitted. */
  start_time?: TimeParam;
  /** Days aggregated by the meta-leaderboard that selects the miners (default 14). */
  days?: number;
  /** Number of top miners used (default 10). */
  limit?: number;
}

/**
 * The common parameters of the prediction operations (all required).
 * @example const params: PredictionParams = { asset: "BTC", time_increment: 300, time_length: 86400 };
 */
export interface PredictionParams {
  asset: PredictionAsset;
  time_increment: TimeIncrement;
  time_length: TimeLength;
}

/**
 * Parameters of `/v2/prediction/latest`.
 * @example const params: PredictionLatestParams = { asset: "BTC", time_increment: 300, time_length: 86400, miner: [47, 150] };
 */
export interface PredictionLatestParams extends PredictionParams {
  /** Sent repeated: `miner=47&miner=150`. */
  miner: number[];
  /** From an earlier description (default 10). */
  limit?: number;
}

/**
 * Parameters of `/v2/prediction/historical`.
 * @example const params: PredictionHistoricalParams = { asset: "ETH", time_increment: 300, time_length: 86400, miner: [47], start_time: "2026-02-25T23:00:00Z" };
 */
export interface PredictionHistoricalParams extends PredictionParams {
  miner: number[];
  start_time: TimeParam;
}

/**
 * Parameters of `/v2/prediction/metamodel/historical` (not shown by the spec: pathlab's choice).
 * @example const params: MetamodelHistoricalParams = { asset: "BTC", time_increment: 300, time_length: 86400, start_time: "2026-02-25T23:00:00Z" };
 */
export interface MetamodelHistoricalParams extends PredictionParams {
  start_time: TimeParam;
}

/**
 * Parameters of `/leaderboard/historical` (V1).
 * @example const params: TimeWindowParams = { start_time: "2026-02-01", end_time: "2026-02-02" };
 */
export interface TimeWindowParams {
  start_time: TimeParam;
  end_time: TimeParam;
}

/**
 * Parameters of `/v2/leaderboard/latest`.
 * @example const params: LeaderboardParams = { prompt_name: "crypto-1h" };
 */
export interface LeaderboardParams {
  /** Default `low` (= `crypto-24h`). */
  prompt_name?: PromptName;
}

/**
 * Parameters of `/v2/leaderboard/historical`.
 * @example const params: LeaderboardHistoricalParams = { start_time: "2026-02-01", end_time: "2026-02-02", prompt_name: "high" };
 */
export interface LeaderboardHistoricalParams extends TimeWindowParams, LeaderboardParams {}

/**
 * Parameters of the latest meta-leaderboard.
 * @example const params: MetaLeaderboardParams = { days: 14, prompt_name: "crypto-24h" };
 */
export interface MetaLeaderboardParams extends LeaderboardParams {
  /** Days of incentives aggregated (default 14). */
  days?: number;
}

/**
 * Parameters of the meta-leaderboard history.
 * @example const params: MetaLeaderboardHistoricalParams = { start_time: "2026-02-01T00:00:00Z" };
 */
export interface MetaLeaderboardHistoricalParams extends MetaLeaderboardParams {
  start_time: TimeParam;
}

/**
 * Parameters of the miner validation status.
 * @example const params: MinerValidationParams = { uid: 47 };
 */
export interface MinerValidationParams {
  uid: number;
}

/**
 * Parameters of the latest scores.
 * @example const params: ScoresLatestParams = { asset: "ETH", time_increment: 60, time_length: 3600 };
 */
export interface ScoresLatestParams {
  /** Default `BTC`. */
  asset?: ValidationAsset;
  /** Default 300. */
  time_increment?: TimeIncrement;
  /** Default 86400. */
  time_length?: TimeLength;
}

/**
 * Parameters of `/validation/scores/historical`.
 * @example const params: ScoresHistoricalParams = { from: "2026-02-24", to: "2026-02-25", miner_uid: 47 };
 */
export interface ScoresHistoricalParams extends ScoresLatestParams {
  from: TimeParam;
  to: TimeParam;
  miner_uid?: number;
}

/**
 * Parameters of the uid holders: `to` is an inclusive UTC day at most 30 days after `from`.
 * @example const params: UidHoldersParams = { from: "2026-02-01", to: "2026-03-03" };
 */
export interface UidHoldersParams {
  from: TimeParam;
  to: TimeParam;
}

/**
 * Parameters of the smoothed scores: `to` at most 7 days after `from`.
 * @example const params: SmoothedScoresParams = { from: "2026-02-18", to: "2026-02-25", competition: "crypto-1h" };
 */
export interface SmoothedScoresParams {
  from: TimeParam;
  to: TimeParam;
  /** Returns every miner that held the uid. */
  miner_uid?: number;
  /** Default: all competitions. */
  competition?: Competition;
  /** @deprecated Use `competition` (`low` = `crypto-24h`, `high` = `crypto-1h`). */
  prompt_name?: PromptName;
}

/**
 * Parameters of the validator prompts.
 * @example const params: PromptsParams = { from: "2026-02-25T00:00:00Z", to: "2026-02-25T01:00:00Z", time_increment: 300, time_length: 86400 };
 */
export interface PromptsParams {
  from: TimeParam;
  to: TimeParam;
  time_increment: TimeIncrement;
  time_length: TimeLength;
  /** Default `BTC`. */
  asset?: ValidationAsset;
}

/**
 * Parameters of the realized price path.
 * @example const params: RealizedPathParams = { start_time: "2026-02-25T00:00:00Z", time_increment: 300, time_length: 86400 };
 */
export interface RealizedPathParams {
  start_time: TimeParam;
  time_increment: TimeIncrement;
  time_length: TimeLength;
  /** Default `BTC`. */
  asset?: ValidationAsset;
}

/**
 * Parameters of the multi-asset scoring minutes: `to` an inclusive UTC day at most 2 days after `from`.
 * @example const params: MultiAssetMinutesParams = { from: "2026-02-24", to: "2026-02-26" };
 */
export interface MultiAssetMinutesParams {
  from: TimeParam;
  to: TimeParam;
  /** Default 86400. */
  time_length?: TimeLength;
}

/** Optional parts of a {@link ParamSpec} given to the builders. */
type ParamExtras = Pick<ParamSpec, "default" | "allowed" | "min" | "repeated">;

/**
 * A parameter description.
 * @example
 * paramSpec("uid", "integer", true, "miner uid", { min: 0 }) // => { name: "uid", type: "integer", required: true, description: "miner uid", min: 0 }
 */
export function paramSpec(
  name: string,
  type: ParamSpec["type"],
  required: boolean,
  description: string,
  extras: ParamExtras = {},
): ParamSpec {
  return Object.freeze({ name, type, required, description, ...extras });
}

/**
 * The common insights parameters for an operation's assets and default horizon, with the earlier
 * `days` and `limit`.
 * @example
 * insightParamSpecs(["BTC", "ETH"], "24h").map((param) => param.name) // => ["asset", "horizon", "start_time", "days", "limit"]
 */
export function insightParamSpecs(
  assets: readonly string[],
  defaultHorizon: Horizon,
): readonly ParamSpec[] {
  return Object.freeze([
    paramSpec("asset", "string", false, "asset symbol", { allowed: assets, default: "BTC" }),
    paramSpec("horizon", "string", false, "1h (next hour) or 24h (next day)", {
      allowed: HORIZONS,
      default: defaultHorizon,
    }),
    paramSpec("start_time", "time", false, "historical data from this time; latest when omitted"),
    paramSpec("days", "integer", false, "days aggregated by the meta-leaderboard (earlier form)", {
      default: 14,
      min: 1,
    }),
    paramSpec("limit", "integer", false, "number of top miners used (earlier form)", {
      default: 10,
      min: 1,
    }),
  ]);
}

/**
 * `time_increment` in seconds (300, or 60 from an earlier description).
 * @example timeIncrementSpec(true).allowed // => [300, 60]
 */
export function timeIncrementSpec(required: boolean): ParamSpec {
  return paramSpec("time_increment", "integer", required, "step in seconds", {
    allowed: [300, 60],
    ...(required ? {} : { default: 300 }),
  });
}

/**
 * `time_length` in seconds (86400, or 3600 from an earlier description).
 * @example timeLengthSpec(false).default // => 86400
 */
export function timeLengthSpec(required: boolean): ParamSpec {
  return paramSpec("time_length", "integer", required, "prompt length in seconds", {
    allowed: [86400, 3600],
    ...(required ? {} : { default: 86400 }),
  });
}

/**
 * `asset` of the validation operations (optional, default `BTC`).
 * @example validationAssetSpec().default // => "BTC"
 */
export function validationAssetSpec(): ParamSpec {
  return paramSpec("asset", "string", false, "asset symbol", {
    allowed: VALIDATION_ASSETS,
    default: "BTC",
  });
}

/**
 * `prompt_name` of the leaderboards (optional, default `low`).
 * @example promptNameSpec("competition").allowed // => ["low", "high", "crypto-1h", "crypto-24h", "com-equ-24h"]
 */
export function promptNameSpec(description: string): ParamSpec {
  return paramSpec("prompt_name", "string", false, description, {
    allowed: PROMPT_NAMES,
    default: "low",
  });
}

/**
 * `competition` of the smoothed scores (optional; all competitions when omitted).
 * @example competitionSpec().allowed // => ["crypto-1h", "crypto-24h", "com-equ-24h"]
 */
export function competitionSpec(): ParamSpec {
  return paramSpec("competition", "string", false, "competition; all when omitted", {
    allowed: COMPETITIONS,
  });
}
