/**
 * Assets, horizons and competitions of the interface (the service's interface, Endpoints; the network's competitions),
 * as literal unions. Where one description of the spec lists an extra asset for an operation, the
 * extra is kept in that operation's list and named in its comment: rejecting a value one description
 * allows would make the client stricter than the service.
 * Over 300 lines because each list is a short documented constant with its type; splitting them would
 * scatter one table of the spec across files.
 */

/**
 * The asset set FULL of the spec. One description omits `SPCX`; it is kept.
 * @example
 * FULL_ASSETS.includes("WTIOIL") // => true
 */
export const FULL_ASSETS = [
  "BTC",
  "ETH",
  "XAU",
  "SOL",
  "SPY",
  "NVDA",
  "GOOGL",
  "TSLA",
  "AAPL",
  "SPCX",
  "XRP",
  "HYPE",
  "WTIOIL",
] as const;

/** One symbol of {@link FULL_ASSETS}. @example const asset: FullAsset = "SPCX"; */
export type FullAsset = (typeof FULL_ASSETS)[number];

/**
 * The asset set OPT of the spec: FULL without `XAU`. One description still lists `XAU`; pathlab
 * follows the Endpoints table and rejects `XAU` on option pricing.
 * @example
 * OPT_ASSETS.includes("XAU" as never) // => false
 */
export const OPT_ASSETS = [
  "BTC",
  "ETH",
  "SOL",
  "SPY",
  "NVDA",
  "GOOGL",
  "TSLA",
  "AAPL",
  "SPCX",
  "XRP",
  "HYPE",
  "WTIOIL",
] as const;

/** One symbol of {@link OPT_ASSETS}. @example const asset: OptAsset = "ETH"; */
export type OptAsset = (typeof OPT_ASSETS)[number];

/**
 * The silent remap of insights assets: the service answers for the cross-listed symbol.
 * @example
 * ASSET_REMAP.SPY // => "SPYX"
 */
export const ASSET_REMAP = {
  SPY: "SPYX",
  NVDA: "NVDAX",
  GOOGL: "GOOGLX",
  TSLA: "TSLAX",
  AAPL: "AAPLX",
} as const;

/** A short symbol the service remaps. @example const symbol: RemappedAsset = "NVDA"; */
export type RemappedAsset = keyof typeof ASSET_REMAP;

/**
 * The cross-listed symbols, which an earlier description lists directly as insights asset values.
 * @example
 * CROSS_LISTED_ASSETS[0] // => "SPYX"
 */
export const CROSS_LISTED_ASSETS = ["SPYX", "NVDAX", "GOOGLX", "TSLAX", "AAPLX"] as const;

/** One symbol of {@link CROSS_LISTED_ASSETS}. @example const asset: CrossListedAsset = "TSLAX"; */
export type CrossListedAsset = (typeof CROSS_LISTED_ASSETS)[number];

/**
 * The symbol the service answers for: the cross-listed symbol for the five remapped short symbols
 * (case-sensitive, as the service), any other symbol unchanged.
 * @param symbol - an asset symbol, short (`SPY`) or cross-listed (`SPYX`); case matters.
 * @example
 * canonicalAsset("SPY") // => "SPYX"
 * canonicalAsset("BTC") // => "BTC"
 */
export function canonicalAsset<const Symbol extends string>(
  symbol: Symbol,
): Symbol extends RemappedAsset ? (typeof ASSET_REMAP)[Symbol] : Symbol {
  const remapped = Object.hasOwn(ASSET_REMAP, symbol)
    ? ASSET_REMAP[symbol as RemappedAsset]
    : symbol;
  return remapped as Symbol extends RemappedAsset ? (typeof ASSET_REMAP)[Symbol] : Symbol;
}

/**
 * Assets of the insights operations over FULL (liquidation, LP bounds and probabilities, volatility,
 * percentiles, venue A daily Up/Down): FULL plus the cross-listed symbols.
 * @example
 * INSIGHT_ASSETS.includes("NVDAX") // => true
 */
export const INSIGHT_ASSETS = [...FULL_ASSETS, ...CROSS_LISTED_ASSETS] as const;

/** One symbol of {@link INSIGHT_ASSETS}. @example const asset: InsightAsset = "NVDA"; */
export type InsightAsset = (typeof INSIGHT_ASSETS)[number];

/**
 * Assets of `/insights/option-pricing`: OPT plus the cross-listed symbols.
 * @example
 * OPTION_PRICING_ASSETS.includes("AAPLX") // => true
 */
export const OPTION_PRICING_ASSETS = [...OPT_ASSETS, ...CROSS_LISTED_ASSETS] as const;

/** One symbol of {@link OPTION_PRICING_ASSETS}. @example const asset: OptionPricingAsset = "SOL"; */
export type OptionPricingAsset = (typeof OPTION_PRICING_ASSETS)[number];

