import { describe, expect, it } from "vitest";
import { promptCrps, type PromptCrpsOptions } from "../../../src/reference/promptCrps.ts";
import { pathRows } from "../../../src/sandbox/world/pathRows.ts";
import { simulatePricePaths } from "../../../src/sandbox/world/pathSimulation.ts";
import { RandomStream } from "../../../src/sandbox/world/randomStream.ts";
import { validatorPromptCrps } from "../../../src/sandbox/world/validatorCrps.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../../src/domain/intervals.ts";

const LAYOUTS = {
  "24h": { pointCount: 289, timeIncrement: 300, intervals: SCORING_INTERVALS_24H },
  "1h": { pointCount: 61, timeIncrement: 60, intervals: SCORING_INTERVALS_1H },
} as const;

/** A set of `pathCount` paths as the world simulates them (8 significant digits). */
function simulated(seed: number, horizon: keyof typeof LAYOUTS, pathCount: number): Float64Array {
  const { pointCount, timeIncrement } = LAYOUTS[horizon];
  return simulatePricePaths(
    {
      startPrice: 80000,
      annualVolatility: 0.6,
      annualDrift: 0,
      tailDegrees: seed % 2 === 0 ? 0 : 4,
      jumpsPerDay: 1,
      jumpSize: 0.01,
      stepMinutes: timeIncrement / 60,
      pathCount,
      pointCount,
      significantDigits: 8,
    },
    new RandomStream(seed),
  );
}

/** One realized path of `length` points from the same model as the set's first path. */
function realizedOf(seed: number, horizon: keyof typeof LAYOUTS, length: number): number[] {
  return Array.from(simulated(seed + 1000, horizon, 1)).slice(0, length);
}

/** Both computations on the same paths, compared with Object.is (−1, NaN and the bits of a score). */
function expectSameScore(
  values: Float64Array,
  pathCount: number,
  realized: readonly number[],
  horizon: keyof typeof LAYOUTS,
  options: PromptCrpsOptions,
  intervals: Readonly<Record<string, number>> = LAYOUTS[horizon].intervals,
): number {
  const { pointCount, timeIncrement } = LAYOUTS[horizon];
  const expected = promptCrps(
    pathRows(values, pathCount, pointCount),
    realized,
    timeIncrement,
    intervals,
    options,
  );
  const got = validatorPromptCrps(
    { values, pathCount, pointCount },
    realized,
    timeIncrement,
    intervals,
    options,
  );
  expect(Object.is(got, expected), `${got} against the reference's ${expected}`).toBe(true);
  return got;
}

const ERAS: PromptCrpsOptions[] = [
  {},
  { gapsFirstChangeOnly: false },
  { volatility: true },
  { volatility: true, gapsFirstChangeOnly: false },
];

