import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { InsightContext } from "../../src/insights/context.ts";
import { contextFromServiceRecord } from "../../src/insights/contextFromServiceRecord.ts";
import { lpBoundsInsight } from "../../src/insights/lpBounds.ts";
import { lpProbabilitiesInsight } from "../../src/insights/lpProbabilities.ts";
import { optionPricingInsight } from "../../src/insights/optionPricing.ts";
import { predictionPercentilesInsight } from "../../src/insights/predictionPercentiles.ts";
import { probabilityError } from "../../src/insights/probabilityError.ts";
import { recompute, RECOMPUTABLE_PATHS } from "../../src/insights/recompute.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { upDownModelSide } from "../../src/insights/venueA.ts";
import { venueBModelSides } from "../../src/insights/venueB.ts";
import { volatilityInsight } from "../../src/insights/volatility.ts";
import type { Ensemble } from "../../src/paths/ensemble.ts";
import { lpRangeStatistics } from "../../src/reference/lp.ts";
import { realizedEntryVolatility } from "../../src/reference/volatility.ts";
import { nanMean } from "../../src/domain/insightConventions.ts";
import { decode } from "../../src/domain/codec.ts";
import { liveNaming } from "../../src/domain/naming.ts";
import { parseIsoTimeMs } from "../../src/domain/time.ts";
import { capturedExists, capturedFolder } from "../domain/captured.ts";
import {
  START_UNIX,
  gbmEnsemble,
  gbmPathSets,
  isoOf,
  syntheticMinuteClose,
} from "./gbmEnsembles.ts";

const INSIGHT_PATHS = [
  "/insights/liquidation",
  "/insights/lp-bounds",
  "/insights/lp-probabilities",
  "/insights/lp-bounds-chart",
  "/insights/option-pricing",
  "/insights/volatility",
  "/insights/volatility-percentiles",
  "/insights/prediction-percentiles",
] as const;

/** A raw ensemble (paths start at 1,990, not at the current price) and its context. */
function setup(): { ensemble: Ensemble; context: InsightContext } {
  const options = {
    startPrice: 1990,
    annualVolatility: 0.7,
    horizon: "24h",
    members: 3,
    pathsPerMember: 400,
    asset: "ETH",
  } as const;
  const ensemble = gbmEnsemble({ ...options, seed: 5 });
  const previous = gbmEnsemble({ ...options, seed: 6, startUnix: START_UNIX - 86400 });
  return {
    ensemble,
    context: {
      asset: "ETH",
      horizon: "24h",
      currentPrice: 2000,
      forecastStartTime: isoOf(START_UNIX),
      minuteClose: syntheticMinuteClose(2000),
      previous: { ensemble: previous, currentPrice: 1980 },
    },
  };
}

