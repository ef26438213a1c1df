import { describe, expect, it } from "vitest";
import { InvalidParamsError } from "../../src/domain/errors.ts";
import { operationTable } from "../../src/domain/operations.ts";
import { encodeQuery, type QueryTarget } from "../../src/domain/query.ts";

const { insights, venueA, predictions, leaderboard, validation } = operationTable;

/** The InvalidParamsError of encoding `params`, or a failure if none is thrown. */
function invalid(operation: QueryTarget, params: unknown): InvalidParamsError {
  try {
    encodeQuery(operation, params as never);
  } catch (error) {
    if (error instanceof InvalidParamsError) return error;
    throw error;
  }
  throw new Error(`${operation.path}: encodeQuery accepted ${JSON.stringify(params)}`);
}

describe("encodeQuery sends", () => {
  it("encodeQuery sends only the given parameters, in the operation's order", () => {
    expect(encodeQuery(insights.liquidation, {}).toString()).toBe("");
    expect(
      encodeQuery(insights.liquidation, {
        horizon: "1h",
        asset: "ETH",
        start_time: undefined,
      }).toString(),
    ).toBe("asset=ETH&horizon=1h");
  });

  it("encodeQuery repeats miner once per uid", () => {
    const query = encodeQuery(predictions.latest, {
      asset: "BTC",
      time_increment: 300,
      time_length: 86400,
      miner: [47, 150, 144],
    });
    expect(query.getAll("miner")).toEqual(["47", "150", "144"]);
    expect(query.toString()).toBe(
      "asset=BTC&time_increment=300&time_length=86400&miner=47&miner=150&miner=144",
    );
  });

  it("encodeQuery serializes Dates as ISO strings and keeps time strings as written", () => {
    const query = encodeQuery(predictions.historical, {
      asset: "SPYX",
      time_increment: 60,
      time_length: 3600,
      miner: [1],
      start_time: new Date(Date.UTC(2026, 1, 25, 23, 45, 0)),
    });
    expect(query.get("start_time")).toBe("2026-02-25T23:45:00.000Z");
    const written = encodeQuery(leaderboard.v2Historical, {
      start_time: "2026-02-25",
      end_time: "2026-02-26T00:00:00+01:00",
    });
    expect(written.toString()).toBe(
      "start_time=2026-02-25&end_time=2026-02-26T00%3A00%3A00%2B01%3A00",
    );
  });

  it("encodeQuery accepts the remapped short symbols and the cross-listed ones on insights", () => {
    expect(encodeQuery(insights.volatility, { asset: "SPY" }).get("asset")).toBe("SPY");
    expect(encodeQuery(insights.volatility, { asset: "SPYX" }).get("asset")).toBe("SPYX");
    expect(encodeQuery(venueA.upDownFifteenMinute, { asset: "HYPE" }).get("asset")).toBe("HYPE");
  });
});

describe("encodeQuery rejects", () => {
  it("an unknown parameter, naming the known ones", () => {
    const error = invalid(insights.liquidation, { asset: "BTC", window: "6h" });
    expect(error.message).toBe(
      '/insights/liquidation: parameter "window": expected no such parameter; known: asset, horizon, start_time, days, limit, got "6h"',
    );
    expect(error).toMatchObject({
      name: "InvalidParamsError",
      operation: "/insights/liquidation",
      param: "window",
    });
    expect(invalid(leaderboard.latest, { prompt_name: "low" }).expected).toBe(
      "no parameters (this operation takes none)",
    );
  });

  it("a missing required parameter, and an empty repeated one", () => {
    expect(invalid(predictions.best, { asset: "BTC", time_increment: 300 }).message).toBe(
      '/v2/prediction/best: parameter "time_length": expected one of 86400, 3600 (required), got missing',
    );
    const params = { asset: "BTC", time_increment: 300, time_length: 86400 };
    expect(invalid(predictions.latest, params).param).toBe("miner");
    expect(invalid(predictions.latest, { ...params, miner: [] }).message).toBe(
      '/v2/prediction/latest: parameter "miner": expected at least one integer ≥ 0, got array(0)',
    );
    expect(invalid(validation.miner, { uid: null }).got).toBe("missing");
  });

  it("wrong types: non-integers, numbers as strings, single values for repeated parameters", () => {
    expect(invalid(validation.miner, { uid: 4.5 }).message).toBe(
      '/validation/miner: parameter "uid": expected integer ≥ 0, got 4.5',
    );
    expect(invalid(validation.miner, { uid: "4" }).got).toBe('"4"');
    expect(invalid(validation.miner, { uid: -1 }).expected).toBe("integer ≥ 0");
    const params = { asset: "BTC", time_increment: 300, time_length: 86400 };
    expect(invalid(predictions.latest, { ...params, miner: 47 }).expected).toBe(
      "array of integer ≥ 0",
    );
    expect(invalid(predictions.latest, { ...params, miner: [1, 2.5] }).message).toBe(
      '/v2/prediction/latest: parameter "miner": expected integer ≥ 0, got 2.5 (element 1)',
    );
    expect(invalid(insights.liquidation, { asset: 1 }).expected).toMatch(
      /^string, one of BTC, ETH/,
    );
    expect(invalid(insights.liquidation, { days: 0 }).expected).toBe("integer ≥ 1");
  });

  it("unparsable times and invalid Dates", () => {
    expect(invalid(insights.volatility, { start_time: "25/02/2026" }).message).toMatch(
      /^\/insights\/volatility: parameter "start_time": expected ISO 8601 time .* or a valid Date, got "25\/02\/2026"$/,
    );
    expect(invalid(insights.volatility, { start_time: new Date("nope") }).got).toBe(
      "Date(invalid)",
    );
    expect(invalid(insights.volatility, { start_time: 1772063117 }).param).toBe("start_time");
  });

  it("values the operation does not allow: XAU on option pricing, horizon 2h, HYPE on venue B 15min", () => {
    const xau = invalid(insights.optionPricing, { asset: "XAU" });
    expect(xau.message).toBe(
      '/insights/option-pricing: parameter "asset": expected one of BTC, ETH, SOL, SPY, NVDA, GOOGL, TSLA, AAPL, SPCX, XRP, HYPE, WTIOIL, SPYX, NVDAX, GOOGLX, TSLAX, AAPLX, got "XAU"',
    );
    expect(invalid(insights.liquidation, { horizon: "2h" }).message).toBe(
      '/insights/liquidation: parameter "horizon": expected one of 1h, 24h, got "2h"',
    );
    expect(invalid(operationTable.venueB.fifteenMinute, { asset: "HYPE" }).param).toBe("asset");
    expect(
      invalid(predictions.best, { asset: "SPY", time_increment: 300, time_length: 86400 }).param,
    ).toBe("asset");
    expect(
      invalid(predictions.best, { asset: "BTC", time_increment: 120, time_length: 86400 }).got,
    ).toBe("120");
    expect(invalid(leaderboard.v2Latest, { prompt_name: "medium" }).param).toBe("prompt_name");
    expect(
      invalid(validation.smoothedScores, {
        from: "2026-02-01",
        to: "2026-02-02",
        competition: "low",
      }).param,
    ).toBe("competition");
  });

  it("assets in the wrong case, suggesting the right one", () => {
    expect(invalid(insights.liquidation, { asset: "btc" }).expected).toMatch(
      /\(did you mean "BTC"\? values are case-sensitive\)$/,
    );
  });
});

