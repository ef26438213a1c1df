/**
 * The builders share intermediates (sorted columns, window extremes) instead of calling the
 * reference functions cell by cell; here every cell is recomputed by the plain reference call on
 * independently re-based paths and must agree exactly.
 */
import { describe, expect, it } from "vitest";
import {
  LIQUIDATION_SCENARIOS,
  LIQUIDATION_WINDOWS,
  LP_WIDTHS,
  PERCENTILE_PROBABILITIES,
  lpBounds,
  nanMean,
  monthlyExpiryUnix,
  roundTo,
  stepOfTime,
  strikeGrid,
} from "../../../src/domain/insightConventions.ts";
import { PERCENTILE_KEYS } from "../../../src/domain/records/percentiles.ts";
import type { VolatilityRecord } from "../../../src/domain/records/volatility.ts";
import { lpProbabilityLevels, lpRangeStatistics } from "../../../src/reference/lp.ts";
import { optionPrices } from "../../../src/reference/options.ts";
import { stepPercentiles } from "../../../src/reference/percentiles.ts";
import { forecastVolatility } from "../../../src/reference/volatility.ts";
import { probabilityAbove, probabilityBelow } from "../../../src/reference/terminal.ts";
import { touchProbability } from "../../../src/reference/touch.ts";
import type { SandboxInsightInputs } from "../../../src/sandbox/insights/inputs.ts";
import { buildLiquidationRecord } from "../../../src/sandbox/insights/liquidation.ts";
import { buildLpBoundsRecord } from "../../../src/sandbox/insights/lpBounds.ts";
import { buildLpProbabilitiesRecord } from "../../../src/sandbox/insights/lpProbabilities.ts";
import { buildOptionPricingRecord } from "../../../src/sandbox/insights/optionPricing.ts";
import { buildPredictionPercentilesRecord } from "../../../src/sandbox/insights/predictionPercentiles.ts";
import { buildVolatilityRecord } from "../../../src/sandbox/insights/volatility.ts";
import { syntheticInputs } from "./syntheticInputs.ts";

/** The paths re-based additively, written out independently of the builders. */
function rebasedAdditively(inputs: SandboxInsightInputs): number[][] {
  return inputs.paths.map((path) =>
    Array.from(path, (point) => point - path[0] + inputs.currentPrice),
  );
}

