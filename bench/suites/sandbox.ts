/**
 * The sandbox's own work per prediction set and ensemble: its one large body, prediction sets as
 * JSON (`/v2/prediction/*`), written by `predictionSetJson` byte by byte, beside the readable
 * `JSON.stringify` of nested arrays; a miner's set simulated (`simulatePricePaths`), beside the
 * same walk rounding each price by a call inside the loop; a column of an ensemble sorted
 * (`sortAscending`), beside `Float64Array.prototype.sort`; the world's validator's CRPS of one
 * miner's 24h prompt (`validatorPromptCrps`), beside `promptCrps` of `src/reference/` on the same
 * paths as nested arrays. The issue's target for
 * `/v2/prediction/latest` (10 miners, ≤ 1 s) is end to end: the world's generation of the paths
 * and the HTTP transfer come on top of what is timed here.
 */

import { predictionSetJson } from "../../src/sandbox/server/predictionSetJson.ts";
import { sortAscending } from "../../src/sandbox/insights/sortAscending.ts";
import { promptCrps } from "../../src/reference/promptCrps.ts";
import { pathRows } from "../../src/sandbox/world/pathRows.ts";
import { validatorPromptCrps } from "../../src/sandbox/world/validatorCrps.ts";
import { SCORING_INTERVALS_24H } from "../../src/domain/intervals.ts";
import { simulatePricePaths, type PathModel } from "../../src/sandbox/world/pathSimulation.ts";
import { RandomStream } from "../../src/sandbox/world/randomStream.ts";
import { roundToSignificantDigits } from "../../src/domain/priceFormat.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

/** A 24h set of normal shocks, as most of the world's miners send. */
const MODEL: PathModel = {
  startPrice: 80000,
  annualVolatility: 0.5,
  annualDrift: 0,
  tailDegrees: 0,
  jumpsPerDay: 0.5,
  jumpSize: 0.008,
  stepMinutes: 5,
  pathCount: PATHS_PER_MINER,
  pointCount: POINTS,
  significantDigits: 8,
};

/** The walk of `simulatePricePaths` with each price rounded by a call inside the loop. */
function simulateRoundingInLoop(model: PathModel, stream: RandomStream): Float64Array {
  const { pathCount, pointCount } = model;
  const stepYears = model.stepMinutes / 525600;
  const meanStep = (model.annualDrift - model.annualVolatility ** 2 / 2) * stepYears;
  const stepDeviation = model.annualVolatility * Math.sqrt(stepYears);
  const jumpsPerPath = (model.jumpsPerDay * model.stepMinutes * (pointCount - 1)) / 1440;
  const values = new Float64Array(pathCount * pointCount);
  const jumps = new Float64Array(pointCount);
  for (let path = 0; path < pathCount; path++) {
    const jumpCount = stream.poisson(jumpsPerPath);
    for (let index = 0; index < jumpCount; index++) {
      jumps[1 + stream.integer(pointCount - 1)] += model.jumpSize * stream.normal();
    }
    let price = model.startPrice;
    values[path * pointCount] = roundToSignificantDigits(price, model.significantDigits);
    for (let point = 1; point < pointCount; point++) {
      price *= Math.exp(meanStep + stepDeviation * stream.normal() + jumps[point]);
      values[path * pointCount + point] = roundToSignificantDigits(price, model.significantDigits);
    }
    jumps.fill(0);
  }
  return values;
}

const START_TIME = 1772063100;

/** The readable form: nested arrays from the path-major prices, then JSON.stringify. */
function predictionSetNaive(minerUid: number, values: Float64Array): Buffer {
  const predictions: number[][] = [];
  for (let path = 0; path < PATHS_PER_MINER; path++) {
    predictions.push(Array.from(values.subarray(path * POINTS, (path + 1) * POINTS)));
  }
  return Buffer.from(JSON.stringify({ miner_uid: minerUid, start_time: START_TIME, predictions }));
}

export const suite = defineSuite({
  name: "sandbox",
  cases: (data) => {
    const nested = data.miners.map((values) =>
      Array.from({ length: PATHS_PER_MINER }, (_, path) =>
        Array.from(values.subarray(path * POINTS, (path + 1) * POINTS)),
      ),
    );
    const terminal = Float64Array.from(
      { length: MINERS * PATHS_PER_MINER },
      (_, path) => data.pooled[path * POINTS + POINTS - 1],
    );
    const column = new Float64Array(terminal.length);
    const realized = Array.from(data.realized);
    const unsorted = () => {
      column.set(terminal);
      return column;
    };
    return [
      {
        name: "simulatePricePaths (one 24h set, normal shocks)",
        size: `${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () => simulatePricePaths(MODEL, new RandomStream(7)),
        naive: () => simulateRoundingInLoop(MODEL, new RandomStream(7)),
        peer: { script: "sandbox", case: "simulate" },
        note: "naive: the price rounded in the loop; numpy: a GBM without jumps, cumsum of logs",
      },
      {
        name: "sortAscending (a column of 10,000 prices)",
        size: terminal.length.toLocaleString("en"),
        pathlab: () => sortAscending(unsorted()),
        naive: () => unsorted().sort(),
        peer: { script: "sandbox", case: "sort_column" },
        note: "naive: Float64Array.prototype.sort",
      },
      {
        name: "validatorPromptCrps (one miner's 24h prompt)",
        size: `${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () =>
          validatorPromptCrps(
            { values: data.miner0, pathCount: PATHS_PER_MINER, pointCount: POINTS },
            realized,
            300,
            SCORING_INTERVALS_24H,
          ),
        naive: () =>
          promptCrps(
            pathRows(data.miner0, PATHS_PER_MINER, POINTS),
            realized,
            300,
            SCORING_INTERVALS_24H,
          ),
        peer: { script: "crps", case: "validator_24h" },
        note: "naive: reference promptCrps on nested arrays; numpy: the sorted closed form",
      },
      {
        name: "predictionSetJson (one prediction set)",
        size: `${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () => predictionSetJson(17, START_TIME, data.miner0, PATHS_PER_MINER, POINTS),
        naive: () => predictionSetNaive(17, data.miner0),
      },
      {
        name: "/v2/prediction/latest body (10 sets, uncached)",
        size: `${MINERS} × ${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () =>
          data.miners.map((values, uid) =>
            predictionSetJson(uid, START_TIME, values, PATHS_PER_MINER, POINTS),
          ),
        naive: () => data.miners.map((values, uid) => predictionSetNaive(uid, values)),
        targetMs: 1000,
        note: "target is end to end (+ world generation, HTTP)",
      },
      {
        name: "  variant: JSON.stringify of ready nested arrays (10 sets)",
        size: `${MINERS} × ${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () =>
          nested.map((predictions, uid) =>
            Buffer.from(JSON.stringify({ miner_uid: uid, start_time: START_TIME, predictions })),
          ),
        note: "not used: the world's paths are Float64Arrays",
      },
    ] satisfies BenchCase[];
  },
});
