/**
 * What the chart builders of src/plots derive from their rows, against hand computations: the
 * Brier groups and their counts, CRPS above each prompt's best, calibration totals, the order by
 * median, weights of 0 left off a log scale, and bands a percentiles record lacks.
 */
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../src/core/intervals.ts";
import * as plots from "../../src/plots/index.ts";

/** The inline data of a chart (its top-level `data.values`). */
function valuesOf(chart: plots.Chart): Record<string, unknown>[] {
  return (chart.data as { values: Record<string, unknown>[] }).values;
}

describe("the chart builders' numbers", () => {
  it("brierChart: one pair of bars per event end, the means of its markets, n on the axis", () => {
    const end = Date.UTC(2026, 10, 20, 12) / 1000;
    const chart = plots.brierChart([
      { eventEndUnix: end + 3600, modelBrier: 0.5, venueBrier: 0.1 },
      { eventEndUnix: end, modelBrier: 0.1, venueBrier: 0.2 },
      { eventEndUnix: end, modelBrier: 0.3, venueBrier: 0.4 },
    ]);
    // n = 2: mean ± t(0.975, 1) · s/√2, s = 0.1414: 0.2 ± 12.7062 · 0.1 (the low end floored at 0)
    const t1 = 12.706204736174694;
    const rows = valuesOf(chart);
    expect(rows.map(({ low: _low, high: _high, ...rest }) => rest)).toEqual([
      { group: "11-20 12:00 · n = 2", forecaster: "model", brier: 0.2 },
      { group: "11-20 12:00 · n = 2", forecaster: "venue", brier: (0.2 + 0.4) / 2 },
      { group: "11-20 13:00 · n = 1", forecaster: "model", brier: 0.5 },
      { group: "11-20 13:00 · n = 1", forecaster: "venue", brier: 0.1 },
    ]);
    expect(rows[0].low).toBe(0);
    expect(rows[0].high as number).toBeCloseTo(0.2 + t1 * 0.1, 8);
    expect(rows[1].high as number).toBeCloseTo(0.3 + t1 * 0.1, 8);
    // one market has no interval
    expect("low" in rows[2] || "high" in rows[3]).toBe(false);
    // groups of markets, not a series: bars and their intervals, no line
    const marks = (chart.layer as { mark: string | { type: string } }[]).map((layer) =>
      typeof layer.mark === "string" ? layer.mark : layer.mark.type,
    );
    expect(marks).toEqual(["bar", "rule"]);
    expect(plots.brierChart([]).title).toMatch(/^No resolved market/);
  });

  it("excessCrpsChart: each CRPS minus its prompt's best, forecasters by median excess", () => {
    const scores = [
      { forecaster: "a", startUnix: 0, crps: 10 },
      { forecaster: "b", startUnix: 0, crps: 12 },
      { forecaster: "a", startUnix: 60, crps: 30 },
      { forecaster: "b", startUnix: 60, crps: 20 },
      { forecaster: "a", startUnix: 120, crps: 9 },
      { forecaster: "b", startUnix: 120, crps: 8 },
    ];
    const chart = plots.excessCrpsChart({ prompts: "BTC 1h", scores, highlight: "b" });
    expect(valuesOf(chart).map((row) => [row.forecaster, row.excess, row.kind])).toEqual([
      ["a", 0, "miner"],
      ["b", 2, "b"],
      ["a", 10, "miner"],
      ["b", 0, "b"],
      ["a", 1, "miner"],
      ["b", 0, "b"],
    ]);
    // medians of the excess: a 1, b 0
    const x = (chart.encoding as { x: { sort: string[] } }).x;
    expect(x.sort).toEqual(["b", "a"]);
    expect(chart.title).toContain("3 BTC 1h prompts");
  });

  it("orderByMedian: the median of an even count is the mean of the middle two", () => {
    const rows = [
      { forecaster: "a", value: 1 },
      { forecaster: "a", value: 5 },
      { forecaster: "b", value: 2 },
      { forecaster: "b", value: 3.5 },
    ];
    // medians: a 3, b 2.75
    expect(plots.orderByMedian(rows, (row) => row.value)).toEqual(["b", "a"]);
  });

  it("calibrationTotals and pitChart: counts summed over prompts, densities that average 1", () => {
    const totals = plots.calibrationTotals([
      { forecaster: "a", pit: [1, 3], levels: [0.5], covered: [2], observed: 4 },
      { forecaster: "b", pit: [2, 2], levels: [0.5], covered: [1], observed: 4 },
      { forecaster: "a", pit: [2, 2], levels: [0.5], covered: [3], observed: 4 },
    ]);
    expect(totals).toEqual([
      { forecaster: "a", pit: [3, 5], levels: [0.5], covered: [5], observed: 8, prompts: 2 },
      { forecaster: "b", pit: [2, 2], levels: [0.5], covered: [1], observed: 4, prompts: 1 },
    ]);
    const pit = valuesOf(plots.pitChart({ totals }));
    // 2 bins over 2 prompts: a bin's density is 1 ± 1.96 √(1/2), floored at 0
    const band = { bandLow: 0, bandHigh: 1 + 1.959963984540054 * Math.sqrt(0.5) };
    expect(pit.filter((row) => row.forecaster === "a")).toEqual([
      { forecaster: "a", bin: 0.25, density: (3 / 8) * 2, binLow: 0, binHigh: 0.5, ...band },
      { forecaster: "a", bin: 0.75, density: (5 / 8) * 2, binLow: 0.5, binHigh: 1, ...band },
    ]);
    const coverage = plots.coverageChart({ totals }).layer as { data?: { values: unknown[] } }[];
    // Wilson intervals over the prompts (2 and 1), as wilsonInterval computes them
    expect(coverage[1].data!.values).toEqual([
      {
        forecaster: "a",
        nominal: 0.5,
        observed: 5 / 8,
        low: wilsonInterval(5 / 8, 2)[0],
        high: wilsonInterval(5 / 8, 2)[1],
      },
      {
        forecaster: "b",
        nominal: 0.5,
        observed: 1 / 4,
        low: wilsonInterval(1 / 4, 1)[0],
        high: wilsonInterval(1 / 4, 1)[1],
      },
    ]);
    expect(coverage[2].data!.values).toBe(coverage[1].data!.values);
  });

  it("pitChart and coverageChart: a forecaster without an observed point is left out, no NaN", () => {
    const totals = [
      { forecaster: "a", pit: [1, 1], levels: [0.5], covered: [1], observed: 2 },
      { forecaster: "b", pit: [0, 0], levels: [0.5], covered: [0], observed: 0 },
    ];
    const pit = plots.pitChart({ totals });
    expect(valuesOf(pit).map((row) => row.forecaster)).toEqual(["a", "a"]);
    // rows without `prompts` count as one prompt each: a band of 1 ± 1.96, floored at 0
    expect(valuesOf(pit)[0]).toMatchObject({ bandLow: 0, bandHigh: 1 + 1.959963984540054 });
    expect(valuesOf(pit).flatMap(Object.values).filter(Number.isNaN)).toEqual([]);
    const coverage = plots.coverageChart({ totals });
    const layers = coverage.layer as { data: { values: Record<string, unknown>[] } }[];
    const [low, high] = wilsonInterval(0.5, 1);
    expect(layers[1].data.values).toEqual([
      { forecaster: "a", nominal: 0.5, observed: 0.5, low, high },
    ]);
    expect(JSON.stringify(coverage)).not.toContain("null");
  });

  it("optionPricesChart: an expiry after the simulation's end is named in the subtitle, with the days between", () => {
    const strikes = [{ strike: 90_000, call: 1500, put: 300 }];
    const beyond = plots.optionPricesChart({
      ...{ asset: "BTC", expiry: "2026-12-25T08:00:00Z", strikes },
      ...{ simulatedUntil: "2026-11-22T08:00:00Z", horizon: "24h" },
    });
    // 2026-11-22T08:00 to 2026-12-25T08:00: 33 days
    expect(beyond.title).toEqual({
      text: "BTC: option prices for expiry 2026-12-25T08:00:00Z",
      subtitle:
        "priced from the 24h terminal distribution: the simulation ends 33.0 days before the expiry",
    });
    const within = plots.optionPricesChart({
      ...{ asset: "BTC", expiry: "2026-11-22T08:00:00Z", strikes },
      ...{ simulatedUntil: "2026-11-22T08:00:00Z", horizon: "24h" },
    });
    expect(within.title).toBe("BTC: option prices for expiry 2026-11-22T08:00:00Z");
    // no implied volatility: one panel; with some, a second panel of the strikes that have one
    expect(within.vconcat).toBeUndefined();
    const smile = plots.optionPricesChart({
      asset: "BTC",
      expiry: "2026-11-22T08:00:00Z",
      strikes: [
        { strike: 88_000, call: 2100, put: 100, impliedVolatility: 0.55 },
        { strike: 90_000, call: 1500, put: 300, impliedVolatility: Number.NaN },
      ],
    });
    const panels = smile.vconcat as { data: { values: { strike: number }[] } }[];
    expect(panels[1].data.values.map((row) => row.strike)).toEqual([88_000]);
  });

  it("rewardWeightsChart: weights of 0 are not drawn on the log scale, and the subtitle counts them", () => {
    const chart = plots.rewardWeightsChart({
      competition: "crypto-24h",
      miners: [
        { miner: 1, reward: 0.5, serviceReward: 0.5 },
        { miner: 2, reward: 0, serviceReward: null },
      ],
    });
    expect(valuesOf(chart)).toEqual([
      { miner: "1", source: "service", reward: 0.5 },
      { miner: "1", source: "recomputed", reward: 0.5 },
    ]);
    expect(chart.title).toMatchObject({
      subtitle: "1 weights of 0 not drawn (a log scale has no 0)",
    });
  });

  it("percentileFanChart: a band whose percentiles the record lacks is left out, legend too", () => {
    const step = { "0.05": 90, "0.2": 95, "0.5": 100, "0.8": 105, "0.95": 110 };
    const chart = plots.percentileFanChart({
      asset: "ETH",
      startUnix: 0,
      timeIncrement: 300,
      percentiles: [step, step],
    });
    const layers = chart.layer as {
      encoding: { color: { datum: string; scale: { domain: string[] } } };
    }[];
    expect(layers.map((layer) => layer.encoding.color.datum)).toEqual([
      "90% band",
      "60% band",
      "median",
    ]);
    expect(layers[0].encoding.color.scale.domain).toEqual(["90% band", "60% band", "median"]);
    expect(valuesOf(chart)[1]).toMatchObject({
      time: "1970-01-01T00:05:00Z",
      p0_05: 90,
      realized: null,
    });
  });

  it("backtestOverTimeChart: the model and the field's median at each update, the estimate as given", () => {
    const updates = [
      { updatedUnix: 0, rank: 3, of: 11, rewardWeight: 0.02, medianRewardWeight: 0.001 },
      { updatedUnix: 600, rank: 1, of: 12, rewardWeight: 0.5, medianRewardWeight: 0 },
    ];
    const chart = plots.backtestOverTimeChart({
      competition: "crypto-1h",
      updates,
      usdPerWeight: 100,
    });
    expect(valuesOf(chart)).toEqual([
      { time: "1970-01-01T00:00:00Z", series: "your model", rank: 3, weight: 0.02, usd: 2 },
      {
        time: "1970-01-01T00:00:00Z",
        series: "the field's median miner",
        rank: 6,
        weight: 0.001,
        usd: 0.1,
      },
      { time: "1970-01-01T00:10:00Z", series: "your model", rank: 1, weight: 0.5, usd: 50 },
      {
        time: "1970-01-01T00:10:00Z",
        series: "the field's median miner",
        rank: 6.5,
        weight: 0,
        usd: 0,
      },
    ]);
    const panels = chart.vconcat as { transform: { filter: string }[] }[];
    expect(panels).toHaveLength(3);
    // the median's weight of 0 is left off the log scale
    expect(panels[1].transform).toEqual([{ filter: "datum.weight > 0" }]);
    // without a pool, no estimate and no earnings panel
    const none = plots.backtestOverTimeChart({
      competition: "crypto-1h",
      updates,
      usdPerWeight: null,
    });
    expect(valuesOf(none).map((row) => row.usd)).toEqual([null, null, null, null]);
    expect(none.vconcat as unknown[]).toHaveLength(2);
  });
});
