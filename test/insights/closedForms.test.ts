import { beforeAll, describe, expect, it } from "vitest";
import { liquidationInsight } from "../../src/insights/liquidation.ts";
import { lpProbabilitiesInsight } from "../../src/insights/lpProbabilities.ts";
import { optionPricingInsight } from "../../src/insights/optionPricing.ts";
import { predictionPercentilesInsight } from "../../src/insights/predictionPercentiles.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { rangeModelSides, upDownModelSide } from "../../src/insights/venueA.ts";
import { volatilityInsight, volatilityPercentilesInsight } from "../../src/insights/volatility.ts";
import type { InsightContext } from "../../src/insights/context.ts";
import type { Ensemble } from "../../src/paths/ensemble.ts";
import { PERCENTILE_KEYS } from "../../src/domain/records/percentiles.ts";
import { normalCdf, normalQuantiles } from "../reference/closedForms.ts";
import { numpyAvailable } from "../reference/python.ts";
import {
  START_UNIX,
  blackScholes,
  firstPassage,
  gbmEnsemble,
  isoOf,
  lognormalAbove,
  syntheticMinuteClose,
  yearsOf,
} from "./gbmEnsembles.ts";

const SIGMA = 0.6;
const START_PRICE = 68000;
/** Half a unit of the 4th decimal: a rounded probability is within this of the unrounded one. */
const PROBABILITY_ROUNDING = 5e-5;

/** |actual − expected| ≤ 3·standardError + rounding, with a message naming the value. */
function expectWithinThreeErrors(
  label: string,
  actual: number,
  expected: number,
  standardError: number,
  rounding: number,
): void {
  const allowed = 3 * standardError + rounding;
  const error = Math.abs(actual - expected);
  if (!(error <= allowed)) {
    throw new Error(
      `${label}: ${actual} vs closed form ${expected}: |error| ${error} > 3·SE (${standardError}) + rounding ${rounding}`,
    );
  }
}

