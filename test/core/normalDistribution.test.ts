/**
 * Φ against SciPy's `scipy.stats.norm.cdf`, from the far lower tail to the upper one.
 */
import { expect, it } from "vitest";
import { normalCdf } from "../../src/core/normalDistribution.ts";

const SCIPY: [number, number][] = [
  [-8, 6.22096057427174e-16],
  [-5, 2.866515718791933e-7],
  [-3, 0.0013498980316300933],
  [-1.5, 0.06680720126885807],
  [-0.1, 0.460172162722971],
  [0, 0.5],
  [0.3, 0.6179114221889526],
  [1, 0.8413447460685429],
  [2.5, 0.9937903346742238],
  [4, 0.9999683287581669],
  [6, 0.9999999990134123],
];

it("normalCdf equals SciPy's norm.cdf to 1e-13 relative, tails included", () => {
  for (const [x, expected] of SCIPY) {
    expect(Math.abs(normalCdf(x) - expected) / expected, `Φ(${x})`).toBeLessThan(1e-13);
  }
  expect(normalCdf(Number.NaN)).toBeNaN();
  expect(normalCdf(-40)).toBe(0);
  expect(normalCdf(40)).toBe(1);
});
