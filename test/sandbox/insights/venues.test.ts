import { describe, expect, it } from "vitest";
import {
  hitDirection,
  roundTo,
  stepOfTime,
  venueEventWindow,
  type VenueWindow,
} from "../../../src/domain/insightConventions.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { probabilityBelow } from "../../../src/reference/terminal.ts";
import { touchProbability } from "../../../src/reference/touch.ts";
import {
  venueProbabilityAbove,
  venueProbabilityRange,
  venueProbabilityUp,
} from "../../../src/reference/venue.ts";
import type { SandboxInsightInputs } from "../../../src/sandbox/insights/inputs.ts";
import {
  buildEarlierRangeRecords,
  buildRangeFamilyRecords,
} from "../../../src/sandbox/insights/rangeFamily.ts";
import { buildUpDownRecord } from "../../../src/sandbox/insights/upDown.ts";
import { buildVenueBRecords } from "../../../src/sandbox/insights/venueB.ts";
import { hashText, venueQuote } from "../../../src/sandbox/insights/venueQuote.ts";
import { NOW_UNIX, syntheticInputs } from "./syntheticInputs.ts";

const unixOf = (iso: string): number => parseIsoTimeMs(iso) / 1000;

function rebased(inputs: SandboxInsightInputs): number[][] {
  return inputs.paths.map((path) =>
    Array.from(path, (point) => point - path[0] + inputs.currentPrice),
  );
}

function endStepOf(inputs: SandboxInsightInputs, endUnix: number): number {
  return stepOfTime(
    endUnix,
    inputs.forecastStartUnix,
    inputs.timeIncrement,
    inputs.paths[0].length,
  );
}

const daily = syntheticInputs({ pathsPerMiner: 50, startSpread: 0.001 });
const intraday = syntheticInputs({ horizon: "1h", pathsPerMiner: 50, startSpread: 0.001 });

describe("venue A Up/Down records", () => {
  const cases: [VenueWindow, SandboxInsightInputs, string][] = [
    ["daily", daily, "bitcoin-up-or-down-on-february-26"],
    ["hourly", intraday, "bitcoin-up-or-down-february-25-6pm-et"],
    ["15min", intraday, "btc-updown-15m-1772063100"],
    ["5min", intraday, "btc-updown-5m-1772063100"],
  ];
  for (const [window, inputs, slug] of cases) {
    it(`the ${window} record is the open market, priced by venueProbabilityUp at step(end)`, () => {
      const record = buildUpDownRecord(inputs, window);
      const { startUnix, endUnix } = venueEventWindow(window, NOW_UNIX);
      expect(record.slug).toBe(slug);
      expect(unixOf(record.event_start_time)).toBe(startUnix);
      expect(unixOf(record.event_end_time)).toBe(endUnix);
      expect(unixOf(record.current_time)).toBe(NOW_UNIX);
      expect(record.start_price).toBe(inputs.priceAt(startUnix));
      const expected = venueProbabilityUp(
        rebased(inputs),
        endStepOf(inputs, endUnix),
        record.start_price,
      );
      expect(record.model_probability_up).toBe(roundTo(expected, 4));
      expect(record.model_outcome).toBe(record.model_probability_up >= 0.5 ? "UP" : "DOWN");
      expect(record.current_outcome).toBe(
        inputs.currentPrice >= record.start_price ? "UP" : "DOWN",
      );
      // The venue side: a one- or two-tick book whose mid is the venue's probability.
      expect(record.best_bid_price).toBeLessThan(record.best_ask_price);
      expect(record.best_bid_price).toBeGreaterThan(0);
      expect(record.best_ask_price).toBeLessThan(1);
      expect(record.venuea_probability_up).toBe(
        roundTo((record.best_bid_price + record.best_ask_price) / 2, 4),
      );
      expect(record.venuea_outcome).toBe(record.venuea_probability_up >= 0.5 ? "UP" : "DOWN");
      expect(record.market_probability_up).toBe(record.venuea_probability_up);
      expect(record.market_outcome).toBe(record.venuea_outcome);
      const creation = unixOf(record.event_creation_time as string);
      const lastTrade = unixOf(record.venuea_last_trade_time);
      expect(creation).toBeLessThan(startUnix);
      expect(lastTrade).toBeLessThanOrEqual(NOW_UNIX);
      expect(lastTrade).toBeGreaterThanOrEqual(creation);
    });
  }

  it("hourly slugs name the US Eastern hour, daylight saving included", () => {
    const summer = syntheticInputs({
      horizon: "1h",
      nowUnix: unixOf("2026-07-01T15:20:00Z"),
      pathsPerMiner: 5,
    });
    expect(buildUpDownRecord(summer, "hourly").slug).toBe("bitcoin-up-or-down-july-1-11am-et");
  });
});

