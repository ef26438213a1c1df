import { describe, expect, it } from "vitest";
import { crpsPairwise } from "../../src/reference/crps.ts";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";
import {
  CalibrationAccumulator,
  CalibrationAccumulators,
} from "../../src/scoring/calibrationAccumulator.ts";
import {
  COVERAGE_LEVELS,
  promptCalibration,
  type CalibrationOptions,
} from "../../src/scoring/promptCalibration.ts";
import { normalCdf, normalQuantiles } from "../reference/closedForms.ts";
import { numpyAvailable } from "../reference/python.ts";
import { pathSetOf, realizedOf } from "./prompts.ts";

const MEMBERS = 100;
const PROMPTS = 3000;
const STEPS = 4;

/**
 * Calibration over PROMPTS short prompts (1-minute steps, STEPS steps): each prompt's ensemble is
 * MEMBERS GBM paths with volatility `ensembleVolatility`, its realized path one GBM path with
 * volatility 0.8 from the same start, so `ensembleVolatility` = 0.8 is perfectly calibrated.
 */
function calibrationOver(
  seed: number,
  ensembleVolatility: number,
  options: CalibrationOptions = {},
) {
  const random = createRandom(seed);
  const accumulator = new CalibrationAccumulator({ minerUid: 17, asset: "BTC", horizon: "240s" });
  const shape = { startPrice: 100, stepMinutes: 1, stepCount: STEPS };
  for (let prompt = 0; prompt < PROMPTS; prompt++) {
    const paths = simulateGbmPaths(random, {
      ...shape,
      annualVolatility: ensembleVolatility,
      pathCount: MEMBERS,
    });
    const realized = simulateGbmPaths(random, { ...shape, annualVolatility: 0.8, pathCount: 1 })[0];
    accumulator.add(promptCalibration(pathSetOf(paths, "1h"), shortRealized(realized), options));
  }
  return accumulator.summary();
}

/** A realized path record of a short 1-minute prompt. */
function shortRealized(prices: readonly number[]) {
  return { ...realizedOf(prices, "1h"), time_length: (prices.length - 1) * 60 };
}

/** Four sampling standard deviations of a fraction p over PROMPTS prompts (each prompt's points
 * are correlated, so the prompt, not the point, is the independent unit). */
function tolerance(p: number): number {
  return 4 * Math.sqrt((p * (1 - p)) / PROMPTS);
}

/**
 * For an ensemble whose log-returns have `ratio` × the realized standard deviation (drift is
 * negligible over minutes): the expected coverage of the central level-ℓ interval,
 * Φ(ratio·z) − Φ(−ratio·z) with z = Φ⁻¹((1 + ℓ)/2). (Likewise a PIT bin [a, b) has probability
 * Φ(Φ⁻¹(b)/ratio) − Φ(Φ⁻¹(a)/ratio).)
 */
function expectedCoverage(ratio: number, z: number): number {
  return normalCdf(ratio * z) - normalCdf(-ratio * z);
}

