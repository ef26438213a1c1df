import { describe, expect, it } from "vitest";
import { MARKET_ASSETS, MARKET_PROFILES } from "../../../src/sandbox/world/marketProfiles.ts";
import { createMarkets, MARKET_HISTORY_START_UNIX } from "../../../src/sandbox/world/markets.ts";

const NOW = Date.UTC(2026, 10, 21, 10, 49) / 1000;
const DAYS = 30;

/** Annualized sample std (ddof 1) of the finite 1-minute log returns. */
function annualizedVolatility(closes: Float64Array): number {
  const returns: number[] = [];
  for (let index = 1; index < closes.length; index++) {
    const value = Math.log(closes[index] / closes[index - 1]);
    if (Number.isFinite(value)) returns.push(value);
  }
  const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
  const variance =
    returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (returns.length - 1);
  return Math.sqrt(variance * 525600);
}

describe("the sandbox's markets", () => {
  it.each([1, 2])(
    "every asset's 30-day annualized volatility of 1-minute returns lies in its band (seed %i)",
    (seed) => {
      const markets = createMarkets(seed, NOW);
      for (const asset of MARKET_ASSETS) {
        const volatility = annualizedVolatility(
          markets.minuteCloses(asset, NOW - DAYS * 86400, NOW),
        );
        const [low, high] = MARKET_PROFILES[asset].volatilityBand;
        expect({
          asset,
          inBand: volatility >= low && volatility <= high,
          volatility,
        }).toMatchObject({
          asset,
          inBand: true,
        });
      }
    },
  );

  it("prices stay near the realistic levels of DOMAIN.md §5", () => {
    const markets = createMarkets(3, NOW);
    expect(markets.priceAt("BTC", NOW)).toBeGreaterThan(50000);
    expect(markets.priceAt("BTC", NOW)).toBeLessThan(130000);
    for (const asset of MARKET_ASSETS) {
      const ratio = markets.priceAt(asset, NOW) / MARKET_PROFILES[asset].anchorPrice;
      expect({ asset, ratio, near: ratio > 0.6 && ratio < 1.6 }).toMatchObject({ near: true });
    }
  });

  it("missing minutes exist but are rare", () => {
    const markets = createMarkets(4, NOW);
    let missing = 0;
    let total = 0;
    for (const asset of MARKET_ASSETS) {
      const closes = markets.minuteCloses(asset, NOW - DAYS * 86400, NOW);
      for (const close of closes) if (Number.isNaN(close)) missing++;
      total += closes.length;
    }
    expect(missing).toBeGreaterThan(0);
    expect(missing / total).toBeLessThan(0.005);
  });

  it("consecutive days join without a seam: returns across midnight are like the others", () => {
    const markets = createMarkets(5, NOW);
    let midnightSquares = 0;
    let midnightCount = 0;
    let allSquares = 0;
    let allCount = 0;
    for (const asset of MARKET_ASSETS) {
      const from = Math.floor(NOW / 86400) * 86400 - 60 * 86400;
      const closes = markets.minuteCloses(asset, from, from + 60 * 86400);
      const scale = MARKET_PROFILES[asset].annualVolatility ** 2 / 525600;
      for (let index = 1; index < closes.length; index++) {
        const value = Math.log(closes[index] / closes[index - 1]);
        if (!Number.isFinite(value)) continue;
        allSquares += (value * value) / scale;
        allCount++;
        if (index % 1440 === 0) {
          midnightSquares += (value * value) / scale;
          midnightCount++;
        }
      }
    }
    const ratio = midnightSquares / midnightCount / (allSquares / allCount);
    expect(midnightCount).toBeGreaterThan(700);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });

  it("the same seed gives the same minutes whatever the clock, and the future is not observable", () => {
    const earlier = createMarkets(6, NOW - 86400);
    const later = createMarkets(6, NOW);
    const past = later.minuteCloses("ETH", NOW - 3 * 86400, NOW - 86400);
    expect(earlier.minuteCloses("ETH", NOW - 3 * 86400, NOW - 86400)).toEqual(past);
    expect(Number.isNaN(earlier.minuteClose("ETH", NOW - 86400 + 60))).toBe(true);
    expect(Number.isNaN(later.minuteClose("ETH", NOW + 60))).toBe(true);
    expect(Number.isNaN(later.minuteClose("ETH", MARKET_HISTORY_START_UNIX - 60))).toBe(true);
  });

  it("different seeds give different markets", () => {
    const first = createMarkets(7, NOW).minuteCloses("SOL", NOW - 3600, NOW);
    const second = createMarkets(8, NOW).minuteCloses("SOL", NOW - 3600, NOW);
    expect(first).not.toEqual(second);
  });

  it("priceAt is the last observed close at or before the time", () => {
    const markets = createMarkets(9, NOW);
    const closes = markets.minuteCloses("BTC", NOW - 5 * 86400, NOW);
    const missingIndex = closes.findIndex((close, index) => index > 5 && Number.isNaN(close));
    expect(missingIndex).toBeGreaterThan(0);
    let observed = missingIndex - 1;
    while (Number.isNaN(closes[observed])) observed--;
    const missingMinute = NOW - 5 * 86400 + missingIndex * 60;
    expect(markets.priceAt("BTC", missingMinute + 30)).toBe(closes[observed]);
    expect(markets.priceAt("BTC", NOW + 3600)).toBe(markets.priceAt("BTC", NOW));
  });

  it("an unknown asset is named in the error", () => {
    expect(() => createMarkets(1, NOW).minuteClose("DOGE", NOW)).toThrow(
      /minuteClose requires a market asset \(BTC, ETH, .*\), got DOGE/,
    );
  });
});