describe("validatorPromptCrps", () => {
  it("gives the reference prompt CRPS bit for bit on 24h and 1h sets, under every era's rules", () => {
    for (const horizon of ["24h", "1h"] as const) {
      for (let seed = 1; seed <= 4; seed++) {
        const values = simulated(seed, horizon, 200);
        const realized = realizedOf(seed, horizon, LAYOUTS[horizon].pointCount);
        for (const options of ERAS) {
          expect(expectSameScore(values, 200, realized, horizon, options)).toBeGreaterThan(0);
        }
      }
    }
  });

  it("follows the reference on realized paths that are short, long or have gaps", () => {
    const values = simulated(5, "1h", 100);
    const full = realizedOf(5, "1h", 61);
    const withGaps = full.map((price, point) => (point % 7 === 3 ? NaN : price));
    const cases = [
      full.slice(0, 40), // shorter: fewer changes than the paths have, a −1 where observed
      full.slice(0, 1),
      [...full, 81000, 81100], // longer
      withGaps,
      full.map((price, point) => (point > 0 ? NaN : price)), // nothing observed
      [...full.slice(0, 60), NaN], // last realized price NaN: the `_abs` term is not finite
      [...full.slice(0, 60), 0],
    ];
    for (const realized of cases) {
      for (const options of ERAS) expectSameScore(values, 100, realized, "1h", options);
    }
    const day = simulated(6, "24h", 50);
    const dayRealized = realizedOf(6, "24h", 289);
    for (const length of [1, 2, 12, 200, 288, 289, 300]) {
      expectSameScore(day, 50, dayRealized.slice(0, length), "24h", {});
      // the `_abs` interval alone: its step shrinks while the realized grid has one point
      const scored = expectSameScore(
        day,
        50,
        dayRealized.slice(0, length),
        "24h",
        {},
        {
          "24hour_abs": 86400,
        },
      );
      if (length >= 200) expect(scored).toBeGreaterThan(0); // one change, as the paths have
    }
  });

  it("scores −1 for a zero or non-finite simulated price, or no realized price, as the reference", () => {
    const realized = realizedOf(7, "24h", 289);
    for (const bad of [0, NaN, Infinity, -Infinity]) {
      const values = simulated(7, "24h", 20);
      values[20 * 289 - 5] = bad;
      expect(expectSameScore(values, 20, realized, "24h", {})).toBe(-1);
    }
    expect(expectSameScore(simulated(7, "24h", 20), 20, [], "24h", {})).toBe(-1);
    // no intervals: 0 (the reference checks prices only when it scores an interval)
    const zeroPrice = simulated(8, "1h", 20);
    zeroPrice[3] = 0;
    expect(expectSameScore(zeroPrice, 20, realizedOf(8, "1h", 61), "1h", {}, {})).toBe(0);
    expectSameScore(
      simulated(8, "1h", 20),
      20,
      realizedOf(8, "1h", 61),
      "1h",
      { volatility: true },
      {},
    );
  });

  it("follows the reference on realized prices that are infinite, negative or −0", () => {
    const values = simulated(10, "1h", 30);
    const full = realizedOf(10, "1h", 61);
    for (const odd of [Infinity, -Infinity, -80000, -0, 0]) {
      for (const point of [0, 30, 60]) {
        const realized = full.map((price, index) => (index === point ? odd : price));
        for (const options of ERAS) expectSameScore(values, 30, realized, "1h", options);
      }
    }
    // no realized price and no interval: −1 before the intervals are looked at
    expect(expectSameScore(values, 30, [], "1h", {}, {})).toBe(-1);
  });

  it("leaves the volatility CRPS out when the price CRPS sums to exactly −1, as the reference", () => {
    // one path whose `_abs` term, divided by a negative last realized price, is −1 exactly
    const realized = Array.from({ length: 61 }, (_, point) => (point === 60 ? -10000 : 80000));
    const values = Float64Array.from({ length: 61 }, (_, point) => (point === 60 ? -9999 : 80000));
    const intervals = { "1hour_abs": 3600 };
    expect(expectSameScore(values, 1, realized, "1h", { volatility: true }, intervals)).toBe(-1);
    expect(expectSameScore(values, 1, realized, "1h", {}, intervals)).toBe(-1);
  });

  it("gives the same score with one path, and names what is wrong with its input", () => {
    expectSameScore(simulated(9, "24h", 1), 1, realizedOf(9, "24h", 289), "24h", {});
    const realized = realizedOf(9, "24h", 289);
    expect(() =>
      validatorPromptCrps(
        { values: new Float64Array(10), pathCount: 2, pointCount: 289 },
        realized,
        300,
        SCORING_INTERVALS_24H,
      ),
    ).toThrow(/exactly pathCount × pointCount values, both positive integers, got 10 for 2 × 289/);
    expect(() =>
      validatorPromptCrps(
        { values: new Float64Array(290), pathCount: 1, pointCount: 289 },
        realized,
        300,
        SCORING_INTERVALS_24H,
      ),
    ).toThrow(/got 290 for 1 × 289/);
    const one = { values: simulated(9, "24h", 1), pathCount: 1, pointCount: 289 };
    expect(() => validatorPromptCrps(one, realized, 0, SCORING_INTERVALS_24H)).toThrow(
      /positive timeIncrementSeconds, got 0/,
    );
    expect(() => validatorPromptCrps(one, realized, 300, { "1min": 60 })).toThrow(
      /interval "1min" is 60 s with 300 s steps/,
    );
  });
});