describe("insight records have the spec's shape", () => {
  let ensemble: Ensemble;
  let context: InsightContext;

  beforeAll(() => ({ ensemble, context } = setup()));

  it("recompute gives records that the spec's decoders accept, for every insight operation", () => {
    for (const operationPath of INSIGHT_PATHS) {
      const { record } = recompute(operationPath, ensemble, context);
      expect(decode(operationPath, JSON.parse(JSON.stringify(record))), operationPath).toEqual(
        record,
      );
    }
  });

  it("recompute gives the conventions' counts: 10 scenarios × 4 windows, 16 widths, 11 levels, 13 ETH strikes, 289 steps, 96 blocks", () => {
    const liquidation = recompute("/insights/liquidation", ensemble, context).record;
    expect(liquidation.data).toHaveLength(10);
    expect(Object.keys(liquidation.data[9].short_liquidation_probability)).toEqual([
      "6",
      "12",
      "18",
      "24",
    ]);
    const bounds = recompute("/insights/lp-bounds", ensemble, context).record;
    expect(bounds.data.map((entry) => entry.interval.full_width)).toEqual(
      Array.from({ length: 16 }, (_, index) => `${index + 1}.0%`),
    );
    expect(bounds.data[9].interval).toEqual({
      full_width: "10.0%",
      lower_bound: 1900,
      upper_bound: 2100,
    });
    const levels = recompute("/insights/lp-probabilities", ensemble, context).record;
    expect(Object.keys(levels.data)).toEqual(["24h"]);
    expect(Object.keys(levels.data["24h"].probability_below)).toHaveLength(11);
    const options = recompute("/insights/option-pricing", ensemble, context).record;
    expect(Object.keys(options.call_options).map(Number)).toEqual(
      Array.from({ length: 13 }, (_, index) => 1850 + 25 * index),
    );
    const percentiles = recompute("/insights/prediction-percentiles", ensemble, context).record;
    expect(percentiles.forecast_future.percentiles).toHaveLength(289);
    const volatility = recompute("/insights/volatility", ensemble, context).record;
    expect(volatility.realized.volatility).toHaveLength(96);
    expect(volatility.forecast_past.volatility).toHaveLength(97);
    expect(volatility.forecast_future.volatility).toHaveLength(97);
    expect(volatility.forecast_future.volatility[0]).toBeNull();
    // 1,440 minutes, of which those divisible by 97 are missing in the synthetic market: listed as null.
    const listed = Array.from({ length: 1440 }, (_, index) => START_UNIX / 60 - 1439 + index);
    expect(volatility.realized.prices).toHaveLength(1440);
    expect(
      volatility.realized.prices.flatMap((entry, index) => (entry.price === null ? [index] : [])),
    ).toEqual(listed.flatMap((minute, index) => (minute % 97 === 0 ? [index] : [])));
  });

  it("the records carry the context's start and current price, and every path starts at the current price", () => {
    const { record } = predictionPercentilesInsight(ensemble, context);
    expect(record.current_price).toBe(2000);
    expect(Object.values(record.forecast_future.percentiles[0])).toEqual(Array(9).fill(2000));
    expect(lpBoundsInsight(ensemble, context).record.forecast_start_time).toBe(isoOf(START_UNIX));
  });

  it("lpBoundsInsight equals the reference lpRangeStatistics on the re-based paths", () => {
    const session = new InsightSession(ensemble, context);
    const { record, standardErrors } = lpBoundsInsight(session, context);
    const { values, nPaths, nPoints } = session.ensemble;
    const rows = Array.from({ length: nPaths }, (_, row) =>
      Array.from(values.subarray(row * nPoints, (row + 1) * nPoints)),
    );
    for (const index of [0, 5, 15]) {
      const entry = record.data[index];
      const reference = lpRangeStatistics(
        rows,
        entry.interval.lower_bound,
        entry.interval.upper_bound,
        5,
        2000,
      );
      expect(entry.expected_time_in_interval).toBeCloseTo(reference.expectedTimeInsideMinutes, 9);
      expect(entry.probability_to_stay_in_interval["24"]).toBe(
        Math.round(reference.probabilityToStay * 1e4) / 1e4,
      );
      // The reference's plain 1 − V_LP/V_HODL cancels (~1e-16 per path); core's closed form does not.
      const lossError = Math.abs(
        entry.expected_impermanent_loss - reference.expectedImpermanentLoss,
      );
      expect(lossError).toBeLessThanOrEqual(1e-9 * reference.expectedImpermanentLoss);
      expect(standardErrors[`data[${index}].probability_to_stay_in_interval["24"]`]).toBe(
        probabilityError(reference.probabilityToStay, nPaths),
      );
    }
  });

  it("volatilityInsight on a market closed for an hour: the live lengths, null entries and null blocks where closed", () => {
    const open = syntheticMinuteClose(2000);
    // Closed for the 60 minutes ending 6 h before the forecast start (as XAU's daily break).
    const closedFrom = START_UNIX - 7 * 3600 + 60;
    const closedTo = START_UNIX - 6 * 3600;
    const minuteClose = (minute: number) =>
      minute >= closedFrom && minute <= closedTo ? NaN : open(minute);
    const { record } = volatilityInsight(ensemble, { ...context, minuteClose });
    expect(record.realized.prices).toHaveLength(1440);
    expect(record.forecast_future.volatility).toHaveLength(97);
    expect(record.forecast_past.volatility).toHaveLength(97);
    const firstClosed = 1439 - (START_UNIX - closedFrom) / 60;
    for (let index = firstClosed; index < firstClosed + 60; index++) {
      expect(record.realized.prices[index]).toEqual({ price: null, returns: null });
    }
    // The first price after the break has no return; the one after it has.
    expect(record.realized.prices[firstClosed + 60].returns).toBeNull();
    expect(record.realized.prices[firstClosed + 61].returns).not.toBeNull();
    // 1,440 entries in blocks of 15 from the end: the 4 blocks wholly inside the break are null.
    const nullBlocks = record.realized.volatility.flatMap((value, block) =>
      value === null ? [block] : [],
    );
    expect(nullBlocks).toHaveLength(4);
    for (const block of nullBlocks) {
      expect(block * 15).toBeGreaterThanOrEqual(firstClosed - 14);
      expect(block * 15 + 15).toBeLessThanOrEqual(firstClosed + 61);
    }
    expect(record.realized.average_volatility).toBe(nanMean(record.realized.volatility));
  });

  it("volatilityInsight's realized part is the reference realizedEntryVolatility of the 1,440 listed closes up to the forecast start", () => {
    const { record } = volatilityInsight(ensemble, context);
    const minuteClose = syntheticMinuteClose(2000);
    const closes = Array.from({ length: 1440 }, (_, index) =>
      minuteClose(START_UNIX - (1439 - index) * 60),
    );
    const returns = closes.map((close, index) =>
      index > 0 && Number.isFinite(close) && Number.isFinite(closes[index - 1])
        ? close / closes[index - 1] - 1
        : null,
    );
    const expected = realizedEntryVolatility(returns, 15, 97);
    expect(record.realized.volatility).toHaveLength(expected.length);
    expect(record.realized.average_volatility).toBe(nanMean(record.realized.volatility));
    record.realized.volatility.forEach((value, block) => {
      expect(value).toBe(
        Number.isFinite(expected[block]) ? Math.round(expected[block] * 100) / 100 : null,
      );
    });
    const prices = record.realized.prices;
    expect(prices[0].returns).toBeNull();
    expect(prices[1].returns).toBe((prices[1].price as number) / (prices[0].price as number) - 1);
    expect(prices.at(-1)?.price).toBe(minuteClose(START_UNIX));
  });
});

