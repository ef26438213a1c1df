/**
 * The validator's format checks of a miner's answer (synth `response_validation_v2`,
 * DOMAIN.md §1), first failure wins, with its exact reason strings. The sandbox's miners always
 * send the right start time and increment, so those checks cannot fail here and are not repeated.
 */

import { exceedsDigitLimit, pythonNumberText } from "./priceDigits.ts";

/**
 * The reason of a submission that passed every check.
 * @example CORRECT_REASON // => "CORRECT"
 */
export const CORRECT_REASON = "CORRECT";

/**
 * The reason of a miner that did not answer in time (the validator has no process time).
 * @example TIMEOUT_REASON // => "time out or internal server error (process time is None)"
 */
export const TIMEOUT_REASON = "time out or internal server error (process time is None)";

/**
 * The validator's verdict on `pathCount` paths of `pointCount` prices (path-major `values`) for a
 * prompt expecting `expectedPaths` paths of `expectedPoints` points, in the validator's order:
 * no paths → `Response is empty`; wrong path count → `Number of paths is incorrect: expected E,
 * got N`; then per path, wrong length → `Number of time points is incorrect: expected E, got N`,
 * then per price, more than 8 digits in Python's text → `Price format is incorrect: too many digits
 * P` (P as Python prints it). Otherwise {@link CORRECT_REASON}. Not checked, as by the validator:
 * that point 0 is the spot, or that prices are positive (a zero price fails at scoring).
 * Throws `RangeError` when `values` is shorter than pathCount × pointCount.
 * @example submissionReason(values, 1000, 288, 1000, 289) // => "Number of time points is incorrect: expected 289, got 288"
 */
export function submissionReason(
  values: Float64Array,
  pathCount: number,
  pointCount: number,
  expectedPaths: number,
  expectedPoints: number,
): string {
  if (values.length < pathCount * pointCount) {
    throw new RangeError(
      `submissionReason requires pathCount × pointCount = ${pathCount * pointCount} values, got ${values.length}`,
    );
  }
  if (pathCount === 0) return "Response is empty";
  if (pathCount !== expectedPaths) {
    return `Number of paths is incorrect: expected ${expectedPaths}, got ${pathCount}`;
  }
  if (pointCount !== expectedPoints) {
    return `Number of time points is incorrect: expected ${expectedPoints}, got ${pointCount}`;
  }
  const total = pathCount * pointCount;
  for (let index = 0; index < total; index++) {
    if (exceedsDigitLimit(values[index])) {
      return `Price format is incorrect: too many digits ${pythonNumberText(values[index])}`;
    }
  }
  return CORRECT_REASON;
}
