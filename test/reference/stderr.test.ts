import { describe, expect, it } from "vitest";
import { meanStandardError, probabilityStandardError } from "../../src/reference/stderr.ts";
import { numpyAvailable, runPython } from "./python.ts";

describe("standard errors", () => {
  it("probabilityStandardError is √(p(1−p)/n)", () => {
    expect(probabilityStandardError(0.5, 10000)).toBe(0.005);
    expect(probabilityStandardError(0.1, 100)).toBeCloseTo(0.03, 15);
    expect(probabilityStandardError(0, 100)).toBe(0);
    expect(probabilityStandardError(1.2, 100)).toBeNaN();
    expect(() => probabilityStandardError(0.5, 0)).toThrow(
      "probabilityStandardError requires n to be a positive integer, got 0",
    );
  });

  it.skipIf(!numpyAvailable)("meanStandardError equals numpy std(ddof=1)/√n", () => {
    const values = [3.1, -2, 7.25, 0, 1e3, 4.5, 4.5];
    const expected = runPython(
      "x = np.array(data)\nprint(json.dumps(float(np.std(x, ddof=1) / np.sqrt(len(x)))))",
      values,
    ) as number;
    expect(meanStandardError(values)).toBeCloseTo(expected, 12);
    expect(meanStandardError([1])).toBeNaN();
  });
});