describe("promptCalibration", () => {
  it("promptCalibration computes PIT bins, coverage, widths and step CRPS as worked by hand (mid-rank)", () => {
    // Four paths of three points; step 1 members 1, 2, 3, 4; step 2 members 10, 20, 30, 40.
    const paths = [
      [1, 1, 10],
      [1, 2, 20],
      [1, 3, 30],
      [1, 4, 40],
    ];
    const realized = { ...realizedOf([1, 2.5, 40], "1h"), time_length: 120 };
    const row = promptCalibration(pathSetOf(paths, "1h"), realized, {
      ties: "mid-rank",
      levels: [0.5, 0.98],
    })!;
    // Step 1: 2 members below 2.5 → PIT (2 + 0.5)/5 = 0.5 (bin 5). Step 2: 3 below, 1 tied with
    // 40 → (3 + 0.5 + 0.5)/5 = 0.8 (bin 8).
    expect(row.pitCounts).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 1, 0]);
    expect(row.observedPoints).toBe(2);
    expect(row.horizon).toBe("120s");
    // 50 %: [1.75, 3.25] covers 2.5; [17.5, 32.5] misses 40. 98 %: [1.03, 3.97] and [10.3, 39.7].
    expect(row.coveredCounts).toEqual([1, 1]);
    expect(row.widthSums[0]).toBeCloseTo(1.5 + 15, 12);
    expect(row.widthSums[1]).toBeCloseTo(2.94 + 29.4, 12);
    // Widths relative to the step medians 2.5 and 25: 6,000 bps each at 50 %.
    expect(row.relativeWidthSumsBps[0]).toBeCloseTo(12000, 9);
    expect(row.stepCrpsBps[0]).toBeCloseTo((crpsPairwise([1, 2, 3, 4], 2.5) / 2.5) * 1e4, 10);
    expect(row.stepCrpsBps[1]).toBeCloseTo((crpsPairwise([10, 20, 30, 40], 40) / 40) * 1e4, 10);
  });

  it.skipIf(!numpyAvailable)(
    "a perfectly calibrated GBM ensemble gives a uniform PIT histogram and nominal coverage within sampling error",
    () => {
      const summary = calibrationOver(1, 0.8);
      expect(summary.prompts).toBe(PROMPTS);
      expect(summary.observedPoints).toBe(PROMPTS * STEPS);
      for (const fraction of summary.pitHistogram) {
        expect(Math.abs(fraction - 0.1)).toBeLessThanOrEqual(tolerance(0.1));
      }
      // With M members and R-7 quantiles, the interval runs between ranks whose expected CDF
      // values differ by (M − 1)·ℓ/(M + 1): slightly below nominal.
      summary.coverage.forEach(({ level, observed }) => {
        const expected = ((MEMBERS - 1) * level) / (MEMBERS + 1);
        expect(Math.abs(observed - expected)).toBeLessThanOrEqual(tolerance(expected));
      });
      expect(summary.coverage.map((item) => item.level)).toEqual([...COVERAGE_LEVELS]);
    },
  );

  it.skipIf(!numpyAvailable)(
    "an under-dispersed ensemble piles PITs into the end bins and covers less than nominal, as the normal closed form says",
    () => {
      const summary = calibrationOver(2, 0.4); // half the realized volatility
      const [edge] = normalQuantiles([0.1]);
      const endBin = normalCdf(0.5 * edge); // P(PIT < 0.1) = Φ(½·Φ⁻¹(0.1)) ≈ 0.26
      // + 0.02: with M members the rank of y smooths the ensemble CDF around the bin edge.
      expect(Math.abs(summary.pitHistogram[0] - endBin)).toBeLessThanOrEqual(
        tolerance(endBin) + 0.02,
      );
      expect(Math.abs(summary.pitHistogram[9] - endBin)).toBeLessThanOrEqual(
        tolerance(endBin) + 0.02,
      );
      expect(summary.pitHistogram[4]).toBeLessThan(0.1);
      const z = normalQuantiles(COVERAGE_LEVELS.map((level) => (1 + level) / 2));
      summary.coverage.forEach(({ level, observed }, index) => {
        const expected = expectedCoverage(0.5, z[index]);
        expect(observed).toBeLessThan(level);
        expect(Math.abs(observed - expected)).toBeLessThanOrEqual(tolerance(expected) + 0.02);
      });
    },
  );

  it.skipIf(!numpyAvailable)(
    "an over-dispersed ensemble piles PITs into the middle bins and covers more than nominal",
    () => {
      const summary = calibrationOver(3, 1.6); // twice the realized volatility
      const [a, b] = normalQuantiles([0.4, 0.5]);
      const middleBin = normalCdf(2 * b) - normalCdf(2 * a); // ≈ 0.20
      expect(Math.abs(summary.pitHistogram[4] - middleBin)).toBeLessThanOrEqual(
        tolerance(middleBin) + 0.02,
      );
      expect(summary.pitHistogram[0]).toBeLessThan(0.02);
      const z = normalQuantiles(COVERAGE_LEVELS.map((level) => (1 + level) / 2));
      summary.coverage.forEach(({ level, observed }, index) => {
        expect(observed).toBeGreaterThan(level);
        const expected = expectedCoverage(2, z[index]);
        expect(Math.abs(observed - expected)).toBeLessThanOrEqual(tolerance(expected) + 0.02);
      });
      // Twice the spread: the intervals are about twice as wide as the calibrated ones.
      const calibrated = calibrationOver(4, 0.8);
      const ratio = summary.coverage[0].meanWidth / calibrated.coverage[0].meanWidth;
      expect(ratio).toBeGreaterThan(1.9);
      expect(ratio).toBeLessThan(2.1);
    },
  );

  it("randomized PITs spread tied observations uniformly where mid-rank puts them in the middle, reproducibly", () => {
    // Every member equals the realized price: mid-rank gives PIT 0.5 every time; randomized draws
    // the rank uniformly among the M + 1 positions.
    const flat = Array.from({ length: 50 }, () => [100, 100, 100, 100, 100]);
    const realized = shortRealized([100, 100, 100, 100, 100]);
    const midRank = new CalibrationAccumulator({ minerUid: 17, asset: "BTC", horizon: "240s" });
    const randomized = new CalibrationAccumulator({ minerUid: 17, asset: "BTC", horizon: "240s" });
    for (let prompt = 0; prompt < 500; prompt++) {
      const pathSet = { ...pathSetOf(flat, "1h"), startTime: 1772063100 + 60 * prompt };
      const record = { ...realized, start_time: new Date(pathSet.startTime * 1000).toISOString() };
      midRank.add(promptCalibration(pathSet, record, { ties: "mid-rank" }));
      randomized.add(promptCalibration(pathSet, record));
    }
    expect(midRank.summary().pitCounts).toEqual([0, 0, 0, 0, 0, 2000, 0, 0, 0, 0]);
    for (const fraction of randomized.summary().pitHistogram) {
      expect(Math.abs(fraction - 0.1)).toBeLessThanOrEqual(4 * Math.sqrt(0.09 / 2000));
    }
    const pathSet = pathSetOf(flat, "1h");
    const again = () => promptCalibration(pathSet, realized)!.pitCounts;
    expect(again()).toEqual(again());
    expect(promptCalibration(pathSet, realized, { seed: 1 })!.pitCounts).not.toEqual(again());
  });

  it("promptCalibration skips missing realized prices and gives undefined for invalid prices", () => {
    const paths = simulateGbmPaths(createRandom(5), {
      startPrice: 100,
      annualVolatility: 0.5,
      stepMinutes: 1,
      stepCount: 60,
      pathCount: 30,
    });
    const prices = paths[0].map((price, index) => (index % 7 === 3 ? NaN : price * 1.001));
    const row = promptCalibration(pathSetOf(paths, "1h"), realizedOf(prices, "1h"))!;
    expect(row.observedPoints).toBe(60 - 9);
    expect(row.stepCrpsBps.filter(Number.isNaN)).toHaveLength(9);
    expect(row.pitCounts.reduce((sum, count) => sum + count, 0)).toBe(51);
    expect(row.horizon).toBe("1h");
    const zero = paths.map((path) => [...path]);
    zero[2][5] = 0;
    expect(promptCalibration(pathSetOf(zero, "1h"), realizedOf(prices, "1h"))).toBeUndefined();
    expect(() =>
      promptCalibration(pathSetOf(paths, "1h"), realizedOf(prices, "1h"), { levels: [1] }),
    ).toThrow("promptCalibration requires levels in (0, 1), got 1");
  });
});