describe("venue A range-family records", () => {
  const { startUnix, endUnix } = venueEventWindow("daily", NOW_UNIX);
  const paths = rebased(daily);
  const endStep = endStepOf(daily, endUnix);

  it("range/daily is one event of 11 contiguous buckets: <low, nine [a, b], >high", () => {
    const records = buildRangeFamilyRecords(daily, "range");
    expect(records.map((record) => record.cmp_type)).toEqual([
      "below",
      ...Array<string>(9).fill("range"),
      "above",
    ]);
    expect(new Set(records.map((record) => record.slug))).toEqual(
      new Set(["bitcoin-price-on-february-26"]),
    );
    const bounds = records.slice(1, 10).map((record) => record.ref_prices);
    bounds.forEach(([lower, upper], index) => {
      expect(records[index + 1].title).toBe(`[${lower}, ${upper}]`);
      if (index > 0) expect(lower).toBe(bounds[index - 1][1]);
      expect(upper - lower).toBe(bounds[0][1] - bounds[0][0]);
    });
    expect(records[0].ref_prices).toEqual([bounds[0][0]]);
    expect(records[0].title).toBe(`<${bounds[0][0]}`);
    expect(records[10].ref_prices).toEqual([bounds[8][1]]);
    // Every record of the event shares the daily window.
    for (const record of records) {
      expect(unixOf(record.event_start_time)).toBe(startUnix);
      expect(unixOf(record.event_end_time)).toBe(endUnix);
    }
  });

  it("range/daily model probabilities are the reference terminal probabilities and add up to 1", () => {
    const records = buildRangeFamilyRecords(daily, "range");
    const terminal = paths.map((path) => path[endStep]);
    const [low] = records[0].ref_prices;
    const [high] = records[10].ref_prices;
    expect(records[0].model_probability).toBe(roundTo(probabilityBelow(terminal, low), 4));
    expect(records[10].model_probability).toBe(
      roundTo(venueProbabilityAbove(paths, endStep, high), 4),
    );
    for (const record of records.slice(1, 10)) {
      const [lower, upper] = record.ref_prices;
      expect(record.model_probability).toBe(
        roundTo(venueProbabilityRange(paths, endStep, lower, upper), 4),
      );
    }
    const total = records.reduce((sum, record) => sum + record.model_probability, 0);
    expect(Math.abs(total - 1)).toBeLessThanOrEqual(11 * 0.00005 + 1e-12);
    // The current price lies in exactly one bucket.
    expect(records.filter((record) => record.current_outcome === 1).length).toBe(1);
  });

  it("above/daily thresholds rise while the model probability P(S_end > k) falls", () => {
    const records = buildRangeFamilyRecords(daily, "above");
    expect(records.length).toBe(11);
    expect(records.every((record) => record.cmp_type === "above")).toBe(true);
    expect(records[0].slug).toBe("bitcoin-above-on-february-26");
    for (let index = 1; index < records.length; index++) {
      expect(records[index].ref_prices[0]).toBeGreaterThan(records[index - 1].ref_prices[0]);
      expect(records[index].model_probability).toBeLessThanOrEqual(
        records[index - 1].model_probability,
      );
    }
    for (const record of records) {
      expect(record.model_probability).toBe(
        roundTo(venueProbabilityAbove(paths, endStep, record.ref_prices[0]), 4),
      );
      expect(record.current_outcome).toBe(daily.currentPrice > record.ref_prices[0] ? 1 : 0);
    }
  });

  it("hit/daily levels are touch probabilities over [0, step(end)] toward the level", () => {
    const records = buildRangeFamilyRecords(daily, "hit");
    expect(records.length).toBe(10);
    expect(records[0].slug).toBe("what-price-will-bitcoin-hit-on-february-26");
    for (const record of records) {
      const [level] = record.ref_prices;
      expect(record.cmp_type).toBe("hit");
      expect(record.title).toMatch(/^[↑↓] /);
      const expected = touchProbability(
        paths,
        level,
        hitDirection(level, daily.currentPrice),
        0,
        endStep,
      );
      expect(record.model_probability).toBe(roundTo(expected, 4));
    }
  });

  it("a hit level already reached since the event start is YES now, and its book sits near 1", () => {
    // Find, over several days, a level the minute closes have already reached.
    const reached = [0, 1, 2, 3, 4, 5, 6]
      .flatMap((day) => {
        const inputs = syntheticInputs({ nowUnix: NOW_UNIX - day * 86400, pathsPerMiner: 5 });
        return buildRangeFamilyRecords(inputs, "hit");
      })
      .filter((record) => record.current_outcome === 1);
    expect(reached.length).toBeGreaterThan(0);
    for (const record of reached) expect(record.venuea_probability).toBeGreaterThan(0.95);
  });

  it("some range-family markets have no active order book: null book fields, venue probability from the last trade", () => {
    const records = [0, 1, 2, 3, 4, 5, 6].flatMap((day) => {
      const inputs = syntheticInputs({ nowUnix: NOW_UNIX - day * 86400, pathsPerMiner: 5 });
      return [
        ...buildRangeFamilyRecords(inputs, "range"),
        ...buildRangeFamilyRecords(inputs, "above"),
      ];
    });
    const withoutBook = records.filter((record) => record.best_bid_price === null);
    expect(withoutBook.length).toBeGreaterThan(0);
    expect(withoutBook.length).toBeLessThan(records.length / 4);
    for (const record of withoutBook) {
      expect([record.best_bid_size, record.best_ask_price, record.best_ask_size]).toEqual([
        null,
        null,
        null,
      ]);
      const yesPrice =
        record.venuea_last_trade_outcome === 1
          ? record.venuea_last_trade_price
          : roundTo(1 - record.venuea_last_trade_price, 3);
      expect(record.venuea_probability).toBe(yesPrice);
    }
  });

  it("a ladder listed before the market's history is centred on the event's start price", () => {
    const young = {
      ...daily,
      priceAt: (unix: number): number => (unix < startUnix - 86400 ? NaN : daily.priceAt(unix)),
    };
    const records = buildRangeFamilyRecords(young, "range");
    const [lower, upper] = records[6].ref_prices; // its lower bound is the centre boundary
    const startPrice = daily.priceAt(startUnix);
    expect(Math.abs(lower - startPrice)).toBeLessThanOrEqual((upper - lower) / 2);
  });

  it("the earlier range form carries only its six fields, from the same buckets", () => {
    const earlier = buildEarlierRangeRecords(daily);
    const current = buildRangeFamilyRecords(daily, "range");
    expect(earlier.length).toBe(11);
    earlier.forEach((record, index) => {
      expect(Object.keys(record).sort()).toEqual([
        "current_price",
        "event_end_time",
        "model_probability",
        "ref_prices",
        "title",
        "venuea_probability",
      ]);
      expect(record.title).toBe(current[index].title);
      expect(record.model_probability).toBe(current[index].model_probability);
      expect(record.venuea_probability).toBe(current[index].venuea_probability);
    });
  });
});