describe("insights on a GBM ensemble (24h, 10 × 1,000 paths, σ = 60 %) against closed forms", () => {
  let ensemble: Ensemble;
  let session: InsightSession;
  let context: InsightContext;

  beforeAll(() => {
    ensemble = gbmEnsemble({
      seed: 20260225,
      startPrice: START_PRICE,
      annualVolatility: SIGMA,
      horizon: "24h",
    });
    context = {
      asset: "BTC",
      horizon: "24h",
      currentPrice: START_PRICE,
      forecastStartTime: isoOf(START_UNIX),
    };
    session = new InsightSession(ensemble, context);
  });

  it("optionPricingInsight prices calls and puts as Black–Scholes with r = 0 at an 08:00 UTC expiry, within 3 SE", () => {
    // BTC's default expiry is the monthly one, beyond the horizon; the next 08:00 UTC is asked for.
    expect(optionPricingInsight(session, context).record.expiry_time).toBe("2026-03-27 08:00:00Z");
    const { record, standardErrors } = optionPricingInsight(session, {
      ...context,
      expiryTime: "2026-02-26T08:00:00Z",
    });
    expect(record.expiry_time).toBe("2026-02-26 08:00:00Z");
    // 23:45 → 08:00 is 8 h 15 min = 99 steps of 5 minutes.
    const years = yearsOf(495);
    const strikes = Object.keys(record.call_options);
    expect(strikes).toEqual(["65000", "66000", "67000", "68000", "69000", "70000", "71000"]);
    for (const key of strikes) {
      const expected = blackScholes(START_PRICE, Number(key), SIGMA, years);
      expectWithinThreeErrors(
        `call ${key}`,
        record.call_options[key],
        expected.call,
        standardErrors[`call_options["${key}"]`],
        0.5, // BTC prices are whole dollars
      );
      expectWithinThreeErrors(
        `put ${key}`,
        record.put_options[key],
        expected.put,
        standardErrors[`put_options["${key}"]`],
        0.5,
      );
    }
  });

  it("liquidationInsight with the bridge-corrected touch matches the reflection principle with drift, within 3 SE", () => {
    const { record, standardErrors } = liquidationInsight(session, {
      ...context,
      touchEstimate: "bridge",
    });
    const discrete = liquidationInsight(session, context).record;
    expect(record.data.map((scenario) => scenario.price_change)).toEqual(
      Array.from({ length: 10 }, (_, index) => `${index + 1}.0%`),
    );
    record.data.forEach((scenario, index) => {
      const fraction = (index + 1) / 100;
      for (const hours of [6, 12, 18, 24]) {
        const key = String(hours);
        const years = yearsOf(hours * 60);
        const long = scenario.long_liquidation_probability[key];
        const short = scenario.short_liquidation_probability[key];
        expectWithinThreeErrors(
          `long ${scenario.price_change} ${key}h`,
          long,
          firstPassage(START_PRICE, START_PRICE * (1 - fraction), SIGMA, years),
          standardErrors[`data[${index}].long_liquidation_probability["${key}"]`],
          PROBABILITY_ROUNDING,
        );
        expectWithinThreeErrors(
          `short ${scenario.price_change} ${key}h`,
          short,
          firstPassage(START_PRICE, START_PRICE * (1 + fraction), SIGMA, years),
          standardErrors[`data[${index}].short_liquidation_probability["${key}"]`],
          PROBABILITY_ROUNDING,
        );
        // Discrete monitoring misses crossings between points: never above the bridge estimate.
        expect(discrete.data[index].long_liquidation_probability[key]).toBeLessThanOrEqual(long);
        expect(discrete.data[index].short_liquidation_probability[key]).toBeLessThanOrEqual(short);
      }
    });
  });

  it("lpProbabilitiesInsight matches the lognormal CDF at its 11 levels, within 3 SE", () => {
    const { record, standardErrors } = lpProbabilitiesInsight(session, context);
    const { probability_above: above, probability_below: below } = record.data["24h"];
    const levels = Object.keys(above).map(Number);
    expect(levels).toHaveLength(11);
    const terminal = session.sortedPricesAt(288);
    expect(Math.min(...levels)).toBe(terminal[0]);
    expect(Math.max(...levels)).toBe(terminal[terminal.length - 1]);
    const years = yearsOf(1440);
    for (const [key, value] of Object.entries(above)) {
      const expected = lognormalAbove(START_PRICE, SIGMA, years, Number(key));
      expectWithinThreeErrors(
        `above ${key}`,
        value,
        expected,
        standardErrors[`data["24h"].probability_above["${key}"]`],
        PROBABILITY_ROUNDING,
      );
      expectWithinThreeErrors(
        `below ${key}`,
        below[key],
        1 - expected,
        standardErrors[`data["24h"].probability_below["${key}"]`],
        PROBABILITY_ROUNDING,
      );
    }
  });

  it.skipIf(!numpyAvailable)(
    "predictionPercentilesInsight matches the lognormal quantiles S0·exp(−σ²t/2 + σ√t·Φ⁻¹(p)), within 3 SE",
    () => {
      const { record, standardErrors } = predictionPercentilesInsight(session, context);
      const steps = record.forecast_future.percentiles;
      expect(steps).toHaveLength(289);
      for (const key of PERCENTILE_KEYS) expect(steps[0][key]).toBe(START_PRICE);
      const quantiles = normalQuantiles(PERCENTILE_KEYS.map(Number));
      for (const step of [12, 72, 144, 288]) {
        const deviation = SIGMA * Math.sqrt(yearsOf(step * 5));
        PERCENTILE_KEYS.forEach((key, index) => {
          const expected =
            START_PRICE * Math.exp((-deviation * deviation) / 2 + deviation * quantiles[index]);
          expectWithinThreeErrors(
            `step ${step} p${key}`,
            steps[step][key],
            expected,
            standardErrors[`forecast_future.percentiles[${step}]["${key}"]`],
            0.005,
          );
        });
      }
    },
  );

  it("upDownModelSide and rangeModelSides match the lognormal law at the event end, within 3 SE", () => {
    // Daily event 17:00 → 17:00: from 23:45 the end is 17 h 15 min away (step 207).
    const years = yearsOf(1035);
    const upDown = upDownModelSide(session, { ...context, startPrice: 68500 }, "daily");
    expect(upDown.record.event_end_time).toBe("2026-02-26T17:00:00+00:00");
    // P(S ≥ k) = P(S > k) for a continuous law.
    expectWithinThreeErrors(
      "up",
      upDown.record.model_probability_up,
      lognormalAbove(START_PRICE, SIGMA, years, 68500),
      upDown.standardErrors.model_probability_up,
      PROBABILITY_ROUNDING,
    );
    const { record, standardErrors } = rangeModelSides(session, {
      ...context,
      touchEstimate: "bridge",
      rangeMarkets: [
        { cmpType: "range", refPrices: [66000, 70000] },
        { cmpType: "above", refPrices: [70000] },
        { cmpType: "below", refPrices: [66000] },
        { cmpType: "hit", refPrices: [72000] },
        { cmpType: "hit", refPrices: [64000] },
      ],
    });
    const expected = [
      lognormalAbove(START_PRICE, SIGMA, years, 66000) -
        lognormalAbove(START_PRICE, SIGMA, years, 70000),
      lognormalAbove(START_PRICE, SIGMA, years, 70000),
      1 - lognormalAbove(START_PRICE, SIGMA, years, 66000),
      firstPassage(START_PRICE, 72000, SIGMA, years),
      firstPassage(START_PRICE, 64000, SIGMA, years),
    ];
    record.forEach((side, index) => {
      expectWithinThreeErrors(
        `${side.cmp_type} ${side.ref_prices.join("-")}`,
        side.model_probability,
        expected[index],
        standardErrors[`[${index}].model_probability`],
        PROBABILITY_ROUNDING,
      );
      expect(side.model_outcome).toBe(side.model_probability >= 0.5 ? 1 : 0);
    });
  });
});

