/**
 * The sandbox's insight records on a driftless GBM ensemble against closed forms (Black–Scholes
 * with r = 0, the lognormal CDF and quantiles), each within 3 Monte-Carlo standard errors plus the
 * record's rounding, and the volatility records against numpy.
 */
import { describe, expect, it } from "vitest";
import {
  PERCENTILE_PROBABILITIES,
  VOLATILITY_LAYOUTS,
  monthlyExpiryUnix,
  realizedWindowMinutes,
  stepOfTime,
  venueEventWindow,
} from "../../../src/domain/insightConventions.ts";
import { PERCENTILE_KEYS } from "../../../src/domain/records/percentiles.ts";
import { buildLpProbabilitiesRecord } from "../../../src/sandbox/insights/lpProbabilities.ts";
import { buildOptionPricingRecord } from "../../../src/sandbox/insights/optionPricing.ts";
import { buildPredictionPercentilesRecord } from "../../../src/sandbox/insights/predictionPercentiles.ts";
import { buildUpDownRecord } from "../../../src/sandbox/insights/upDown.ts";
import {
  buildVolatilityPercentilesRecord,
  buildVolatilityRecord,
} from "../../../src/sandbox/insights/volatility.ts";
import { normalCdf, normalQuantiles } from "../../reference/closedForms.ts";
import { numpyAvailable, runPython, toJsonNumbers } from "../../reference/python.ts";
import { syntheticInputs } from "./syntheticInputs.ts";

const SIGMA = 0.5;
const YEAR_MINUTES = 525600;
/** 2026-02-25T23:44:00Z: a 24h prompt starts exactly now, so the paths start at the current price. */
const PROMPT_NOW = 1_772_063_040;