describe("CalibrationAccumulator", () => {
  const key = { minerUid: 17, asset: "BTC", horizon: "1h" };
  const paths = simulateGbmPaths(createRandom(6), {
    startPrice: 100,
    annualVolatility: 0.5,
    stepMinutes: 1,
    stepCount: 60,
    pathCount: 40,
  });
  const rowOf = (seed: number) =>
    promptCalibration(
      pathSetOf(paths, "1h"),
      realizedOf(
        simulateGbmPaths(createRandom(seed), {
          startPrice: 100,
          annualVolatility: 0.5,
          stepMinutes: 1,
          stepCount: 60,
          pathCount: 1,
        })[0],
        "1h",
      ),
    )!;

  it("CalibrationAccumulator adds counts and sums, averages prompt and interval CRPS, and merges", () => {
    const [first, second] = [rowOf(7), rowOf(8)];
    const scoreOne = {
      crps: 30,
      intervals: { "1min": 10, "60min_abs": 20 },
      invalidReason: undefined,
    };
    const scoreTwo = {
      crps: 50,
      intervals: { "1min": 14, "60min_abs": 36 },
      invalidReason: undefined,
    };
    const invalid = {
      crps: -1,
      intervals: {},
      invalidReason: "zero price encountered in simulation runs",
    };
    const accumulator = new CalibrationAccumulator(key);
    accumulator.add(first, scoreOne);
    const other = new CalibrationAccumulator(key);
    other.add(second, scoreTwo);
    other.add(undefined, invalid);
    accumulator.merge(other);
    const summary = accumulator.summary();
    expect(summary.prompts).toBe(2);
    expect(summary.observedPoints).toBe(120);
    expect(summary.pitCounts).toEqual(
      first.pitCounts.map((count, bin) => count + second.pitCounts[bin]),
    );
    expect(summary.coverage[1].observed).toBe(
      (first.coveredCounts[1] + second.coveredCounts[1]) / 120,
    );
    expect(summary.coverage[1].meanWidth).toBeCloseTo(
      (first.widthSums[1] + second.widthSums[1]) / 120,
      12,
    );
    expect(summary.stepCrpsBps[59]).toBeCloseTo(
      (first.stepCrpsBps[59] + second.stepCrpsBps[59]) / 2,
      12,
    );
    expect(summary.scoredPrompts).toBe(2);
    expect(summary.invalidPrompts).toBe(1);
    expect(summary.meanPromptCrps).toBe(40);
    expect(summary.intervalCrps).toEqual({ "1min": 12, "60min_abs": 28 });
  });

  it("CalibrationAccumulator rejects another key or another shape", () => {
    const accumulator = new CalibrationAccumulator({ ...key, asset: "ETH" });
    expect(() => accumulator.add(rowOf(9))).toThrow(
      "CalibrationAccumulator of miner 17, ETH 1h cannot add miner 17, BTC 1h",
    );
    const same = new CalibrationAccumulator(key);
    same.add(rowOf(9));
    expect(() => same.add({ ...rowOf(10), levels: [0.5], coveredCounts: [1] })).toThrow(
      /requires rows of the same shape: levels \[0.5, 0.8, 0.9, 0.98\], 10 bins, 60 steps; got levels \[0.5\]/,
    );
  });

  it("CalibrationAccumulators keeps one accumulator per miner, asset and horizon", () => {
    const book = new CalibrationAccumulators();
    book.add(key, rowOf(11));
    book.add(key, rowOf(12));
    book.add({ ...key, minerUid: 18 }, undefined, { crps: -1, intervals: {}, invalidReason: "x" });
    const summaries = book.summaries();
    expect(summaries.map((summary) => [summary.minerUid, summary.prompts])).toEqual([
      [17, 2],
      [18, 0],
    ]);
    expect(summaries[1].invalidPrompts).toBe(1);
  });
});