/**
 * Assets of `/insights/venuea/up-down/hourly` and `/insights/venuea/up-down/5min`.
 * @example
 * UP_DOWN_INTRADAY_ASSETS.length // => 4
 */
export const UP_DOWN_INTRADAY_ASSETS = ["BTC", "ETH", "SOL", "HYPE"] as const;

/** One symbol of {@link UP_DOWN_INTRADAY_ASSETS}. @example const asset: UpDownIntradayAsset = "HYPE"; */
export type UpDownIntradayAsset = (typeof UP_DOWN_INTRADAY_ASSETS)[number];

/**
 * Assets of `/insights/venuea/up-down/15min`: `BTC`, `ETH`, `SOL`, and `HYPE`, which one
 * description also lists.
 * @example
 * UP_DOWN_FIFTEEN_MINUTE_ASSETS.includes("HYPE") // => true
 */
export const UP_DOWN_FIFTEEN_MINUTE_ASSETS = ["BTC", "ETH", "SOL", "HYPE"] as const;

/** One symbol of {@link UP_DOWN_FIFTEEN_MINUTE_ASSETS}. @example const asset: UpDownFifteenMinuteAsset = "SOL"; */
export type UpDownFifteenMinuteAsset = (typeof UP_DOWN_FIFTEEN_MINUTE_ASSETS)[number];

/**
 * Assets of `/insights/venuea/range/daily` (and the earlier `/insights/venuea/range`, "as supported
 * by the range operation"): the spec's short symbols plus the cross-listed forms of the equities.
 * @example
 * RANGE_ASSETS.includes("XRP") // => true
 */
export const RANGE_ASSETS = [
  "BTC",
  "ETH",
  "SOL",
  "NVDA",
  "GOOGL",
  "TSLA",
  "AAPL",
  "XRP",
  "NVDAX",
  "GOOGLX",
  "TSLAX",
  "AAPLX",
] as const;

/** One symbol of {@link RANGE_ASSETS}. @example const asset: RangeAsset = "GOOGL"; */
export type RangeAsset = (typeof RANGE_ASSETS)[number];

/**
 * Assets of `/insights/venuea/above/daily`.
 * @example
 * ABOVE_ASSETS // => ["BTC", "ETH"]
 */
export const ABOVE_ASSETS = ["BTC", "ETH"] as const;

/** One symbol of {@link ABOVE_ASSETS}. @example const asset: AboveAsset = "ETH"; */
export type AboveAsset = (typeof ABOVE_ASSETS)[number];

/**
 * Assets of `/insights/venuea/hit/daily`.
 * @example
 * HIT_ASSETS // => ["BTC", "ETH", "XRP"]
 */
export const HIT_ASSETS = ["BTC", "ETH", "XRP"] as const;

/** One symbol of {@link HIT_ASSETS}. @example const asset: HitAsset = "XRP"; */
export type HitAsset = (typeof HIT_ASSETS)[number];

/**
 * Assets of `/insights/venueb/daily`.
 * @example
 * VENUE_B_DAILY_ASSETS.includes("XAU") // => true
 */
export const VENUE_B_DAILY_ASSETS = ["BTC", "ETH", "SOL", "XAU", "HYPE", "XRP"] as const;

/** One symbol of {@link VENUE_B_DAILY_ASSETS}. @example const asset: VenueBDailyAsset = "HYPE"; */
export type VenueBDailyAsset = (typeof VENUE_B_DAILY_ASSETS)[number];

/**
 * Assets of `/insights/venueb/hourly`: `BTC`, `ETH`, `SOL`, and `XAU`, which one description also lists.
 * @example
 * VENUE_B_HOURLY_ASSETS.includes("XAU") // => true
 */
export const VENUE_B_HOURLY_ASSETS = ["BTC", "ETH", "SOL", "XAU"] as const;

/** One symbol of {@link VENUE_B_HOURLY_ASSETS}. @example const asset: VenueBHourlyAsset = "XAU"; */
export type VenueBHourlyAsset = (typeof VENUE_B_HOURLY_ASSETS)[number];

/**
 * Assets of `/insights/venueb/15min`.
 * @example
 * VENUE_B_FIFTEEN_MINUTE_ASSETS // => ["BTC", "ETH", "SOL"]
 */
export const VENUE_B_FIFTEEN_MINUTE_ASSETS = ["BTC", "ETH", "SOL"] as const;

/** One symbol of {@link VENUE_B_FIFTEEN_MINUTE_ASSETS}. @example const asset: VenueBFifteenMinuteAsset = "BTC"; */
export type VenueBFifteenMinuteAsset = (typeof VENUE_B_FIFTEEN_MINUTE_ASSETS)[number];