describe("insight options", () => {
  let ensemble: Ensemble;
  let context: InsightContext;

  beforeAll(() => ({ ensemble, context } = setup()));

  it("lpBoundsInsight reports time in interval in hours or as a fraction of the horizon on request", () => {
    const minutes = lpBoundsInsight(ensemble, context).record.data;
    const hours = lpBoundsInsight(ensemble, { ...context, timeInIntervalUnit: "hours" });
    const fraction = lpBoundsInsight(ensemble, { ...context, timeInIntervalUnit: "fraction" })
      .record.data;
    hours.record.data.forEach((entry, index) => {
      expect(entry.expected_time_in_interval).toBeCloseTo(
        minutes[index].expected_time_in_interval / 60,
        4,
      );
      expect(fraction[index].expected_time_in_interval).toBeCloseTo(
        minutes[index].expected_time_in_interval / 1440,
        4,
      );
    });
    expect(minutes[15].expected_time_in_interval).toBeLessThanOrEqual(1440);
  });

  it("a multiplicative re-base scales each path by currentPrice / p₀ instead of shifting it", () => {
    const session = new InsightSession(ensemble, { currentPrice: 2000, rebase: "multiplicative" });
    const raw = ensemble.values;
    const values = session.ensemble.values;
    expect(values[288]).toBeCloseTo((raw[288] * 2000) / raw[0], 9);
    expect(values[289 + 100]).toBeCloseTo((raw[289 + 100] * 2000) / raw[289], 9);
    const additive = new InsightSession(ensemble, { currentPrice: 2000 });
    expect(additive.ensemble.values[288]).toBe(raw[288] - raw[0] + 2000);
  });

  it("optionPricingInsight takes explicit strikes and expiry, and prices at the clamped step", () => {
    const { record } = optionPricingInsight(ensemble, {
      ...context,
      strikes: [1950.5, 2000],
      expiryTime: "2026-03-01T08:00:00Z",
    });
    expect(record.expiry_time).toBe("2026-03-01 08:00:00Z");
    // JavaScript lists integer-like keys first; the records' key order carries no meaning.
    expect(Object.keys(record.put_options).sort()).toEqual(["1950.5", "2000"]);
    // Beyond the horizon: the terminal price. call − put = mean(S_T) − K.
    const session = new InsightSession(ensemble, context);
    const terminal = session.sortedPricesAt(288);
    const mean = terminal.reduce((sum, price) => sum + price, 0) / terminal.length;
    expect(record.call_options["2000"] - record.put_options["2000"]).toBeCloseTo(mean - 2000, 9);
  });

  it("lpProbabilitiesInsight takes explicit levels and keys them by their shortest decimal form", () => {
    const { record } = lpProbabilitiesInsight(ensemble, {
      ...context,
      lpLevels: [1900.1, 2000, 2100.25],
    });
    expect(Object.keys(record.data["24h"].probability_above).sort()).toEqual([
      "1900.1",
      "2000",
      "2100.25",
    ]);
  });

  it("upDownModelSide and venueBModelSides resolve the contract open at `now` and take the start price from priceAt", () => {
    const priceAt = (unix: number) => (unix === START_UNIX - 45 * 60 ? 1995 : NaN);
    const hourly = upDownModelSide(
      ensemble,
      { ...context, now: isoOf(START_UNIX + 60), priceAt, slug: "eth-hour" },
      "hourly",
    ).record;
    // 23:46 → the 23:00–00:00 hour: start 45 minutes before the forecast start, end step 3.
    expect(hourly).toMatchObject({
      event_start_time: "2026-02-25T23:00:00+00:00",
      event_end_time: "2026-02-26T00:00:00+00:00",
      start_price: 1995,
      slug: "eth-hour",
      current_time: "2026-02-25T23:46:00+00:00",
    });
    const session = new InsightSession(ensemble, context);
    const atEnd = session.sortedPricesAt(3);
    const up = atEnd.filter((price) => price >= 1995).length / atEnd.length;
    expect(hourly.model_probability_up).toBe(Math.round(up * 1e4) / 1e4);
    expect(hourly.model_outcome).toBe(up >= 0.5 ? "UP" : "DOWN");
    const venueB = venueBModelSides(
      session,
      { ...context, venueBContracts: [{ startPrice: 1995, slug: "b" }] },
      "15min",
    );
    expect(venueB.record[0]).toMatchObject({
      start_price: 1995,
      slug: "b",
      event_end_time: "2026-02-26T00:00:00+00:00",
    });
    expect(venueB.record[0].model_probability_up).toBe(hourly.model_probability_up);
  });
});

