/**
 * Every chart of src/plots built from small sample rows of the shapes the notebooks query, for the
 * tests of test/plots. Deterministic: the rows come from a seeded generator.
 */
import * as plots from "../../src/plots/index.ts";

/** A seeded uniform generator (mulberry32). */
function uniform(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = uniform(7);
const START = Date.UTC(2026, 10, 20, 10) / 1000;
const LEVELS = ["0.005", "0.05", "0.2", "0.35", "0.5", "0.65", "0.8", "0.95", "0.995"];
const Z = [-2.576, -1.645, -0.842, -0.385, 0, 0.385, 0.842, 1.645, 2.576];
const forecasters = [
  "candidate",
  ...Array.from({ length: 5 }, (_, index) => `miner ${index * 7 + 3}`),
];

/** The sample charts, by name (the builder's). */
export function sampleCharts(): Record<string, plots.Chart> {
  const percentiles = Array.from({ length: 25 }, (_, step) =>
    Object.fromEntries(
      LEVELS.map((level, index) => [level, 90000 * (1 + Z[index] * 0.002 * Math.sqrt(step))]),
    ),
  );
  const scores = forecasters.flatMap((forecaster, index) =>
    Array.from({ length: 8 }, (_, prompt) => ({
      forecaster,
      startUnix: START + prompt * 3600,
      crps: 40 + 3 * index + 10 * random(),
    })),
  );
  const totals = plots.calibrationTotals(
    forecasters.map((forecaster) => ({
      forecaster,
      pit: Array.from({ length: 10 }, () => Math.round(50 + 20 * random())),
      levels: [0.5, 0.8, 0.9, 0.98],
      covered: [300, 480, 540, 590],
      observed: 600,
    })),
  );
  return {
    percentileFanChart: plots.percentileFanChart({
      asset: "BTC",
      startUnix: START,
      timeIncrement: 3600,
      percentiles,
      realized: percentiles.map((step, index) =>
        index < 20 ? step["0.5"] * (1 + 0.001 * random()) : null,
      ),
    }),
    liquidationChart: plots.liquidationChart({
      asset: "BTC",
      startUnix: START,
      scenarios: ["-10%", "-5%", "5%", "10%"].map((move) => ({
        price_change: move,
        long_liquidation_probability: { "6": random(), "12": random(), "24": random() },
        short_liquidation_probability: { "6": random(), "12": random(), "24": random() },
      })),
    }),
    lpRangesChart: plots.lpRangesChart({
      asset: "BTC",
      startUnix: START,
      horizon: "24h",
      ranges: [1, 2, 4, 8].map((width) => ({
        width,
        inRange: Math.min(1, width / 8),
        neverLeaves: Math.min(1, width / 10),
        impermanentLoss: 0.01 / width,
      })),
    }),
    optionPricesChart: plots.optionPricesChart({
      asset: "BTC",
      expiry: "2026-11-21T08:00:00Z",
      strikes: [88000, 90000, 92000].map((strike) => ({
        strike,
        call: Math.max(0, 90000 - strike) + 500,
        put: Math.max(0, strike - 90000) + 500,
        impliedVolatility: 0.5 + Math.abs(strike - 90000) / 40000,
      })),
    }),
    crosscheckChart: plots.crosscheckChart(
      ["liquidation", "lp-bounds"].flatMap((operation) =>
        ["BTC 24h", "ETH 1h"].map((unit, index) => ({
          operation,
          unit,
          worst: index === 0 ? "exact" : "within-mc",
          numbers: 96,
          exact: 96 - 10 * index,
        })),
      ),
    ),
    venueScatterChart: plots.venueScatterChart(
      Array.from({ length: 12 }, (_, index) => ({
        family: index % 2 === 0 ? "venuea/up-down/daily" : "venueb/hourly",
        asset: index % 3 === 0 ? "ETH" : "BTC",
        model: random(),
        venue: random(),
      })),
    ),
    edgeHistogramChart: plots.edgeHistogramChart(
      Array.from({ length: 30 }, (_, index) => ({
        family: index % 2 === 0 ? "venuea/above/daily" : "venueb/daily",
        edge: random() * 0.2 - 0.1,
        beyondSpread: index % 2 === 0,
        tradable: index % 4 === 0,
      })),
    ),
    edgeErrorChart: plots.edgeErrorChart(
      Array.from({ length: 12 }, (_, index) => ({
        market: `BTC >${70000 + 500 * index}`,
        netEdge: 0.1 - 0.008 * index,
        standardError: 0.01 + 0.003 * index,
        tradable: 0.1 - 0.008 * index > 2 * (0.01 + 0.003 * index),
      })),
    ),
    brierChart: plots.brierChart(
      Array.from({ length: 9 }, (_, index) => ({
        eventEndUnix: START + (index % 3) * 3600,
        modelBrier: random() * 0.3,
        venueBrier: random() * 0.3,
      })),
    ),
    rewardWeightsChart: plots.rewardWeightsChart({
      competition: "crypto-24h",
      miners: [150, 47, 202, 9, 31].map((miner, index) => ({
        miner,
        reward: 0.3 / 10 ** index,
        serviceReward: index === 4 ? 0 : 0.3 / 10 ** index,
      })),
    }),
    rankOverTimeChart: plots.rankOverTimeChart({
      competition: "crypto-1h",
      miners: ["150", "47", "202"],
      points: Array.from({ length: 4 }, (_, update) =>
        ["150", "47", "202"].map((miner, index) => ({
          time: new Date((START + update * 720) * 1000).toISOString(),
          miner,
          rank: ((index + update) % 3) + 1,
          reward: 0.2 / (((index + update) % 3) + 1),
        })),
      ).flat(),
    }),
    crpsParityChart: plots.crpsParityChart(
      Array.from({ length: 10 }, (_, index) => {
        const crps = 100 + 50 * random();
        return {
          asset: index % 2 === 0 ? "BTC" : "ETH",
          horizon: index < 5 ? "24h" : "1h",
          crps,
          serviceCrps: crps,
        };
      }),
    ),
    crpsByHourChart: plots.crpsByHourChart(
      ["BTC 1h", "ETH 24h"].flatMap((unit) =>
        [3, 9, 15].map((hour) => ({
          unit,
          hour,
          relative: 0.8 + 0.4 * random(),
          prompts: 1 + hour,
        })),
      ),
    ),
    excessCrpsChart: plots.excessCrpsChart({ prompts: "BTC 1h", scores, highlight: "candidate" }),
    pitChart: plots.pitChart({
      totals,
      order: plots.orderByMedian(scores, (row) => row.crps),
      highlight: "candidate",
    }),
    coverageChart: plots.coverageChart({
      totals,
      order: plots.orderByMedian(scores, (row) => row.crps),
    }),
    candidateRankChart: plots.candidateRankChart({
      prompts: "BTC 1h",
      ranks: Array.from({ length: 8 }, (_, prompt) => ({
        startUnix: START + prompt * 3600,
        rank: 1 + Math.floor(random() * 6),
        of: 6,
      })),
    }),
    backtestOverTimeChart: plots.backtestOverTimeChart({
      competition: "crypto-1h",
      updates: Array.from({ length: 8 }, (_, update) => ({
        updatedUnix: START + update * 3600,
        rank: 1 + Math.floor(random() * 10),
        of: 11,
        rewardWeight: 10 ** (-1 - 4 * random()),
        medianRewardWeight: 10 ** (-2 - 2 * random()),
      })),
      usdPerWeight: 10_000 * 0.6935,
    }),
    medianExcessChart: plots.medianExcessChart({
      prompts: "BTC 1h",
      rows: Array.from({ length: 8 }, (_, prompt) => ({
        startUnix: START + prompt * 3600,
        excess: random() * 10 - 5,
        miners: 10,
      })),
    }),
  };
}