/**
 * Assets of the prediction operations: `BTC ETH SOL XAU SPYX NVDAX`, plus `TSLAX AAPLX GOOGLX` from an
 * earlier description. These take the cross-listed symbols only (no remap is stated for predictions).
 * @example
 * PREDICTION_ASSETS.includes("SPYX") // => true
 */
export const PREDICTION_ASSETS = [
  "BTC",
  "ETH",
  "SOL",
  "XAU",
  "SPYX",
  "NVDAX",
  "TSLAX",
  "AAPLX",
  "GOOGLX",
] as const;

/** One symbol of {@link PREDICTION_ASSETS}. @example const asset: PredictionAsset = "XAU"; */
export type PredictionAsset = (typeof PREDICTION_ASSETS)[number];

/**
 * Asset values of the validation operations: the spec's list, with `SP500` and its earlier form
 * `SPYX`. (`SPCX`, which the network's public record puts in `com-equ-24h`, is not in the spec's list.)
 * @example
 * VALIDATION_ASSETS.includes("SP500") // => true
 */
export const VALIDATION_ASSETS = [
  "BTC",
  "ETH",
  "XAU",
  "SOL",
  "SP500",
  "SPYX",
  "NVDAX",
  "TSLAX",
  "AAPLX",
  "GOOGLX",
  "XRP",
  "HYPE",
  "WTIOIL",
] as const;

/** One symbol of {@link VALIDATION_ASSETS}. @example const asset: ValidationAsset = "SP500"; */
export type ValidationAsset = (typeof VALIDATION_ASSETS)[number];

/**
 * Forecast horizons of the insights operations: next hour or next day.
 * @example
 * HORIZONS // => ["1h", "24h"]
 */
export const HORIZONS = ["1h", "24h"] as const;

/** `1h` (next hour) or `24h` (next day). @example const horizon: Horizon = "24h"; */
export type Horizon = (typeof HORIZONS)[number];

/**
 * The current competitions (the network's prompts).
 * @example
 * COMPETITIONS // => ["crypto-1h", "crypto-24h", "com-equ-24h"]
 */
export const COMPETITIONS = ["crypto-1h", "crypto-24h", "com-equ-24h"] as const;

/** One of {@link COMPETITIONS}. @example const competition: Competition = "crypto-1h"; */
export type Competition = (typeof COMPETITIONS)[number];

/**
 * The legacy prompt names and the competitions they stand for: `low` is the 24h prompt, `high` the 1h.
 * @example
 * LEGACY_PROMPT_NAMES.high // => "crypto-1h"
 */
export const LEGACY_PROMPT_NAMES = { low: "crypto-24h", high: "crypto-1h" } as const;

/** `low` or `high`. @example const legacy: LegacyPromptName = "low"; */
export type LegacyPromptName = keyof typeof LEGACY_PROMPT_NAMES;

/**
 * The values of `prompt_name` (leaderboards, and the deprecated alias on smoothed scores):
 * the legacy names and the competitions.
 * @example
 * PROMPT_NAMES.includes("low") // => true
 */
export const PROMPT_NAMES = ["low", "high", ...COMPETITIONS] as const;

/** One of {@link PROMPT_NAMES}. @example const name: PromptName = "com-equ-24h"; */
export type PromptName = (typeof PROMPT_NAMES)[number];

/**
 * The competition a prompt name stands for: legacy aliases resolved, competitions unchanged.
 * @param name - a prompt name: a competition (`crypto-24h`) or a legacy alias (`low`, `high`).
 * @example
 * canonicalCompetition("low") // => "crypto-24h"
 * canonicalCompetition("com-equ-24h") // => "com-equ-24h"
 */
export function canonicalCompetition(name: PromptName): Competition {
  return Object.hasOwn(LEGACY_PROMPT_NAMES, name)
    ? LEGACY_PROMPT_NAMES[name as LegacyPromptName]
    : (name as Competition);
}

/**
 * The assets scored in each competition (the network's prompts). `com-equ-24h` holds `SP500` and its earlier
 * form `SPYX`.
 * @example
 * COMPETITION_ASSETS["crypto-1h"] // => ["BTC", "ETH", "SOL", "XRP", "HYPE"]
 */
export const COMPETITION_ASSETS = {
  "crypto-1h": ["BTC", "ETH", "SOL", "XRP", "HYPE"],
  "crypto-24h": ["BTC", "ETH", "SOL", "XRP", "HYPE"],
  "com-equ-24h": ["XAU", "NVDAX", "GOOGLX", "TSLAX", "AAPLX", "WTIOIL", "SPCX", "SP500", "SPYX"],
} as const;

/**
 * The prompt horizon of each competition.
 * @example
 * COMPETITION_HORIZONS["com-equ-24h"] // => "24h"
 */
export const COMPETITION_HORIZONS = {
  "crypto-1h": "1h",
  "crypto-24h": "24h",
  "com-equ-24h": "24h",
} as const satisfies Record<Competition, Horizon>;
