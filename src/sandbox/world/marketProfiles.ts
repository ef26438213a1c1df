/**
 * The sandbox's markets: one profile per asset with its price level, volatility and the shape of
 * its randomness, chosen to look like the real markets (the markets' usual magnitudes).
 */

/**
 * Parameters of one synthetic 1-minute market. The log price mean-reverts slowly to
 * ln(anchorPrice); its daily volatility follows a log-AR(1) around `annualVolatility`; within a day
 * an Ornstein–Uhlenbeck factor modulates the minute volatility; jumps arrive as a Poisson process.
 * @example MARKET_PROFILES.BTC.annualVolatility // => 0.52
 */
export interface MarketProfile {
  /** The cross-listed / validator symbol. */
  readonly asset: string;
  /** Level the log price reverts to (quote currency). */
  readonly anchorPrice: number;
  /** Long-run annualized volatility, a fraction (0.52 = 52 %); jumps add a little on top. */
  readonly annualVolatility: number;
  /** The band of the markets' usual magnitudes (or, where it gives none, the sandbox's), checked by the tests. */
  readonly volatilityBand: readonly [number, number];
  /** Standard deviation of the daily log-volatility (stochastic volatility across days). */
  readonly volatilityOfVolatility: number;
  /** Day-to-day persistence φ of the log-volatility, in [0, 1). */
  readonly volatilityPersistence: number;
  /** Standard deviation of the intraday log-volatility factor. */
  readonly intradayVolatilityOfVolatility: number;
  /** Mean-reversion time of the intraday factor, in minutes. */
  readonly intradayReversionMinutes: number;
  /** Mean-reversion speed κ of the log price toward the anchor, per year. */
  readonly priceReversionPerYear: number;
  /** Expected jumps per day. */
  readonly jumpsPerDay: number;
  /** Standard deviation of one jump's log size. */
  readonly jumpSize: number;
  /** Expected gaps of missing minutes per day (each 1 to 3 minutes long). */
  readonly missingGapsPerDay: number;
}

const CRYPTO = {
  volatilityOfVolatility: 0.1,
  volatilityPersistence: 0.7,
  intradayVolatilityOfVolatility: 0.25,
  intradayReversionMinutes: 180,
  priceReversionPerYear: 8,
  jumpsPerDay: 0.5,
  jumpSize: 0.008,
  missingGapsPerDay: 1.5,
} as const;

const TRADITIONAL = {
  volatilityOfVolatility: 0.12,
  volatilityPersistence: 0.8,
  intradayVolatilityOfVolatility: 0.2,
  intradayReversionMinutes: 240,
  priceReversionPerYear: 8,
  jumpsPerDay: 0.2,
  jumpSize: 0.005,
  missingGapsPerDay: 1,
} as const;

function profile(
  asset: string,
  anchorPrice: number,
  annualVolatility: number,
  volatilityBand: readonly [number, number],
  shape: typeof CRYPTO | typeof TRADITIONAL,
): MarketProfile {
  return Object.freeze({ asset, anchorPrice, annualVolatility, volatilityBand, ...shape });
}

/**
 * Every market of the sandbox, by symbol: FULL with the cross-listed equities, SP500, and the
 * validation and prediction assets. Equities are traded around the clock as tokenized symbols.
 * Bands of the markets' usual magnitudes (BTC 45–60 %, ETH 60–80 %, SOL 70–100 %, XAU 12–20 %, equities 15–50 %);
 * XRP, HYPE and WTIOIL have none there and use the sandbox's own.
 * @example MARKET_PROFILES.XAU.anchorPrice // => 3800
 */
export const MARKET_PROFILES: Readonly<Record<string, MarketProfile>> = Object.freeze({
  BTC: profile("BTC", 80000, 0.52, [0.45, 0.6], CRYPTO),
  ETH: profile("ETH", 2600, 0.7, [0.6, 0.8], CRYPTO),
  XAU: profile("XAU", 3800, 0.16, [0.12, 0.2], TRADITIONAL),
  SOL: profile("SOL", 140, 0.85, [0.7, 1], CRYPTO),
  SPYX: profile("SPYX", 690, 0.2, [0.15, 0.5], TRADITIONAL),
  NVDAX: profile("NVDAX", 180, 0.42, [0.15, 0.5], TRADITIONAL),
  GOOGLX: profile("GOOGLX", 250, 0.32, [0.15, 0.5], TRADITIONAL),
  TSLAX: profile("TSLAX", 400, 0.4, [0.15, 0.5], TRADITIONAL),
  AAPLX: profile("AAPLX", 250, 0.26, [0.15, 0.5], TRADITIONAL),
  SPCX: profile("SPCX", 180, 0.4, [0.15, 0.5], TRADITIONAL),
  XRP: profile("XRP", 2.1, 0.8, [0.65, 0.95], CRYPTO),
  HYPE: profile("HYPE", 30, 0.95, [0.8, 1.1], CRYPTO),
  WTIOIL: profile("WTIOIL", 70, 0.35, [0.28, 0.42], TRADITIONAL),
  SP500: profile("SP500", 6900, 0.2, [0.15, 0.5], TRADITIONAL),
});

/**
 * The market symbols in a fixed order (the index of an asset keys its random streams).
 * @example MARKET_ASSETS[0] // => "BTC"
 */
export const MARKET_ASSETS: readonly string[] = Object.freeze(Object.keys(MARKET_PROFILES));