describe("insight errors name the operation and the field", () => {
  let ensemble: Ensemble;
  let context: InsightContext;

  beforeAll(() => ({ ensemble, context } = setup()));

  it("a forecast start other than the ensemble's is refused", () => {
    expect(() =>
      lpBoundsInsight(ensemble, { ...context, forecastStartTime: "2026-02-25T23:40:00Z" }),
    ).toThrow(
      'lpBoundsInsight requires context.forecastStartTime to be the ensemble\'s start (unix 1772063100), got "2026-02-25T23:40:00Z" (unix 1772062800)',
    );
    expect(() => lpBoundsInsight(ensemble, { ...context, forecastStartTime: "yesterday" })).toThrow(
      'lpBoundsInsight requires context.forecastStartTime to be an ISO 8601 time, got "yesterday"',
    );
  });

  it("a horizon whose grid is not the ensemble's is refused", () => {
    expect(() =>
      recompute("/insights/liquidation", ensemble, { ...context, horizon: "1h" }),
    ).toThrow(
      "liquidationInsight requires a 1h ensemble (61 points every 60 s), got 289 points every 300 s",
    );
  });

  it("volatility without minute closes or without the previous prompt is refused", () => {
    expect(() => volatilityInsight(ensemble, { ...context, minuteClose: undefined })).toThrow(
      "volatilityInsight requires context.minuteClose",
    );
    expect(() => volatilityInsight(ensemble, { ...context, previous: undefined })).toThrow(
      "volatilityInsight requires context.previous (the ensemble of the prompt at unix 1771976700, for forecast_past), got none",
    );
    const wrongStart = gbmEnsemble({
      seed: 3,
      startPrice: 2000,
      annualVolatility: 0.5,
      horizon: "24h",
      members: 1,
      pathsPerMember: 10,
    });
    expect(() =>
      volatilityInsight(ensemble, {
        ...context,
        previous: { ensemble: wrongStart, currentPrice: 2000 },
      }),
    ).toThrow("requires context.previous.ensemble to start one horizon before the forecast start");
  });

  it("venue model sides without markets or a start price are refused", () => {
    expect(() => recompute("/insights/venuea/range/daily", ensemble, context)).toThrow(
      "rangeModelSides requires context.rangeMarkets (the event's markets: cmpType and refPrices), got none",
    );
    expect(() =>
      recompute("/insights/venuea/hit/daily", ensemble, {
        ...context,
        rangeMarkets: [{ cmpType: "range", refPrices: [1] }],
      }),
    ).toThrow(
      'rangeModelSides requires context.rangeMarkets[0].refPrices to hold 2 price(s) for cmpType "range", got [1]',
    );
    expect(() => recompute("/insights/venuea/up-down/daily", ensemble, context)).toThrow(
      "upDownModelSide requires context.startPrice or context.priceAt",
    );
  });

  it("recompute refuses a path that is not an insight or venue operation", () => {
    expect(() => recompute("/v2/prediction/best" as never, ensemble, context)).toThrow(
      'recompute: "/v2/prediction/best" is not an insight or venue operation',
    );
    expect(RECOMPUTABLE_PATHS).toHaveLength(19);
  });

  it("a session made for another price is refused, and one re-based the other way cannot be re-based again", () => {
    const session = new InsightSession(ensemble, { currentPrice: 2100 });
    expect(() => lpBoundsInsight(session, context)).toThrow(
      "insight session: the session was made for currentPrice 2100 (additive), but the context asks for currentPrice 2000 (additive); make a new session",
    );
    expect(
      () => new InsightSession(session.ensemble, { currentPrice: 2000, rebase: "multiplicative" }),
    ).toThrow(
      "InsightSession requires an ensemble that is not re-based or re-based multiplicatively, got one re-based additively to 2100",
    );
  });
});

