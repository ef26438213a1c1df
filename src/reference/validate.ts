/**
 * Entry checks shared by the reference implementations, so that every function reports a
 * structural mistake the same way: which operation, which field, what was expected, what was got.
 */

/**
 * Checks that `paths` is a non-empty matrix whose rows (paths) all have the same number of
 * points (at least `minimumPoints`), and returns that number of points.
 * Throws `RangeError` naming `operation` otherwise.
 * @example requirePathMatrix("touchProbability", [[1, 2], [3, 4]]) // => 2
 */
export function requirePathMatrix(
  operation: string,
  paths: readonly ArrayLike<number>[],
  minimumPoints = 1,
): number {
  if (paths.length === 0) {
    throw new RangeError(`${operation} requires at least one path in paths, got none`);
  }
  const pointCount = paths[0].length;
  for (let index = 1; index < paths.length; index++) {
    if (paths[index].length !== pointCount) {
      throw new RangeError(
        `${operation} requires paths of equal length: paths[0] has ${pointCount} points, paths[${index}] has ${paths[index].length}`,
      );
    }
  }
  if (pointCount < minimumPoints) {
    throw new RangeError(
      `${operation} requires at least ${minimumPoints} point(s) per path, got ${pointCount}`,
    );
  }
  return pointCount;
}

/**
 * Checks that the array `field` of `operation` has at least one element.
 * Throws `RangeError` naming the operation and the field otherwise.
 * @example requireNonEmpty("probabilityAbove", "terminal", [1, 2]) // passes silently
 */
export function requireNonEmpty(
  operation: string,
  field: string,
  values: ArrayLike<unknown>,
): void {
  if (values.length === 0) {
    throw new RangeError(
      `${operation} requires at least one value in ${field}, got an empty array`,
    );
  }
}

/**
 * Checks a prompt's grid for `operation`: a positive, finite `timeIncrementSeconds`, and scoring
 * intervals (name → seconds) that each span at least one time increment. Returns the intervals'
 * entries, in their order. Throws `RangeError` naming the operation (and the interval) otherwise.
 * @example requireScoringIntervals("promptCrpsDetails", 300, { "5min": 300 }) // => [["5min", 300]]
 */
export function requireScoringIntervals(
  operation: string,
  timeIncrementSeconds: number,
  scoringIntervals: Readonly<Record<string, number>>,
): [string, number][] {
  if (!(timeIncrementSeconds > 0 && Number.isFinite(timeIncrementSeconds))) {
    throw new RangeError(
      `${operation} requires a positive timeIncrementSeconds, got ${timeIncrementSeconds}`,
    );
  }
  const entries = Object.entries(scoringIntervals);
  for (const [name, seconds] of entries) {
    if (!(Math.trunc(seconds / timeIncrementSeconds) >= 1)) {
      throw new RangeError(
        `${operation} requires every interval to span at least one time increment: interval "${name}" is ${seconds} s with ${timeIncrementSeconds} s steps`,
      );
    }
  }
  return entries;
}

/**
 * Checks that `value` is a finite number, throwing a `RangeError` naming the operation and field.
 * @example requireFinite("optionPrices", "discountFactor", 1) // passes silently
 */
export function requireFinite(operation: string, field: string, value: number): void {
  if (!Number.isFinite(value)) {
    throw new RangeError(`${operation} requires a finite ${field}, got ${value}`);
  }
}

/**
 * Checks that `value` is an integer in [minimum, maximum], throwing a `RangeError` naming the
 * operation and field otherwise.
 * @example requireIntegerInRange("touchProbability", "fromStep", 0, 0, 288) // passes silently
 */
export function requireIntegerInRange(
  operation: string,
  field: string,
  value: number,
  minimum: number,
  maximum: number,
): void {
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw new RangeError(
      `${operation} requires ${field} to be an integer in [${minimum}, ${maximum}], got ${value}`,
    );
  }
}
