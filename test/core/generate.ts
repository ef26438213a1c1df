/** Seeded test data for the core kernels: GBM ensembles step-major, awkward columns. */

import { createRandom, type Random } from "../../src/reference/random.ts";

/**
 * A GBM ensemble, step-major (step t, path p at t·nPaths + p), start 100, σ per step given, with
 * prices rounded to `digits` significant digits (as miners round to 8) so that ties occur.
 */
export function gbmStepMajor(
  seed: number,
  nPaths: number,
  nPoints: number,
  volatilityPerStep = 0.003,
  digits = 8,
): Float64Array {
  const random = createRandom(seed);
  const values = new Float64Array(nPaths * nPoints);
  for (let path = 0; path < nPaths; path++) {
    let price = 100;
    for (let step = 0; step < nPoints; step++) {
      values[step * nPaths + path] = Number(price.toPrecision(digits));
      price *= Math.exp(volatilityPerStep * random.normal() - volatilityPerStep ** 2 / 2);
    }
  }
  return values;
}

/** Columns that stress selection: ties, outliers, constants, signs, tiny spreads. */
export function awkwardColumns(
  seed: number,
  length: number,
): { name: string; values: Float64Array }[] {
  const random = createRandom(seed);
  const make = (name: string, fill: (index: number, random: Random) => number) => ({
    name,
    values: Float64Array.from({ length }, (_, index) => fill(index, random)),
  });
  return [
    make("normal", (_, r) => r.normal()),
    make("few distinct values (ties)", (_, r) => Math.floor(r.uniform() * 5)),
    make("constant", () => 42),
    make("one outlier far above", (index, r) => (index === 7 ? 1e12 : r.normal())),
    make("outliers both sides", (index, r) =>
      index % 97 === 0 ? (index % 2 ? 1e300 : -1e300) : r.normal(),
    ),
    make("heavy tail (Cauchy)", (_, r) => Math.tan(Math.PI * (r.uniform() - 0.5))),
    make("mostly one value", (index, r) => (index % 50 === 0 ? r.normal() : 3)),
    make("tiny spread around 1e6", (_, r) => 1e6 + r.uniform() * 1e-9),
    make("signed zeros and small", (index, r) =>
      index % 3 === 0 ? -0 : index % 3 === 1 ? 0 : r.normal() * 1e-300,
    ),
    make("sorted ascending", (index) => index),
    make("sorted descending", (index) => -index),
    make("with infinities", (index, r) =>
      index % 101 === 0 ? (index % 2 ? Infinity : -Infinity) : r.normal(),
    ),
  ];
}

/**
 * The indexes where `actual` and `expected` differ as numbers: exact equality, NaN equal to NaN,
 * and −0 equal to +0 (numpy's partition does not order zeros by sign, so which zero lands at a
 * rank is arbitrary). Empty means bit-identical apart from the sign of zeros.
 */
export function numberMismatches(actual: ArrayLike<number>, expected: ArrayLike<number>): string[] {
  const mismatches: string[] = [];
  if (actual.length !== expected.length) return [`length ${actual.length} vs ${expected.length}`];
  for (let index = 0; index < actual.length; index++) {
    const a = actual[index];
    const b = expected[index];
    if (!(a === b || (Number.isNaN(a) && Number.isNaN(b))))
      mismatches.push(`[${index}] ${a} vs ${b}`);
  }
  return mismatches;
}