describe("volatility insights on GBM ensembles against σ", () => {
  let context: InsightContext;
  let ensemble: Ensemble;

  beforeAll(() => {
    ensemble = gbmEnsemble({ seed: 7, startPrice: 2500, annualVolatility: 0.8, horizon: "24h" });
    const previous = gbmEnsemble({
      seed: 8,
      startPrice: 2450,
      annualVolatility: 0.5,
      horizon: "24h",
      startUnix: START_UNIX - 86400,
    });
    context = {
      asset: "ETH",
      horizon: "24h",
      currentPrice: 2500,
      forecastStartTime: isoOf(START_UNIX),
      minuteClose: syntheticMinuteClose(2500),
      previous: { ensemble: previous, currentPrice: 2450 },
    };
  });

  it("volatilityInsight's forecast averages are σ × 100 (80 % now, 50 % for the previous prompt), within 3 SE", () => {
    const { record, standardErrors } = volatilityInsight(ensemble, context);
    expect(record.forecast_future.volatility).toHaveLength(97);
    expect(record.forecast_past.volatility).toHaveLength(97);
    expectWithinThreeErrors(
      "future average",
      record.forecast_future.average_volatility,
      80,
      standardErrors["forecast_future.average_volatility"],
      0.005,
    );
    expectWithinThreeErrors(
      "past average",
      record.forecast_past.average_volatility,
      // 96 blocks of the previous prompt, then the current prompt's first block.
      (96 * 50 + 80) / 97,
      standardErrors["forecast_past.average_volatility"],
      0.005,
    );
    // Per block, the z-scores of 96 independent blocks (point 0 is null): none beyond 4.
    expect(record.forecast_future.volatility[0]).toBeNull();
    record.forecast_future.volatility.slice(1).forEach((value, index) => {
      const block = index + 1;
      const z = ((value as number) - 80) / standardErrors[`forecast_future.volatility[${block}]`];
      expect(Math.abs(z)).toBeLessThan(4);
    });
  });

  it("volatilityPercentilesInsight matches the folded-normal quantiles of the block log return, within 3 SE", () => {
    const { record, standardErrors } = volatilityPercentilesInsight(ensemble, context);
    expect(record.forecast_future.percentiles).toHaveLength(96);
    // Block log return ~ N(−σ²Δ/2, σ²Δ), Δ = 15 minutes; |X| annualized by √(525600/15) × 100.
    const sigma = 0.8;
    const deviation = sigma * Math.sqrt(yearsOf(15));
    const mean = (-deviation * deviation) / 2;
    const scale = Math.sqrt(525600 / 15) * 100;
    const foldedQuantile = (p: number): number => {
      let low = 0;
      let high = 10 * deviation;
      for (let iteration = 0; iteration < 200; iteration++) {
        const middle = (low + high) / 2;
        const mass =
          normalCdf((middle - mean) / deviation) - normalCdf((-middle - mean) / deviation);
        if (mass < p) low = middle;
        else high = middle;
      }
      return ((low + high) / 2) * scale;
    };
    for (const block of [0, 47, 95]) {
      for (const key of PERCENTILE_KEYS) {
        expectWithinThreeErrors(
          `block ${block} p${key}`,
          record.forecast_future.percentiles[block][key],
          foldedQuantile(Number(key)),
          standardErrors[`forecast_future.percentiles[${block}]["${key}"]`],
          0.005 + 1e-4, // 2 decimals; Φ of simple-statistics is good to ~1e-7
        );
      }
    }
  });
});

describe("liquidation on a 1h GBM ensemble (15/30/45/60-minute windows)", () => {
  it("liquidationInsight keys the 1h windows in minutes and matches the reflection principle, within 3 SE", () => {
    const ensemble = gbmEnsemble({
      seed: 99,
      startPrice: 150,
      annualVolatility: 0.9,
      horizon: "1h",
      asset: "SOL",
    });
    const context: InsightContext = {
      asset: "SOL",
      horizon: "1h",
      currentPrice: 150,
      forecastStartTime: isoOf(START_UNIX),
      touchEstimate: "bridge",
    };
    const { record, standardErrors } = liquidationInsight(ensemble, context);
    record.data.slice(0, 3).forEach((scenario, index) => {
      const fraction = (index + 1) / 100;
      expect(Object.keys(scenario.long_liquidation_probability)).toEqual(["15", "30", "45", "60"]);
      for (const minutes of [15, 30, 45, 60]) {
        const key = String(minutes);
        expectWithinThreeErrors(
          `long ${scenario.price_change} ${key}min`,
          scenario.long_liquidation_probability[key],
          firstPassage(150, 150 * (1 - fraction), 0.9, yearsOf(minutes)),
          standardErrors[`data[${index}].long_liquidation_probability["${key}"]`],
          PROBABILITY_ROUNDING,
        );
      }
    });
  });
});
