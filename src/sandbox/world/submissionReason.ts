/**
 * The validator's verdict on a sandbox miner's answer: the answer as the validator receives it
 * (`[start, increment, path, …]`, prices as Python floats) checked by the spec's
 * {@link validateResponse} under the format rule of the prompt's start (the validator checks at
 * request time), so the sandbox's reasons are the network's, era by era.
 */

import {
  CORRECT_REASON,
  NO_RESPONSE_REASON,
  validateResponse,
  type ValidationPrompt,
} from "../../domain/responseValidation.ts";

export { CORRECT_REASON };

/**
 * The reason of a miner that did not answer in time (the validator has no process time).
 * @example TIMEOUT_REASON // => "time out or internal server error (process time is None)"
 */
export const TIMEOUT_REASON = NO_RESPONSE_REASON;

/**
 * The validator's verdict on `pathCount` paths of `pointCount` prices (path-major `values`; none:
 * an empty list) answering `prompt`: `CORRECT` or the first failure's exact reason, e.g. `Number
 * of time points is incorrect: expected 289, got 288`, `Price format is incorrect: too many digits
 * 67676.1234`, `… exceeds float32 range 8.0123457e+44`. Not checked, as by the validator: that
 * point 0 is the spot, or that prices are positive (a zero price fails at scoring).
 * Throws `RangeError` when `values` is shorter than pathCount × pointCount.
 * @example submissionReason(values, 1000, 288, { startTimeUnix, timeIncrement: 300, timeLength: 86400 }) // => "Number of time points is incorrect: expected 289, got 288"
 */
export function submissionReason(
  values: Float64Array,
  pathCount: number,
  pointCount: number,
  prompt: ValidationPrompt,
): string {
  if (values.length < pathCount * pointCount) {
    throw new RangeError(
      `submissionReason requires pathCount × pointCount = ${pathCount * pointCount} values, got ${values.length}`,
    );
  }
  const response: unknown[] = pathCount === 0 ? [] : [prompt.startTimeUnix, prompt.timeIncrement];
  for (let path = 0; path < pathCount; path++) {
    response.push(values.subarray(path * pointCount, (path + 1) * pointCount));
  }
  return validateResponse(response, prompt, { at: prompt.startTimeUnix });
}
