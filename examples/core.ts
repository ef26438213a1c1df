// Shown and run in docs/library.md: scripts/docs.mjs checks both, test/readme.test.ts its numbers.
import { stepQuantiles, touchProbabilities } from "pathlab/core";
import type { PredictionSet } from "pathlab/domain";
import { ensembleOf, pathSetFromPrediction, toArrowTable } from "pathlab/paths";

/** Two tiny prediction sets (3 paths × 3 points at 5-minute steps) standing in for real ones. */
export function exampleSets(): PredictionSet[] {
  return [
    {
      miner_uid: 7,
      start_time: 1763683200,
      predictions: [
        [100, 101, 103],
        [100, 99, 97],
        [100, 100, 102],
      ],
    },
    {
      miner_uid: 9,
      start_time: 1763683200,
      predictions: [
        [101, 103, 104],
        [101, 100, 99],
        [101, 98, 96],
      ],
    },
  ];
}

const prompt = { asset: "BTC", timeIncrement: 300, timeLength: 600, nPaths: 3 };
const pathSets = exampleSets().map((record) => pathSetFromPrediction(record, prompt));
const ensemble = ensembleOf(pathSets, { rebaseTo: 100, rebase: "additive" });

// percentiles at every step (numpy's linear method), step-major: [step][probability]
const quantiles = stepQuantiles(ensemble.stepMajor, ensemble.nPaths, ensemble.nPoints, {
  probabilities: [0.05, 0.5, 0.95],
});

// P(touch 97 or below) and P(touch 103 or above) by the end, with Monte-Carlo standard errors
const touch = touchProbabilities(ensemble.values, ensemble.nPaths, ensemble.nPoints, {
  levels: Float64Array.of(97, 103),
  windowEndSteps: Int32Array.of(ensemble.nPoints - 1),
});

// the same paths as an Arrow table, without copying them
const table = toArrowTable(pathSets[0]);

export const results = {
  medianAtEnd: quantiles[2 * 3 + 1],
  touchDown97: touch.down.values[0],
  touchUp103: touch.up.values[1],
  touchUp103StandardError: touch.up.standardErrors[1],
  arrowRows: table.numRows,
};
console.log(results);