describe("InsightSession", () => {
  it("InsightSession keeps an ensemble already re-based to the price, and caches sorted columns and block returns", () => {
    const pathSets = gbmPathSets({
      seed: 4,
      startPrice: 100,
      annualVolatility: 0.5,
      horizon: "1h",
      members: 2,
      pathsPerMember: 50,
    });
    const ensemble = gbmEnsemble({
      seed: 4,
      startPrice: 100,
      annualVolatility: 0.5,
      horizon: "1h",
      members: 2,
      pathsPerMember: 50,
      rebaseTo: 101,
    });
    const session = new InsightSession(ensemble, { currentPrice: 101 });
    expect(session.ensemble).toBe(ensemble);
    const sorted = session.sortedPricesAt(60);
    expect(session.sortedPricesAt(60)).toBe(sorted);
    expect(Array.from(sorted)).toEqual(
      Array.from({ length: 100 }, (_, path) => ensemble.values[path * 61 + 60]).sort(
        (a, b) => a - b,
      ),
    );
    const blocks = session.blockLogReturns(2);
    expect(blocks).toHaveLength(30 * 100);
    // Block 7 of path 63 (member 1, path 13): ln(p[16] / p[14]) of the re-based path.
    const row = pathSets[1].values.subarray(13 * 61, 14 * 61);
    const rebased = (t: number) => row[t] - row[0] + 101;
    expect(blocks[7 * 100 + 63]).toBeCloseTo(Math.log(rebased(16) / rebased(14)), 15);
    expect(() => session.sortedPricesAt(61)).toThrow(
      "InsightSession.sortedPricesAt requires an integer step in [0, 60], got 61",
    );
  });
});

