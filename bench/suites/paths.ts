/**
 * Path sets: JSON body → PathSet, pooling an ensemble, the step-major transpose, an Arrow IPC
 * round trip; beside naive JS and numpy.
 */

import { tableFromIPC, tableToIPC } from "apache-arrow";
import { transpose } from "../../src/core/transpose.ts";
import { pathSetFromArrow, toArrowTable } from "../../src/paths/arrow.ts";
import { ensembleOf } from "../../src/paths/ensemble.ts";
import { pathSetFromPrediction } from "../../src/paths/fromPrediction.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import type { PredictionSet } from "../../src/domain/records/prediction-set.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, TIME_INCREMENT } from "../harness.ts";

const PROMPT = { asset: "BTC", timeIncrement: TIME_INCREMENT, timeLength: 86400 };

/** Naive JS: flatten, then check every price with a callback. */
function pathSetNaive(record: PredictionSet): Float64Array {
  if (
    record.predictions.length !== PATHS_PER_MINER ||
    record.predictions.some((path) => path.length !== POINTS)
  ) {
    throw new Error("bad shape");
  }
  const values = Float64Array.from(record.predictions.flat());
  if (!values.every((price) => Number.isFinite(price) && price > 0)) throw new Error("bad price");
  return values;
}

/** Square 32 × 32 cache tiles: the textbook blocked transpose (measured slower here). */
function transposeTiled(
  values: Float64Array,
  rows: number,
  columns: number,
  out: Float64Array,
): Float64Array {
  for (let rowStart = 0; rowStart < rows; rowStart += 32) {
    const rowEnd = Math.min(rows, rowStart + 32);
    for (let columnStart = 0; columnStart < columns; columnStart += 32) {
      const columnEnd = Math.min(columns, columnStart + 32);
      for (let row = rowStart; row < rowEnd; row++) {
        for (let column = columnStart; column < columnEnd; column++)
          out[column * rows + row] = values[row * columns + column];
      }
    }
  }
  return out;
}

export const suite = defineSuite({
  name: "paths",
  cases: (data) => {
    const record = (JSON.parse(data.predictionJson) as PredictionSet[])[0];
    const pathSets: PathSet[] = data.miners.map((values, index) => ({
      asset: "BTC",
      minerUid: index,
      startTime: 1772063100,
      timeIncrement: TIME_INCREMENT,
      nPaths: PATHS_PER_MINER,
      nPoints: POINTS,
      values,
    }));
    const rows = MINERS * PATHS_PER_MINER;
    const out = new Float64Array(rows * POINTS);
    const currentPrice = 68250;
    return [
      {
        name: "JSON body → PathSet, JSON.parse included",
        size: `1,000 × 289 (${(data.predictionJson.length / 1e6).toFixed(1)} MB)`,
        pathlab: () =>
          pathSetFromPrediction((JSON.parse(data.predictionJson) as PredictionSet[])[0], PROMPT),
        naive: () => pathSetNaive((JSON.parse(data.predictionJson) as PredictionSet[])[0]),
        peer: { script: "paths", case: "json_to_array" },
        targetMs: 25,
      },
      {
        name: "  parsed record → PathSet (JSON.parse excluded)",
        size: "1,000 × 289",
        pathlab: () => pathSetFromPrediction(record, PROMPT),
        naive: () => pathSetNaive(record),
        peer: { script: "paths", case: "lists_to_array" },
      },
      {
        name: "ensembleOf, additive re-basing",
        size: "10 × 1,000 × 289",
        pathlab: () => ensembleOf(pathSets, { rebaseTo: currentPrice }),
        naive: () =>
          pathSets.flatMap((pathSet) =>
            Array.from({ length: pathSet.nPaths }, (_, path) => {
              const row = Array.from(pathSet.values.subarray(path * POINTS, (path + 1) * POINTS));
              return row.map((price) => price - row[0] + currentPrice);
            }),
          ),
        peer: { script: "paths", case: "ensemble" },
      },
      {
        name: "transpose to step-major",
        size: "10,000 × 289",
        pathlab: () => transpose(data.pooled, rows, POINTS, out),
        naive: () => {
          for (let column = 0; column < POINTS; column++) {
            for (let row = 0; row < rows; row++)
              out[column * rows + row] = data.pooled[row * POINTS + column];
          }
          return out;
        },
        peer: { script: "paths", case: "transpose" },
        note: "naive = column-outer loop",
      },
      {
        name: "  variant: 32 × 32 tiled transpose",
        size: "10,000 × 289",
        pathlab: () => transposeTiled(data.pooled, rows, POINTS, out),
        note: "not used",
      },
      {
        name: "Arrow IPC round trip (toArrowTable → IPC → pathSetFromArrow)",
        size: "1,000 × 289",
        pathlab: () => pathSetFromArrow(tableFromIPC(tableToIPC(toArrowTable(pathSets[0])))),
        note: "no numpy peer (pyarrow absent)",
      },
    ];
  },
});