describe("venue B records", () => {
  it("hourly: five strikes around the hour's start price, each P(S_end ≥ strike)", () => {
    const records = buildVenueBRecords(intraday, "hourly");
    const { startUnix, endUnix } = venueEventWindow("hourly", NOW_UNIX);
    const startPrice = intraday.priceAt(startUnix);
    expect(records.length).toBe(5);
    const strikes = records.map((record) => record.start_price);
    const spacing = strikes[1] - strikes[0];
    expect(Math.abs(strikes[2] - startPrice)).toBeLessThanOrEqual(spacing / 2);
    const paths = rebased(intraday);
    records.forEach((record, index) => {
      if (index > 0) expect(record.start_price - strikes[index - 1]).toBeCloseTo(spacing, 8);
      expect(unixOf(record.event_creation_time)).toBe(startUnix);
      expect(unixOf(record.event_end_time)).toBe(startUnix + 3600);
      expect(record.model_probability_up).toBe(
        roundTo(venueProbabilityUp(paths, endStepOf(intraday, endUnix), record.start_price), 4),
      );
      expect(record.event_outcome_prices).toEqual([
        record.market_probability_up,
        roundTo(1 - (record.market_probability_up as number), 4),
      ]);
      expect(record.market_outcome).toBe(
        (record.market_probability_up as number) >= 0.5 ? "UP" : "DOWN",
      );
    });
    expect(new Set(records.map((record) => record.slug)).size).toBe(5);
  });

  it("daily and 15-minute: one contract struck at the event's start price", () => {
    const dailyRecords = buildVenueBRecords(daily, "daily");
    const quarter = buildVenueBRecords(intraday, "15min");
    expect(dailyRecords.length).toBe(1);
    expect(quarter.length).toBe(1);
    expect(dailyRecords[0].start_price).toBe(
      daily.priceAt(venueEventWindow("daily", NOW_UNIX).startUnix),
    );
    const { startUnix, endUnix } = venueEventWindow("15min", NOW_UNIX);
    expect(quarter[0].start_price).toBe(intraday.priceAt(startUnix));
    expect(unixOf(quarter[0].event_end_time) - unixOf(quarter[0].event_creation_time)).toBe(900);
    expect(unixOf(quarter[0].event_end_time)).toBe(endUnix);
  });
});