describe("sandbox insights against closed forms (driftless GBM, σ = 50 %)", () => {
  const inputs = syntheticInputs({
    nowUnix: PROMPT_NOW,
    pathsPerMiner: 400,
    annualVolatility: SIGMA,
  });
  const spot = inputs.currentPrice;
  const pathCount = inputs.paths.length;

  it("the synthetic ensemble starts at the current price (re-basing is the identity)", () => {
    expect(inputs.forecastStartUnix).toBe(PROMPT_NOW);
    expect(inputs.paths.every((path) => path[0] === spot)).toBe(true);
  });

  it("option prices match Black–Scholes (r = 0) within 3 standard errors", () => {
    const record = buildOptionPricingRecord(inputs);
    // BTC: the monthly expiry lies beyond the horizon, so the terminal point is the last one.
    const step = stepOfTime(monthlyExpiryUnix(PROMPT_NOW), PROMPT_NOW, 300, 289);
    expect(step).toBe(288);
    const scale = SIGMA * Math.sqrt((step * 5) / YEAR_MINUTES);
    const terminal = inputs.paths.map((path) => path[step]);
    const meanTerminal = terminal.reduce((sum, price) => sum + price, 0) / pathCount;
    const strikes = Object.keys(record.call_options).map(Number);
    expect(strikes.length).toBe(7);
    for (const strike of strikes) {
      const d1 = (Math.log(spot / strike) + (scale * scale) / 2) / scale;
      const d2 = d1 - scale;
      const call = spot * normalCdf(d1) - strike * normalCdf(d2);
      const put = strike * normalCdf(-d2) - spot * normalCdf(-d1);
      // Standard errors from the lognormal second moments of the payoffs (the sample's own
      // estimate is unreliable for deep out-of-the-money strikes that few paths reach):
      // E[(S−K)²; S>K] = S²e^{s²}Φ(d1+s) − 2KSΦ(d1) + K²Φ(d2), and symmetrically for puts.
      const growth = spot * spot * Math.exp(scale * scale);
      const callSecond =
        growth * normalCdf(d1 + scale) -
        2 * strike * spot * normalCdf(d1) +
        strike ** 2 * normalCdf(d2);
      const putSecond =
        strike ** 2 * normalCdf(-d2) -
        2 * strike * spot * normalCdf(-d1) +
        growth * normalCdf(-d1 - scale);
      const callError = Math.sqrt((callSecond - call * call) / pathCount);
      const putError = Math.sqrt((putSecond - put * put) / pathCount);
      // BTC prices are whole dollars: half a dollar of rounding on top of the Monte Carlo error.
      expect(Math.abs(record.call_options[String(strike)] - call)).toBeLessThan(
        3 * callError + 0.5,
      );
      expect(Math.abs(record.put_options[String(strike)] - put)).toBeLessThan(3 * putError + 0.5);
      // Put–call parity holds exactly for ensemble means, call − put = mean(S_T) − K, up to the
      // two roundings to whole dollars.
      expect(
        Math.abs(
          record.call_options[String(strike)] -
            record.put_options[String(strike)] -
            (meanTerminal - strike),
        ),
      ).toBeLessThanOrEqual(1);
    }
  });

  it("LP probabilities match the lognormal CDF at every level within 3 standard errors", () => {
    const record = buildLpProbabilitiesRecord(inputs);
    const years = 1440 / YEAR_MINUTES;
    const { probability_above: above, probability_below: below } = record.data["24h"];
    for (const key of Object.keys(above)) {
      const level = Number(key);
      const z = (Math.log(level / spot) + (SIGMA * SIGMA * years) / 2) / (SIGMA * Math.sqrt(years));
      const expectedAbove = 1 - normalCdf(z);
      const tolerance =
        3 * Math.sqrt((expectedAbove * (1 - expectedAbove)) / pathCount) + 0.00005 + 1e-6;
      expect(Math.abs(above[key] - expectedAbove)).toBeLessThan(tolerance);
      expect(Math.abs(below[key] - (1 - expectedAbove))).toBeLessThan(tolerance);
    }
  });

  it("prediction percentiles match lognormal quantiles within 3 standard errors", () => {
    const record = buildPredictionPercentilesRecord(inputs);
    const z = normalQuantiles(PERCENTILE_PROBABILITIES);
    for (const step of [36, 288]) {
      const years = (step * 5) / YEAR_MINUTES;
      const scale = SIGMA * Math.sqrt(years);
      PERCENTILE_KEYS.forEach((key, index) => {
        const p = PERCENTILE_PROBABILITIES[index];
        const quantile = spot * Math.exp(-(scale * scale) / 2 + scale * z[index]);
        // Standard error of a sample quantile: √(p(1−p)/n) / f(x_p), f the lognormal density.
        const density =
          Math.exp(-(z[index] ** 2) / 2) / (Math.sqrt(2 * Math.PI) * scale * quantile);
        const error = Math.sqrt((p * (1 - p)) / pathCount) / density;
        expect(Math.abs(record.forecast_future.percentiles[step][key] - quantile)).toBeLessThan(
          3 * error + 0.005,
        );
      });
    }
  });

  it("the daily Up/Down model probability matches the lognormal P(S_end ≥ start price)", () => {
    const record = buildUpDownRecord(inputs, "daily");
    const { startUnix, endUnix } = venueEventWindow("daily", PROMPT_NOW);
    const startPrice = inputs.priceAt(startUnix);
    expect(record.start_price).toBe(startPrice);
    const years = (stepOfTime(endUnix, PROMPT_NOW, 300, 289) * 5) / YEAR_MINUTES;
    const expected = normalCdf(
      (Math.log(spot / startPrice) - (SIGMA * SIGMA * years) / 2) / (SIGMA * Math.sqrt(years)),
    );
    const tolerance = 3 * Math.sqrt((expected * (1 - expected)) / pathCount) + 0.00005;
    expect(Math.abs(record.model_probability_up - expected)).toBeLessThan(tolerance);
    expect(record.model_outcome).toBe(record.model_probability_up >= 0.5 ? "UP" : "DOWN");
  });

  it("forecast volatility averages σ·100 within 3 standard errors", () => {
    const record = buildVolatilityRecord(inputs);
    expect(record.forecast_future.volatility.length).toBe(97);
    // The std of n normal draws has a relative standard error of about 1/√(2(n − 1)); 96 blocks.
    const relativeError = 1 / Math.sqrt(2 * (pathCount - 1) * 96);
    expect(Math.abs(record.forecast_future.average_volatility - SIGMA * 100)).toBeLessThan(
      3 * SIGMA * 100 * relativeError + 0.005,
    );
    expect(Math.abs(record.forecast_past.average_volatility - SIGMA * 100)).toBeLessThan(
      3 * SIGMA * 100 * relativeError + 0.005,
    );
  });
});

