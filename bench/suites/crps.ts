/**
 * Validator-style CRPS of one miner over a 24h prompt (345 terms), and one ensemble against many
 * observations, beside naive JS and numpy.
 */

import { crpsEnsemble } from "../../src/core/crps.ts";
import {
  crpsIntervalSum,
  intervalChanges,
  type IntervalKind,
} from "../../src/core/crpsIntervals.ts";
import { CrpsPrepared } from "../../src/core/crpsPrepared.ts";
import { defineSuite, PATHS_PER_MINER, POINTS } from "../harness.ts";

/** The 24h scoring intervals (DOMAIN.md §2) as steps of 5 minutes. */
const INTERVALS_24H: readonly [number, IntervalKind][] = [
  [1, "returns"],
  [6, "returns"],
  [36, "returns"],
  [288, "absolute"],
];

/** Naive JS: number[][] paths, a new array per term, sort with a comparator, the closed form. */
function validatorNaive(paths: number[][], realized: number[]): number {
  let total = 0;
  for (const [steps, kind] of INTERVALS_24H) {
    const grid = (path: number[]) => path.filter((_, index) => index % steps === 0);
    const changes = (path: number[]) => {
      const points = grid(path);
      return kind === "absolute"
        ? points.slice(1)
        : points.slice(1).map((price, index) => ((price - points[index]) / points[index]) * 10000);
    };
    const simulated = paths.map(changes);
    const observed = changes(realized);
    observed.forEach((observation, term) => {
      if (Number.isNaN(observation)) return;
      const members = simulated.map((row) => row[term]).sort((a, b) => a - b);
      const m = members.length;
      const absolute = members.reduce((sum, x) => sum + Math.abs(x - observation), 0);
      const spread = members.reduce((sum, x, i) => sum + (2 * i + 1 - m) * x, 0);
      const crps = absolute / m - spread / (m * m);
      total += kind === "absolute" ? (crps / realized[realized.length - 1]) * 10000 : crps;
    });
  }
  return total;
}

export const suite = defineSuite({
  name: "crps",
  cases: (data) => {
    const values = data.miner0;
    const realizedChanges = INTERVALS_24H.map(([steps, kind]) =>
      intervalChanges(data.realized, steps, kind),
    );
    const lastPrice = data.realized[POINTS - 1];
    const validator = (method: "closed" | "parity") => () => {
      let total = 0;
      INTERVALS_24H.forEach(([steps, kind], index) => {
        total += crpsIntervalSum(values, PATHS_PER_MINER, POINTS, {
          stepsPerInterval: steps,
          kind,
          realized: realizedChanges[index],
          method,
          absoluteReference: lastPrice,
        });
      });
      return total;
    };
    const paths = Array.from({ length: PATHS_PER_MINER }, (_, path) =>
      Array.from(values.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const realized = Array.from(data.realized);
    const members = values.filter((_, index) => index % POINTS === POINTS - 1);
    const observations = data.realized;
    return [
      {
        name: "validator-style CRPS, 24h intervals (345 terms)",
        size: "1,000 × 289",
        pathlab: validator("closed"),
        naive: () => validatorNaive(paths, realized),
        peer: { script: "crps", case: "validator_24h" },
        targetMs: 8,
      },
      {
        name: "  same, parity mode (properscoring's loop)",
        size: "1,000 × 289",
        pathlab: validator("parity"),
      },
      {
        name: "CRPS of one ensemble, many observations (CrpsPrepared)",
        size: "1,000 members × 289 obs",
        pathlab: () => new CrpsPrepared(members).crpsMany(observations),
        naive: () => Array.from(observations, (observation) => crpsEnsemble(members, observation)),
        peer: { script: "crps", case: "prepared" },
        note: "naive = crpsEnsemble per observation",
      },
    ];
  },
});
