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
import { NOW_UNIX, syntheticInputs } from "./syntheticInputs.ts";

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

/**
 * Two clocks: at NOW_UNIX the 24h prompt starts 14 minutes into a quarter hour (no step before
 * its block ends: point 0 empty) and the 1h prompt on an odd minute (inside a 2-minute block);
 * 9 minutes later the 24h prompt starts 7 minutes in and the 1h prompt on an even minute.
 */
const VOLATILITY_CLOCKS = [
  { horizon: "24h", nowUnix: NOW_UNIX, firstPointEmpty: true },
  { horizon: "1h", nowUnix: NOW_UNIX, firstPointEmpty: false },
  { horizon: "24h", nowUnix: NOW_UNIX + 540, firstPointEmpty: false },
  { horizon: "1h", nowUnix: NOW_UNIX + 540, firstPointEmpty: true },
] as const;

describe.skipIf(!numpyAvailable)("sandbox volatility records against numpy", () => {
  for (const { horizon, nowUnix, firstPointEmpty } of VOLATILITY_CLOCKS) {
    const inputs = syntheticInputs({ horizon, nowUnix, pathsPerMiner: 30, startSpread: 0.002 });
    const { blockMinutes, blockCount, pointCount, realizedBlockEntries } =
      VOLATILITY_LAYOUTS[horizon];
    const stepsPerBlock = (blockMinutes * 60) / inputs.timeIncrement;
    const previousStart = inputs.forecastStartUnix - (horizon === "24h" ? 86400 : 3600);
    const label = `${horizon}, start ${new Date(inputs.forecastStartUnix * 1000).toISOString().slice(11, 16)}`;
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
        // The series' points: the UTC clock blocks (a − Δ, a] that the forecast's times fall in.
        "def points(paths, start):",
        "    times = start + data['increment'] * np.arange(paths.shape[1])",
        "    ends = np.ceil(times / (data['block'] * 60)) * data['block'] * 60",
        "    last = [int(np.nonzero(ends <= ends[0] + i * data['block'] * 60)[0].max()) for i in range(data['points'])]",
        "    out = []",
        "    for a, b in zip([0] + last[:-1], last):",
        "        minutes = (b - a) * data['increment'] / 60",
        "        r = np.log(paths[:, b] / paths[:, a])",
        "        out.append(None if b == a else float(np.std(r, ddof=1) * np.sqrt(525600 / minutes) * 100))",
        "    return out",
        "current = rebase(data['paths'], data['current'])",
        "previous = rebase(data['previous'], data['previousPrice'])",
        "future = blocks(current)",
        "past = blocks(previous)",
        "probs = [0.005, 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.995]",
        "print(json.dumps({",
        "  'realized': realized,",
        "  'future': points(current, data['start']),",
        "  'past': points(previous, data['previousStart']),",
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
        start: inputs.forecastStartUnix,
        previousStart,
        increment: inputs.timeIncrement,
      },
    ) as {
      realized: (number | null)[];
      future: (number | null)[];
      past: (number | null)[];
      futurePercentiles: number[][];
      pastPercentiles: number[][];
    };
    /** Within the record's 2-decimal rounding of numpy's value. */
    const near = (reported: number, expected: number): void => {
      expect(Math.abs(reported - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
    };

    it(`realized volatility per block of listed prices equals numpy, null where a block has < 2 returns (${label})`, () => {
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

    it(`realized prices list every minute of the window, null where missing, with simple returns (${label})`, () => {
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

    it(`forecast volatility points equal numpy's std across paths per UTC clock block (${label})`, () => {
      const record = buildVolatilityRecord(inputs);
      expect(record.forecast_future.volatility).toHaveLength(pointCount);
      expect(record.forecast_past.volatility).toHaveLength(pointCount);
      expect(numpy.future).toHaveLength(pointCount);
      expect(numpy.future[0] === null).toBe(firstPointEmpty);
      record.forecast_future.volatility.forEach((value, index) => {
        const expected = numpy.future[index];
        if (expected === null) expect(value).toBeNull();
        else near(value as number, expected);
      });
      const pastExpected = [...numpy.past.slice(1), numpy.future[1]] as number[];
      expect(pastExpected.every((value) => value !== null)).toBe(true);
      record.forecast_past.volatility.forEach((value, index) => near(value, pastExpected[index]));
      expect(record.forecast_past.volatility[blockCount]).toBe(
        record.forecast_future.volatility[1],
      );
      const mean = (values: (number | null)[]) => {
        const finite = values.filter((value): value is number => value !== null);
        return finite.reduce((a, b) => a + b, 0) / finite.length;
      };
      expect(record.forecast_future.average_volatility).toBeCloseTo(mean(numpy.future), 9);
      expect(record.forecast_past.average_volatility).toBeCloseTo(mean(pastExpected), 9);
    });

    it(`volatility percentiles equal numpy.percentile per block (${label})`, () => {
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
