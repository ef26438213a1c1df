/**
 * Entry checks shared by the kernels of `core/`: they find structural mistakes (shapes, lengths,
 * window bounds, unsorted input) once, before any data-sized loop, and throw a `RangeError` that
 * names the operation, the field, what was expected and what was got.
 */

import type { Estimates } from "./stderr.ts";

/**
 * Checks that `values` holds `nPaths` path-major paths of `nPoints` points each.
 * @example requirePathShape("touchProbabilities", new Float64Array(6), 2, 3) // passes silently
 */
export function requirePathShape(
  operation: string,
  values: Float64Array,
  nPaths: number,
  nPoints: number,
): void {
  if (!Number.isInteger(nPaths) || nPaths < 0) {
    throw new RangeError(
      `${operation} requires nPaths to be a non-negative integer, got ${nPaths}`,
    );
  }
  requirePositiveInteger(operation, "nPoints", nPoints);
  if (values.length !== nPaths * nPoints) {
    throw new RangeError(
      `${operation} requires values.length = nPaths × nPoints = ${nPaths} × ${nPoints} = ${nPaths * nPoints}, got ${values.length}`,
    );
  }
}

/**
 * Checks that a count or size argument (`field`) is an integer of at least 1.
 * @example requirePositiveInteger("blockVolatilities", "stepsPerBlock", 12) // passes silently
 */
export function requirePositiveInteger(operation: string, field: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${operation} requires ${field} to be a positive integer, got ${value}`);
  }
}

/**
 * Checks that an array argument (`field`) has the expected length.
 * @example requireLength("rangeStatistics", "uppers", 16, 16) // passes silently
 */
export function requireLength(
  operation: string,
  field: string,
  length: number,
  expected: number,
): void {
  if (length !== expected) {
    throw new RangeError(`${operation} requires ${field} of length ${expected}, got ${length}`);
  }
}

/**
 * Checks that both arrays of a caller-owned {@link Estimates} buffer have the expected length.
 * @example requireEstimatesLength("optionPricesSorted", "out.calls", createEstimates(3), 3)
 */
export function requireEstimatesLength(
  operation: string,
  field: string,
  estimates: Estimates,
  expected: number,
): void {
  requireLength(operation, `${field}.values`, estimates.values.length, expected);
  requireLength(operation, `${field}.standardErrors`, estimates.standardErrors.length, expected);
}

/**
 * Checks that `fromStep` is a point of the paths and that the window ends are ascending points in
 * [fromStep, nPoints − 1], so one forward scan per path meets every window end in order.
 * @example requireWindowEndSteps("touchProbabilities", Int32Array.of(72, 144), 0, 289)
 */
export function requireWindowEndSteps(
  operation: string,
  windowEndSteps: Int32Array,
  fromStep: number,
  nPoints: number,
): void {
  if (!Number.isInteger(fromStep) || fromStep < 0 || fromStep >= nPoints) {
    throw new RangeError(
      `${operation} requires fromStep to be an integer in [0, ${nPoints - 1}], got ${fromStep}`,
    );
  }
  let previous = fromStep;
  for (let window = 0; window < windowEndSteps.length; ++window) {
    const end = windowEndSteps[window];
    if (end < previous || end >= nPoints) {
      throw new RangeError(
        `${operation} requires windowEndSteps ascending in [fromStep, nPoints − 1] = [${fromStep}, ${nPoints - 1}], got windowEndSteps[${window}] = ${end}`,
      );
    }
    previous = end;
  }
}

/**
 * Checks that `sorted` is ascending, as `Float64Array.prototype.sort` leaves it (NaN values last,
 * which this check lets through: the kernels turn them into NaN results). O(n).
 * @example requireSortedAscending("optionPricesSorted", "sorted", Float64Array.of(1, 2, NaN))
 */
export function requireSortedAscending(
  operation: string,
  field: string,
  sorted: Float64Array,
): void {
  const length = sorted.length;
  for (let index = 1; index < length; ++index) {
    if (sorted[index] < sorted[index - 1]) {
      throw new RangeError(
        `${operation} requires ${field} sorted ascending, got ${field}[${index - 1}] = ${sorted[index - 1]} > ${field}[${index}] = ${sorted[index]}`,
      );
    }
  }
}