for (const horizon of ["24h", "1h"] as const) {
  describe(`sandbox insights equal the reference functions cell by cell (${horizon})`, () => {
    // 10 miners × 40 paths whose start prices differ by up to ±0.9 %, so re-basing matters.
    const inputs = syntheticInputs({ horizon, pathsPerMiner: 40, startSpread: 0.002 });
    const paths = rebasedAdditively(inputs);
    const lastStep = paths[0].length - 1;
    const terminal = paths.map((path) => path[lastStep]);

    it("liquidation equals touchProbability over each window for each scenario", () => {
      const record = buildLiquidationRecord(inputs);
      expect(record.data.map((entry) => entry.price_change)).toEqual(
        LIQUIDATION_SCENARIOS.map((scenario) => scenario.key),
      );
      record.data.forEach((entry, index) => {
        const fraction = LIQUIDATION_SCENARIOS[index].fraction;
        for (const window of LIQUIDATION_WINDOWS[horizon]) {
          const toStep = window.seconds / inputs.timeIncrement;
          const long = touchProbability(
            paths,
            inputs.currentPrice * (1 - fraction),
            "down",
            0,
            toStep,
          );
          const short = touchProbability(
            paths,
            inputs.currentPrice * (1 + fraction),
            "up",
            0,
            toStep,
          );
          expect(entry.long_liquidation_probability[window.key]).toBe(roundTo(long, 4));
          expect(entry.short_liquidation_probability[window.key]).toBe(roundTo(short, 4));
        }
      });
      // Not all trivially 0 or 1: the comparison means something.
      const firstLong = Object.values(record.data[0].long_liquidation_probability);
      expect(firstLong.some((value) => value > 0.05 && value < 0.95)).toBe(true);
    });

    it("LP bounds equal lpRangeStatistics (stay, minutes inside, impermanent loss)", () => {
      const record = buildLpBoundsRecord(inputs);
      const stayKey = horizon === "24h" ? "24" : "1";
      record.data.forEach((entry, index) => {
        const { lower, upper } = lpBounds(inputs.currentPrice, LP_WIDTHS[index].fraction);
        expect(entry.interval).toEqual({
          full_width: LP_WIDTHS[index].key,
          lower_bound: lower,
          upper_bound: upper,
        });
        const statistics = lpRangeStatistics(
          paths,
          lower,
          upper,
          inputs.timeIncrement / 60,
          inputs.currentPrice,
        );
        expect(entry.probability_to_stay_in_interval).toEqual({
          [stayKey]: roundTo(statistics.probabilityToStay, 4),
        });
        expect(entry.expected_time_in_interval).toBe(
          roundTo(statistics.expectedTimeInsideMinutes, 4),
        );
        expect(entry.expected_impermanent_loss).toBe(statistics.expectedImpermanentLoss);
      });
    });

    it("LP bounds report time in interval in hours or as a fraction of the horizon when asked", () => {
      const hours = buildLpBoundsRecord({ ...inputs, options: { timeInIntervalUnit: "hours" } });
      const fraction = buildLpBoundsRecord({
        ...inputs,
        options: { timeInIntervalUnit: "fraction" },
      });
      const horizonMinutes = horizon === "24h" ? 1440 : 60;
      hours.data.forEach((entry, index) => {
        const { lower, upper } = lpBounds(inputs.currentPrice, LP_WIDTHS[index].fraction);
        const minutes = lpRangeStatistics(
          paths,
          lower,
          upper,
          inputs.timeIncrement / 60,
          inputs.currentPrice,
        ).expectedTimeInsideMinutes;
        // Unrounded, as the live records are; the two sums differ only in the last bits.
        expect(entry.expected_time_in_interval).toBeCloseTo(minutes / 60, 12);
        expect(fraction.data[index].expected_time_in_interval).toBeCloseTo(
          minutes / horizonMinutes,
          12,
        );
      });
      expect(hours.data[15].expected_time_in_interval).toBeGreaterThan(0);
    });

    it("LP probabilities equal probabilityAbove / probabilityBelow at lpProbabilityLevels", () => {
      const record = buildLpProbabilitiesRecord(inputs);
      const levels = lpProbabilityLevels(terminal);
      expect(Object.keys(record.data)).toEqual([horizon]);
      const { probability_above: above, probability_below: below } = record.data[horizon];
      expect(Object.keys(above)).toEqual(levels.map(String));
      expect(levels[0]).toBe(Math.min(...terminal));
      expect(levels[10]).toBe(Math.max(...terminal));
      for (const level of levels) {
        expect(above[String(level)]).toBe(roundTo(probabilityAbove(terminal, level), 4));
        expect(below[String(level)]).toBe(roundTo(probabilityBelow(terminal, level), 4));
      }
      // Strict inequalities: nothing is below the lowest level nor above the highest.
      expect(below[String(levels[0])]).toBe(0);
      expect(above[String(levels[10])]).toBe(0);
    });

    it("option prices equal optionPrices at the expiry step (BTC: monthly, whole dollars), keyed by the strike grid", () => {
      const record = buildOptionPricingRecord(inputs);
      const expiry = monthlyExpiryUnix(inputs.forecastStartUnix);
      const step = stepOfTime(expiry, inputs.forecastStartUnix, inputs.timeIncrement, lastStep + 1);
      const strikes = strikeGrid("BTC", inputs.currentPrice);
      const { calls, puts } = optionPrices(
        paths.map((path) => path[step]),
        strikes,
      );
      expect(record.call_options).toEqual(
        Object.fromEntries(
          strikes.map((strike, index) => [String(strike), roundTo(calls[index], 0)]),
        ),
      );
      expect(record.put_options).toEqual(
        Object.fromEntries(
          strikes.map((strike, index) => [String(strike), roundTo(puts[index], 0)]),
        ),
      );
      expect(record.expiry_time).toBe(
        `${new Date(expiry * 1000).toISOString().slice(0, 19).replace("T", " ")}Z`,
      );
    });

    it("prediction percentiles equal stepPercentiles at every step; step 0 is the current price", () => {
      const record = buildPredictionPercentilesRecord(inputs);
      const expected = stepPercentiles(paths, PERCENTILE_PROBABILITIES);
      expect(record.forecast_future.percentiles.length).toBe(lastStep + 1);
      record.forecast_future.percentiles.forEach((step, index) => {
        expect(PERCENTILE_KEYS.map((key) => step[key])).toEqual(
          expected[index].map((value) => roundTo(value, 2)),
        );
      });
      for (const key of PERCENTILE_KEYS) {
        expect(record.forecast_future.percentiles[0][key]).toBe(roundTo(inputs.currentPrice, 2));
      }
    });
  });
}

