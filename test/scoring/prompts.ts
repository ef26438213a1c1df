/**
 * Seeded prompts for the scoring tests: miners' path sets (as PathSets and as number[][] for the
 * reference implementations) and realized path records with gaps.
 */

import type { PathSet } from "../../src/paths/pathSet.ts";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";
import type { RealizedPath } from "../../src/domain/records/validation.ts";

/** Start of every test prompt: 2026-02-25T23:45:00Z. */
export const START_TIME = 1772063100;

/** A 24h prompt (300 s steps, 289 points) or a 1h prompt (60 s steps, 61 points). */
export type PromptKind = "24h" | "1h";

export const PROMPT_SHAPES = {
  "24h": { timeIncrement: 300, nPoints: 289, stepMinutes: 5 },
  "1h": { timeIncrement: 60, nPoints: 61, stepMinutes: 1 },
} as const;

/** GBM paths as miners submit them: 8 significant digits. */
export function minerPaths(
  seed: number,
  kind: PromptKind,
  pathCount: number,
  annualVolatility = 0.6,
  startPrice = 68000,
): number[][] {
  const { nPoints, stepMinutes } = PROMPT_SHAPES[kind];
  return simulateGbmPaths(createRandom(seed), {
    startPrice,
    annualVolatility,
    stepMinutes,
    stepCount: nPoints - 1,
    pathCount,
  }).map((path) => path.map((price) => Number(price.toPrecision(8))));
}

/** A PathSet of `paths` for the test prompt. */
export function pathSetOf(
  paths: readonly (readonly number[])[],
  kind: PromptKind,
  minerUid = 17,
  asset = "BTC",
): PathSet {
  const nPoints = paths[0].length;
  const values = new Float64Array(paths.length * nPoints);
  paths.forEach((path, index) => values.set(path, index * nPoints));
  return {
    asset,
    minerUid,
    startTime: START_TIME,
    timeIncrement: PROMPT_SHAPES[kind].timeIncrement,
    nPaths: paths.length,
    nPoints,
    values,
  };
}

/** The realized path record of `prices` (NaN → null, as JSON carries a missing price). */
export function realizedOf(
  prices: readonly number[],
  kind: PromptKind,
  asset = "BTC",
): RealizedPath {
  const { timeIncrement, nPoints } = PROMPT_SHAPES[kind];
  return {
    asset,
    real_prices: prices.map((price) => (Number.isNaN(price) ? null : price)),
    start_time: new Date(START_TIME * 1000).toISOString(),
    time_increment: timeIncrement,
    time_length: (nPoints - 1) * timeIncrement,
  };
}

/** One realized path of the prompt's shape (a GBM draw), with the given points missing. */
export function realizedPrices(
  seed: number,
  kind: PromptKind,
  missing: readonly number[] = [],
): number[] {
  const prices = minerPaths(seed, kind, 1)[0];
  for (const index of missing) prices[index] = NaN;
  return prices;
}
