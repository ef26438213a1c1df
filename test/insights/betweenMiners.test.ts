/**
 * The between-miner standard error of the venue records' model probabilities: equal to the sample
 * standard deviation of the miners' own probabilities over √M, computed here again from the raw
 * path sets with simple-statistics; about the Monte-Carlo error when the miners share one law, and
 * far above it when they do not.
 */

import { sampleStandardDeviation } from "simple-statistics";
import { beforeAll, describe, expect, it } from "vitest";
import { betweenMinerError } from "../../src/insights/betweenMiners.ts";
import type { InsightContext } from "../../src/insights/context.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { rangeModelSides, upDownModelSide } from "../../src/insights/venueA.ts";
import { venueBModelSides } from "../../src/insights/venueB.ts";
import { ensembleOf, type PathSet } from "../../src/paths/index.ts";
import { START_UNIX, gbmPathSets, isoOf } from "./gbmEnsembles.ts";

const START_PRICE = 68000;
const context: InsightContext = {
  asset: "BTC",
  horizon: "24h",
  currentPrice: START_PRICE,
  forecastStartTime: isoOf(START_UNIX),
};

/** The point of a 5-minute path at an ISO time. */
const stepAt = (iso: string) => (Date.parse(iso) / 1000 - START_UNIX) / 300;

/** sd(p_m) / √M of the fractions of each path set's paths for which `holds(path values)`. */
function expectedError(pathSets: readonly PathSet[], holds: (path: Float64Array) => boolean) {
  const fractions = pathSets.map((pathSet) => {
    let hits = 0;
    for (let path = 0; path < pathSet.nPaths; ++path) {
      const start = path * pathSet.nPoints;
      if (holds(pathSet.values.subarray(start, start + pathSet.nPoints))) hits += 1;
    }
    return hits / pathSet.nPaths;
  });
  return sampleStandardDeviation(fractions) / Math.sqrt(fractions.length);
}

describe("betweenMinerError", () => {
  it("is the sample standard deviation of the members' fractions over √M, NaN for one member", () => {
    const members = [
      { minerUid: 1, offset: 0, count: 4 },
      { minerUid: 2, offset: 4, count: 4 },
      { minerUid: 3, offset: 8, count: 4 },
    ];
    // fractions 3/4, 1/4, 0
    const holds = new Set([0, 1, 2, 4]);
    expect(betweenMinerError(members, (path) => holds.has(path))).toBeCloseTo(
      sampleStandardDeviation([0.75, 0.25, 0]) / Math.sqrt(3),
      15,
    );
    expect(betweenMinerError(members.slice(0, 1), () => true)).toBeNaN();
  });
});

describe("the venue records' between-miner errors", () => {
  let alike: PathSet[];
  let session: InsightSession;
  beforeAll(() => {
    alike = gbmPathSets({
      seed: 7,
      startPrice: START_PRICE,
      annualVolatility: 0.6,
      horizon: "24h",
    });
    session = new InsightSession(ensembleOf(alike), context);
  });

  it("match the miners' own probabilities, computed again from their path sets", () => {
    const upDown = upDownModelSide(session, { ...context, startPrice: 68500 }, "daily");
    const upStep = stepAt(upDown.record.event_end_time);
    expect(upDown.betweenMinerErrors?.model_probability_up).toBeCloseTo(
      expectedError(alike, (path) => path[upStep] >= 68500),
      14,
    );

    const venueB = venueBModelSides(
      session,
      { ...context, venueBContracts: [{ startPrice: 67000 }, { startPrice: 69000 }] },
      "daily",
    );
    const venueBStep = stepAt(venueB.record[0].event_end_time);
    [67000, 69000].forEach((strike, index) => {
      expect(venueB.betweenMinerErrors?.[`[${index}].model_probability_up`]).toBeCloseTo(
        expectedError(alike, (path) => path[venueBStep] >= strike),
        14,
      );
    });

    const ranges = rangeModelSides(session, {
      ...context,
      rangeMarkets: [
        { cmpType: "range", refPrices: [66000, 70000] },
        { cmpType: "above", refPrices: [70000] },
        { cmpType: "below", refPrices: [66000] },
        { cmpType: "hit", refPrices: [72000] },
        { cmpType: "hit", refPrices: [64000] },
      ],
    });
    const end = stepAt(ranges.record[0].event_end_time);
    const window = (path: Float64Array) => [...path.subarray(0, end + 1)];
    const events: ((path: Float64Array) => boolean)[] = [
      (path) => path[end] >= 66000 && path[end] <= 70000,
      (path) => path[end] > 70000,
      (path) => path[end] < 66000,
      (path) => Math.max(...window(path)) >= 72000,
      (path) => Math.min(...window(path)) <= 64000,
    ];
    events.forEach((holds, index) => {
      const error = ranges.betweenMinerErrors?.[`[${index}].model_probability`];
      expect(error, `market ${index}`).toBeCloseTo(expectedError(alike, holds), 14);
    });

    // The bridge-corrected touch has no per-path event: its hit markets have none.
    const bridge = rangeModelSides(session, {
      ...context,
      touchEstimate: "bridge",
      rangeMarkets: [{ cmpType: "hit", refPrices: [72000] }],
    });
    expect(bridge.betweenMinerErrors?.["[0].model_probability"]).toBeNaN();
  });

  it("are about the Monte-Carlo error when the miners share one law, and far above it when they disagree", () => {
    const contract = { ...context, venueBContracts: [{ startPrice: 69000 }] };
    const key = "[0].model_probability_up";
    const same = venueBModelSides(session, contract, "daily");
    // sd over 10 members estimates the members' own Monte-Carlo error, √10 times the pooled one,
    // to within ~24 % (one standard error of a sample standard deviation of 10)
    const ratio = same.betweenMinerErrors![key] / same.standardErrors[key];
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(1.6);

    // ten miners from 20 % to 110 % annual volatility
    const disagreeing = Array.from({ length: 10 }, (_, member) =>
      gbmPathSets({
        seed: 100 + member,
        startPrice: START_PRICE,
        annualVolatility: 0.2 + 0.1 * member,
        horizon: "24h",
        members: 1,
      }).map((pathSet) => ({ ...pathSet, minerUid: member })),
    ).flat();
    const apart = venueBModelSides(
      new InsightSession(ensembleOf(disagreeing), context),
      contract,
      "daily",
    );
    expect(apart.betweenMinerErrors![key]).toBeGreaterThan(3 * apart.standardErrors[key]);
  });
});