describe("venue quotes", () => {
  const request = {
    seed: 42,
    marketKey: "btc-updown-5m-1772063100",
    nowUnix: NOW_UNIX,
    creationUnix: NOW_UNIX - 86400,
    modelProbability: 0.42,
  };

  it("are deterministic from the seed, the market and the minute", () => {
    expect(venueQuote(request)).toEqual(venueQuote({ ...request }));
    expect(venueQuote(request)).toEqual(venueQuote({ ...request, nowUnix: NOW_UNIX - 17 }));
    expect(venueQuote(request)).not.toEqual(venueQuote({ ...request, seed: 43 }));
    expect(hashText("abc")).toBe(hashText("abc"));
    expect(hashText("abc")).not.toBe(hashText("abd"));
  });

  it("stay in probability units with a one- or two-tick book, at any model probability", () => {
    for (const modelProbability of [0, 0.0004, 0.02, 0.3, 0.5, 0.77, 0.985, 1]) {
      for (let market = 0; market < 30; market++) {
        const quote = venueQuote({ ...request, marketKey: `m${market}`, modelProbability });
        expect(quote.bestBidPrice).toBeGreaterThanOrEqual(0.001);
        expect(quote.bestAskPrice).toBeLessThanOrEqual(0.999);
        // One or two ticks of 0.01, or of 0.001 beyond 4 % / 96 %.
        const spread = roundTo(quote.bestAskPrice - quote.bestBidPrice, 6);
        expect([0.001, 0.002, 0.01, 0.02]).toContain(spread);
        expect(quote.bestBidSize).toBeGreaterThan(0);
        expect(quote.lastTradePrice).toBeGreaterThan(0);
        expect(quote.lastTradePrice).toBeLessThan(1);
      }
    }
  });

  it("differ from the model by a persistent bias, so there is an edge to find", () => {
    const differences: number[] = [];
    for (let market = 0; market < 200; market++) {
      const quote = venueQuote({ ...request, marketKey: `edge-${market}`, modelProbability: 0.3 });
      differences.push(quote.probability - 0.3);
    }
    const meanAbsolute = differences.reduce((sum, value) => sum + Math.abs(value), 0) / 200;
    const mean = differences.reduce((sum, value) => sum + value, 0) / 200;
    expect(meanAbsolute).toBeGreaterThan(0.03);
    // The favourite–longshot shrink pulls a 30 % model toward 50 % on average.
    expect(mean).toBeGreaterThan(0);
    // The bias persists across minutes (same market, an hour later), up to the minute noise.
    const later = venueQuote({ ...request, nowUnix: NOW_UNIX + 3600 });
    expect(Math.abs(later.probability - venueQuote(request).probability)).toBeLessThan(0.1);
  });
});
