/**
 * The judgement of a venue market (`marketState.ts`): decided by a touched level, an event over,
 * or a distance the time left cannot bridge at Z = 4 standard deviations; the edge that survives
 * the fee and rounding; tradable when it also exceeds 2 standard errors of the model. Expected
 * values from the definitions, worked by hand.
 */

import { describe, expect, it } from "vitest";
import {
  DECIDED_Z,
  marketDecided,
  minuteLogVolatility,
  PRICE_ROUNDING,
  robustEdge,
  tradableEdge,
  venueFee,
  type MarketSnapshot,
} from "../../src/insights/marketState.ts";

const NOW = 1_795_168_800;
const base: MarketSnapshot = {
  kind: "above",
  refPrices: [2150],
  title: ">2150",
  startPrice: null,
  currentPrice: 2186.98,
  currentOutcome: 1,
  observedAtUnix: NOW,
  eventStartUnix: NOW - 17 * 3600,
  eventEndUnix: NOW + 600,
};
/** 1-minute log-return volatility of ~60 % a year. */
const SIGMA = 0.6 / Math.sqrt(525_600);

describe("venueFee and minuteLogVolatility", () => {
  it("the fee is 0.07 p (1 − p): 1.75 cents at 0.5, nothing at the ends", () => {
    expect(venueFee(0.5)).toBeCloseTo(0.0175, 15);
    expect(venueFee(0.1)).toBeCloseTo(0.0063, 15);
    expect(venueFee(0)).toBe(0);
  });

  it("the sample standard deviation of alternating ±r log returns is r √(n / (n − 1))", () => {
    const r = 0.001;
    // closes e^{0}, e^{r}, e^{0}, …: log returns +r, −r, … (60 returns over an hour)
    const close = (minute: number) => 100 * Math.exp(((minute / 60) % 2) * r);
    const n = 60;
    expect(minuteLogVolatility(close, 0, 3600)).toBeCloseTo(r * Math.sqrt(n / (n - 1)), 15);
  });

  it("skips returns next to a missing close, and is NaN with fewer than 30 returns", () => {
    const close = (minute: number) =>
      minute % 600 === 0 ? Number.NaN : 100 * Math.exp(((minute / 60) % 2) * 0.001);
    expect(minuteLogVolatility(close, 0, 3600)).toBeGreaterThan(0);
    expect(minuteLogVolatility(() => 100, 0, 29 * 60)).toBeNaN();
    expect(minuteLogVolatility(() => 100, 0, 30 * 60)).toBe(0);
  });
});

describe("marketDecided", () => {
  // ln(2186.98 / 2150) = 0.01705; 4 σ √10 at 60 %/yr = 0.01046: beyond reach in 10 minutes.
  it("an above market whose level the time left cannot bridge is decided; with hours left it is not", () => {
    expect(Math.log(2186.98 / 2150)).toBeGreaterThan(DECIDED_Z * SIGMA * Math.sqrt(10));
    expect(marketDecided(base, SIGMA)).toBe(true);
    expect(Math.log(2186.98 / 2150)).toBeLessThan(DECIDED_Z * SIGMA * Math.sqrt(60));
    expect(marketDecided({ ...base, eventEndUnix: NOW + 3600 }, SIGMA)).toBe(false);
  });

  it("a hit level touched is decided, by the service's current outcome or the price past it", () => {
    const hit = {
      ...base,
      kind: "hit",
      refPrices: [96_000],
      currentPrice: 97_829,
      eventEndUnix: NOW + 7 * 3600,
    };
    expect(marketDecided({ ...hit, title: "↓ 96000", currentOutcome: 0 }, SIGMA)).toBe(false);
    expect(marketDecided({ ...hit, title: "↓ 96000", currentOutcome: 1 }, SIGMA)).toBe(true);
    expect(marketDecided({ ...hit, title: "↑ 96000", currentOutcome: 0 }, SIGMA)).toBe(true);
    expect(marketDecided({ ...hit, title: "↓ 96000", currentOutcome: 0 }, Number.NaN)).toBe(false);
  });

  it("an event over is decided; without a volatility only certainties decide", () => {
    expect(marketDecided({ ...base, eventEndUnix: NOW }, Number.NaN)).toBe(true);
    expect(marketDecided(base, Number.NaN)).toBe(false);
  });

  it("a range is decided only when both bounds are out of reach", () => {
    const range = { ...base, kind: "range", refPrices: [2100, 2300], eventEndUnix: NOW + 600 };
    expect(marketDecided(range, SIGMA)).toBe(true);
    expect(marketDecided({ ...range, refPrices: [2180, 2300] }, SIGMA)).toBe(false);
  });

  it("an up-down market before its event starts is not decided, whatever the price", () => {
    const upDown = { ...base, kind: "up-down", refPrices: null, startPrice: 2000 };
    expect(marketDecided(upDown, SIGMA)).toBe(true);
    expect(marketDecided({ ...upDown, eventStartUnix: NOW + 60 }, SIGMA)).toBe(false);
    expect(marketDecided({ ...upDown, startPrice: null }, SIGMA)).toBe(false);
  });
});

describe("tradableEdge", () => {
  it("buys YES when the model clears the ask by the fee and the rounding; sells when below the bid", () => {
    const buy = tradableEdge(0.7, 0.6, 0.62);
    expect(buy?.side).toBe("buy");
    expect(buy?.netEdge).toBeCloseTo(0.7 - 0.62 - 0.07 * 0.62 * 0.38 - PRICE_ROUNDING, 15);
    const sell = tradableEdge(0.3, 0.4, 0.42);
    expect(sell?.side).toBe("sell");
    expect(sell?.netEdge).toBeCloseTo(0.4 - 0.3 - 0.07 * 0.4 * 0.6 - PRICE_ROUNDING, 15);
  });

  it("an edge the fee and rounding eat is none; so is a model of 0 against a bid of 0.005", () => {
    // 0.62 + fee 0.0165 + 0.005 = 0.6415
    expect(tradableEdge(0.64, 0.6, 0.62)).toBeNull();
    expect(tradableEdge(0, 0.005, 0.007)).toBeNull();
    expect(tradableEdge(null, 0.4, 0.42)).toBeNull();
    expect(tradableEdge(0.9, null, null)).toBeNull();
  });
});

describe("robustEdge", () => {
  it("holds for a live edge beyond 2 × √(MC SE² + between-miner SE²), and only then", () => {
    // √(0.003² + 0.004²) = 0.005: the bar is 0.01
    expect(robustEdge(false, 0.0101, 0.003, 0.004)).toBe(true);
    expect(robustEdge(false, 0.0099, 0.003, 0.004)).toBe(false);
    expect(robustEdge(null, 0.0101, 0.003, 0.004)).toBe(true); // not judged counts as live
    expect(robustEdge(true, 0.5, 0.003, 0.004)).toBe(false); // decided
    expect(robustEdge(false, null, 0.003, 0.004)).toBe(false); // no edge beyond the spread
  });

  it("is false where the model's uncertainty is unknown", () => {
    expect(robustEdge(false, 0.5, null, 0.004)).toBe(false);
    expect(robustEdge(false, 0.5, 0.003, null)).toBe(false);
    expect(robustEdge(false, 0.5, 0.003, Number.NaN)).toBe(false);
  });
});
