import { describe, expect, it } from "vitest";
import {
  createEstimates,
  meanStandardErrorFromSums,
  probabilityStandardError,
} from "../../src/core/stderr.ts";
import {
  meanStandardError,
  probabilityStandardError as referenceProbabilityStandardError,
} from "../../src/reference/stderr.ts";
import { expectRelativelyClose } from "./ensembles.ts";

describe("standard errors", () => {
  it("probabilityStandardError is √(p(1 − p)/n), NaN outside [0, 1] or for n < 1", () => {
    for (const [p, n] of [
      [0.5, 10000],
      [0.0123, 10000],
      [0, 5],
      [1, 5],
      [0.3, 1],
    ]) {
      expect(probabilityStandardError(p, n)).toBe(referenceProbabilityStandardError(p, n));
    }
    expect(probabilityStandardError(1.5, 10)).toBeNaN();
    expect(probabilityStandardError(NaN, 10)).toBeNaN();
    expect(probabilityStandardError(0.5, 0)).toBeNaN();
  });

  it("meanStandardErrorFromSums equals sample std / √n of the values behind the sums", () => {
    for (const values of [
      [1, 2, 3, 4],
      [0.25, 0.25, 0.25],
      [0, 1, 1, 0, 1, 0.5, 0.125],
      [1440, 1435, 1440, 600, 0, 1440],
    ]) {
      const sum = values.reduce((total, value) => total + value, 0);
      const sumOfSquares = values.reduce((total, value) => total + value * value, 0);
      expectRelativelyClose(
        meanStandardErrorFromSums(sum, sumOfSquares, values.length),
        meanStandardError(values),
        1e-14,
      );
    }
    expect(meanStandardErrorFromSums(1, 1, 1)).toBeNaN();
    expect(meanStandardErrorFromSums(NaN, 1, 4)).toBeNaN();
    expect(createEstimates(3).standardErrors.length).toBe(3);
  });
});