describe("the volatility record's forecast volatility", () => {
  it("averages the reference forecastVolatility of the block boundaries, to the bit", () => {
    const inputs = syntheticInputs({ pathsPerMiner: 30, startSpread: 0.002 });
    const sampled = rebasedAdditively(inputs).map((path) =>
      Array.from({ length: 97 }, (_, block) => path[3 * block]),
    );
    // unrounded, unlike the record's points: a change in the last bits of a block shows here
    // (point 0 of forecast_future is null, which numpy's nanmean reads as a 0 it does not count)
    const expected = nanMean([NaN, ...forecastVolatility(sampled, 15)]);
    const record = buildVolatilityRecord(inputs);
    expect(Object.is(record.forecast_future.average_volatility, expected)).toBe(true);
  });
});

describe("the volatility record's past ensemble", () => {
  it("is re-based to the market price at the previous prompt's start, one horizon earlier unless told", () => {
    const inputs = syntheticInputs({ pathsPerMiner: 20, startSpread: 0.002 });
    const pastOf = (previousStartUnix: number): number[] => {
      const price = inputs.priceAt(previousStartUnix);
      const sampled = (inputs.previousPaths ?? []).map((path) =>
        Array.from({ length: 97 }, (_, block) => path[3 * block] - path[0] + price),
      );
      return forecastVolatility(sampled, 15).map((value) => roundTo(value, 2));
    };
    const defaultStart = inputs.forecastStartUnix - 86400;
    // The previous prompt's 96 blocks; the last point is the current prompt's first block.
    const past = (record: VolatilityRecord) => record.forecast_past.volatility.slice(0, 96);
    const current = buildVolatilityRecord(inputs);
    expect(past(current)).toEqual(pastOf(defaultStart));
    expect(current.forecast_past.volatility[96]).toBe(current.forecast_future.volatility[1]);
    const earlierStart = defaultStart - 7200;
    const earlier = buildVolatilityRecord({ ...inputs, previousForecastStartUnix: earlierStart });
    expect(past(earlier)).toEqual(pastOf(earlierStart));
    expect(past(earlier)).not.toEqual(pastOf(defaultStart));
  });
});

describe("sandbox insights re-base multiplicatively when asked", () => {
  it("prediction percentiles scale the paths by currentPrice / p0", () => {
    const inputs = syntheticInputs({ pathsPerMiner: 20, startSpread: 0.003 });
    const scaled = inputs.paths.map((path) =>
      Array.from(path, (point) => (point * inputs.currentPrice) / path[0]),
    );
    const record = buildPredictionPercentilesRecord({
      ...inputs,
      options: { rebase: "multiplicative" },
    });
    const expected = stepPercentiles(scaled, PERCENTILE_PROBABILITIES);
    expect(PERCENTILE_KEYS.map((key) => record.forecast_future.percentiles[200][key])).toEqual(
      expected[200].map((value) => roundTo(value, 2)),
    );
    const additive = buildPredictionPercentilesRecord(inputs);
    expect(additive.forecast_future.percentiles[200]["0.995"]).not.toBe(
      record.forecast_future.percentiles[200]["0.995"],
    );
  });
});
