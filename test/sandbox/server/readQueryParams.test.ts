import { describe, expect, it } from "vitest";
import { readQueryParams } from "../../../src/sandbox/server/readQueryParams.ts";
import { InvalidParamsError } from "../../../src/domain/errors.ts";
import { operationTable } from "../../../src/domain/operations.ts";

const read = (operation: Parameters<typeof readQueryParams>[0], query: string) =>
  readQueryParams(operation, new URLSearchParams(query));

describe("readQueryParams", () => {
  it("reads integers, repeated parameters and times", () => {
    expect(
      read(
        operationTable.predictions.historical,
        "asset=ETH&time_increment=60&time_length=3600&miner=3&miner=7&start_time=2026-02-25T23:00:00Z",
      ),
    ).toEqual({
      asset: "ETH",
      time_increment: 60,
      time_length: 3600,
      miner: [3, 7],
      start_time: "2026-02-25T23:00:00Z",
    });
    expect(read(operationTable.insights.liquidation, "")).toEqual({});
  });

  it.each([
    [operationTable.insights.optionPricing, "asset=XAU", 'parameter "asset": expected one of BTC'],
    [operationTable.insights.liquidation, "asset=btc", 'did you mean "BTC"?'],
    [
      operationTable.insights.liquidation,
      "horizon=2h",
      'parameter "horizon": expected one of 1h, 24h, got "2h"',
    ],
    [
      operationTable.insights.liquidation,
      "start_time=yesterday",
      'parameter "start_time": expected ISO 8601',
    ],
    [operationTable.predictions.best, "asset=BTC&time_increment=300", 'parameter "time_length"'],
    [
      operationTable.predictions.latest,
      "asset=BTC&time_increment=300&time_length=86400&miner=x",
      'parameter "miner": expected integer ≥ 0, got "x" (element 0)',
    ],
    [
      operationTable.validation.smoothedScores,
      "from=2026-02-01&to=2026-02-10",
      'parameter "to": expected a time at most 7 days after from',
    ],
    [
      operationTable.validation.uidHolders,
      "from=2026-02-10&to=2026-02-01",
      "expected a UTC day not before from",
    ],
    [
      operationTable.leaderboard.latest,
      "asset=BTC",
      'parameter "asset": expected no parameters (this operation takes none)',
    ],
    [operationTable.leaderboard.v2Latest, "prompt_name=low&prompt_name=high", "expected one value"],
    [operationTable.leaderboard.v2Latest, "limit=5", "no such parameter; known: prompt_name"],
  ])("rejects %s?%s with a message naming the problem", (operation, query, message) => {
    let error: unknown;
    try {
      read(operation, query);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message.startsWith(`${operation.path}: `)).toBe(true);
  });
});