describe.skipIf(!numpyAvailable)("sandbox volatility records against numpy", () => {
  for (const horizon of ["24h", "1h"] as const) {
    const inputs = syntheticInputs({ horizon, pathsPerMiner: 30, startSpread: 0.002 });
    const { blockMinutes, blockCount, pointCount, realizedBlockEntries } =
      VOLATILITY_LAYOUTS[horizon];
    const stepsPerBlock = (blockMinutes * 60) / inputs.timeIncrement;
    const previousStart = inputs.forecastStartUnix - (horizon === "24h" ? 86400 : 3600);
    const numpy = runPython(
      [
        "closes = np.array(data['grid'], dtype=float)",
        "returns = np.concatenate([[np.nan], closes[1:] / closes[:-1] - 1])",
        "first = len(returns) % data['entries'] or data['entries']",
        "edges = [0] + list(range(first, len(returns) + 1, data['entries']))",
        "realized = []",
        "for a, b in list(zip(edges[:-1], edges[1:]))[:data['points']]:",
        "    finite = returns[a:b][np.isfinite(returns[a:b])]",
        "    realized.append(None if finite.size < 2 else float(np.std(finite, ddof=1) * np.sqrt(525600) * 100))",
        "def rebase(paths, price):",
        "    paths = np.array(paths, dtype=float)",
        "    return paths - paths[:, :1] + price",
        "def blocks(paths):",
        "    edges = paths[:, ::data['steps']][:, :data['count'] + 1]",
        "    return np.log(edges[:, 1:] / edges[:, :-1])",
        "annual = np.sqrt(525600 / data['block']) * 100",
        "future = blocks(rebase(data['paths'], data['current']))",
        "past = blocks(rebase(data['previous'], data['previousPrice']))",
        "probs = [0.005, 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.995]",
        "print(json.dumps({",
        "  'realized': realized,",
        "  'future': (np.std(future, axis=0, ddof=1) * annual).tolist(),",
        "  'past': (np.std(past, axis=0, ddof=1) * annual).tolist(),",
        "  'futurePercentiles': np.percentile(np.abs(future) * annual, [100 * p for p in probs], axis=0).T.tolist(),",
        "  'pastPercentiles': np.percentile(np.abs(past) * annual, [100 * p for p in probs], axis=0).T.tolist(),",
        "}))",
      ].join("\n"),
      {
        grid: toJsonNumbers(
          realizedWindowMinutes(horizon, inputs.forecastStartUnix).map(inputs.minuteClose),
        ),
        entries: realizedBlockEntries,
        points: pointCount,
        block: blockMinutes,
        steps: stepsPerBlock,
        count: blockCount,
        paths: inputs.paths,
        previous: inputs.previousPaths,
        current: inputs.currentPrice,
        previousPrice: inputs.priceAt(previousStart),
      },
    ) as {
      realized: (number | null)[];
      future: number[];
      past: number[];
      futurePercentiles: number[][];
      pastPercentiles: number[][];
    };
    /** Within the record's 2-decimal rounding of numpy's value. */
    const near = (reported: number, expected: number): void => {
      expect(Math.abs(reported - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
    };

    it(`realized volatility per block of listed prices equals numpy, null where a block has < 2 returns (${horizon})`, () => {
      const record = buildVolatilityRecord(inputs);
      expect(record.realized.volatility.length).toBe(Math.min(pointCount, numpy.realized.length));
      record.realized.volatility.forEach((value, index) => {
        const expected = numpy.realized[index];
        if (expected === null) expect(value).toBeNull();
        else near(value as number, expected);
      });
      const finite = numpy.realized.filter((value): value is number => value !== null);
      near(record.realized.average_volatility, finite.reduce((a, b) => a + b, 0) / finite.length);
    });

    it(`realized prices list every minute of the window, null where missing, with simple returns (${horizon})`, () => {
      const record = buildVolatilityRecord(inputs);
      const closes = realizedWindowMinutes(horizon, inputs.forecastStartUnix).map((minute) => {
        const close = inputs.minuteClose(minute);
        return Number.isFinite(close) ? close : null;
      });
      expect(closes).toHaveLength(VOLATILITY_LAYOUTS[horizon].realizedWindowMinutes);
      expect(record.realized.prices.map((entry) => entry.price)).toEqual(closes);
      expect(record.realized.prices[0].returns).toBeNull();
      expect(record.realized.prices[5].returns).toBe(closes[5]! / closes[4]! - 1);
    });

    it(`forecast future and past volatility equal numpy's std across paths per block (${horizon})`, () => {
      const record = buildVolatilityRecord(inputs);
      expect(record.forecast_future.volatility).toHaveLength(pointCount);
      expect(record.forecast_past.volatility).toHaveLength(pointCount);
      expect(record.forecast_future.volatility[0]).toBeNull();
      record.forecast_future.volatility
        .slice(1)
        .forEach((value, index) => near(value as number, numpy.future[index]));
      expect(record.forecast_past.volatility.slice(0, blockCount)).toHaveLength(numpy.past.length);
      record.forecast_past.volatility
        .slice(0, blockCount)
        .forEach((value, index) => near(value, numpy.past[index]));
      expect(record.forecast_past.volatility[blockCount]).toBe(
        record.forecast_future.volatility[1],
      );
      const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
      expect(record.forecast_future.average_volatility).toBeCloseTo(mean(numpy.future), 9);
      expect(record.forecast_past.average_volatility).toBeCloseTo(
        mean([...numpy.past, numpy.future[0]]),
        9,
      );
    });

    it(`volatility percentiles equal numpy.percentile per block (${horizon})`, () => {
      const record = buildVolatilityPercentilesRecord(inputs);
      expect(record.forecast_future.percentiles.length).toBe(blockCount);
      record.forecast_future.percentiles.forEach((step, index) =>
        PERCENTILE_KEYS.forEach((key, keyIndex) =>
          near(step[key], numpy.futurePercentiles[index][keyIndex]),
        ),
      );
      record.forecast_past.percentiles.forEach((step, index) =>
        PERCENTILE_KEYS.forEach((key, keyIndex) =>
          near(step[key], numpy.pastPercentiles[index][keyIndex]),
        ),
      );
    });
  }
});