describe("contextFromServiceRecord", () => {
  it("dates an earlier range record without current_time by its event: a service queried after 17:00 UTC priced the next day's event, and so does the recomputation", () => {
    // Forecast start 16:00 UTC; the service queried at 17:01, inside the event that ends the next
    // day at 17:00 (the record says only that end).
    const startUnix = parseIsoTimeMs("2026-02-25T16:00:00Z") / 1000;
    const ensemble = gbmEnsemble({
      seed: 9,
      startPrice: 2000,
      annualVolatility: 0.7,
      horizon: "24h",
      members: 2,
      pathsPerMember: 200,
      asset: "ETH",
      startUnix,
    });
    const side = {
      title: "[1950, 2050]",
      ref_prices: [1950, 2050],
      current_price: 2000,
      model_probability: 0.5,
      event_end_time: "2026-02-26T17:00:00+00:00",
    };
    const fromRecord = contextFromServiceRecord("/insights/venuea/range", [side]);
    expect(fromRecord.now).toBe("2026-02-25T17:00:00+00:00");
    const context: InsightContext = {
      asset: "ETH",
      horizon: "24h",
      currentPrice: 2000,
      forecastStartTime: isoOf(startUnix),
      ...fromRecord,
    };
    const { record } = recompute("/insights/venuea/range", ensemble, context);
    expect(record.map((market) => market.event_end_time)).toEqual([side.event_end_time]);
    // A record that gives its query time keeps it.
    const withTime = { ...side, current_time: "2026-02-25T16:30:00+00:00" };
    expect(contextFromServiceRecord("/insights/venuea/range", [withTime]).now).toBe(
      withTime.current_time,
    );
  });
});

describe.skipIf(!capturedExists)("contextFromServiceRecord on captured live records", () => {
  const read = (file: string) => JSON.parse(readFileSync(path.join(capturedFolder, file), "utf8"));

  it("contextFromServiceRecord takes the strike grid and expiry of a captured option record", () => {
    const record = decode("/insights/option-pricing", read("option_pricing/BTC.json"), {
      naming: liveNaming,
    });
    expect(contextFromServiceRecord("/insights/option-pricing", record)).toEqual({
      currentPrice: 71181,
      strikes: [68000, 69000, 70000, 71000, 72000, 73000, 74000],
      expiryTime: "2026-03-27 08:00:00Z",
    });
  });

  it("contextFromServiceRecord takes the 11 levels of a captured LP probabilities record, whose keys they reproduce", () => {
    const json = read("lp_probabilities/BTC.json");
    const record = decode("/insights/lp-probabilities", json, { naming: liveNaming });
    const levels = contextFromServiceRecord("/insights/lp-probabilities", record).lpLevels ?? [];
    expect(levels).toHaveLength(11);
    expect(levels.map(String).sort()).toEqual(
      Object.keys(json.data["24h"].probability_above).sort(),
    );
  });

  it("contextFromServiceRecord takes the markets of a captured range-family response", () => {
    const record = decode("/insights/venuea/range/daily", read("polymarket/range.json"), {
      naming: liveNaming,
    });
    const markets =
      contextFromServiceRecord("/insights/venuea/range/daily", record).rangeMarkets ?? [];
    expect(markets).toHaveLength(record.length);
    expect(markets.map((market) => market.cmpType)).toEqual(record.map((entry) => entry.cmp_type));
    expect(markets[0].refPrices).toEqual(record[0].ref_prices);
  });
});