describe("encodeQuery range rules", () => {
  it("smoothed scores: to at most 7 days after from, at the limit and just over", () => {
    const base = { from: "2026-02-01T00:00:00Z" };
    expect(
      encodeQuery(validation.smoothedScores, { ...base, to: "2026-02-08T00:00:00Z" }).get("to"),
    ).toBe("2026-02-08T00:00:00Z");
    expect(
      invalid(validation.smoothedScores, { ...base, to: "2026-02-08T00:00:01Z" }).message,
    ).toBe(
      '/validation/smoothed-scores: parameter "to": expected a time at most 7 days after from (2026-02-01T00:00:00Z), got "2026-02-08T00:00:01Z" (7 days after)',
    );
    // Offsets count: 2026-02-08T01:00+02:00 is 2026-02-07T23:00Z, inside the limit.
    expect(() =>
      encodeQuery(validation.smoothedScores, { ...base, to: "2026-02-08T01:00:00+02:00" }),
    ).not.toThrow();
  });

  it("uid holders: to an inclusive UTC day at most 30 days after from", () => {
    const from = new Date(Date.UTC(2026, 0, 1, 18, 0));
    expect(() => encodeQuery(validation.uidHolders, { from, to: "2026-01-31" })).not.toThrow();
    expect(() =>
      encodeQuery(validation.uidHolders, { from, to: "2026-01-31T23:59:59Z" }),
    ).not.toThrow();
    const over = invalid(validation.uidHolders, { from, to: "2026-02-01" });
    expect(over.message).toBe(
      '/validation/uid-holders: parameter "to": expected a UTC day at most 30 days after from (2026-01-01T18:00:00.000Z), inclusive, got "2026-02-01" (31 days after)',
    );
  });

  it("multi-asset minutes: to an inclusive UTC day at most 2 days after from", () => {
    expect(() =>
      encodeQuery(validation.multiAssetMinutes, { from: "2026-02-24", to: "2026-02-26T12:00:00Z" }),
    ).not.toThrow();
    expect(
      invalid(validation.multiAssetMinutes, { from: "2026-02-24", to: "2026-02-27" }).param,
    ).toBe("to");
  });

  it("to before from is rejected, with or without a length limit", () => {
    expect(invalid(validation.uidHolders, { from: "2026-02-02", to: "2026-02-01" }).expected).toBe(
      "a UTC day not before from (2026-02-02)",
    );
    expect(
      invalid(validation.smoothedScores, {
        from: "2026-02-02T10:00:00Z",
        to: "2026-02-02T09:59:59Z",
      }).expected,
    ).toBe("a time not before from (2026-02-02T10:00:00Z)");
    expect(
      invalid(leaderboard.historical, { start_time: "2026-02-02", end_time: "2026-02-01" }).param,
    ).toBe("end_time");
    expect(
      encodeQuery(validation.scoresHistorical, { from: "2026-01-01", to: "2026-12-31" }).toString(),
    ).toBe("from=2026-01-01&to=2026-12-31");
  });
});
