import { describe, expect, it } from "vitest";
import { createRandom } from "../../src/reference/random.ts";
import { probabilityStandardError } from "../../src/reference/stderr.ts";
import {
  probabilityAbove,
  probabilityBelow,
  probabilityBetween,
} from "../../src/reference/terminal.ts";
import { normalCdf } from "./closedForms.ts";

describe("terminal probabilities", () => {
  const terminal = [90, 95, 100, 100, 105, 110, 120, 80];

  it("probabilityAbove and probabilityBelow are strict, probabilityBetween is inclusive", () => {
    expect(probabilityAbove(terminal, 100)).toBe(3 / 8); // 105, 110, 120
    expect(probabilityBelow(terminal, 100)).toBe(3 / 8); // 90, 95, 80
    expect(probabilityBetween(terminal, 95, 105)).toBe(4 / 8);
    expect(probabilityBetween(terminal, 100, 100)).toBe(2 / 8);
  });

  it("probabilityBetween rejects lower > upper and every function rejects an empty sample", () => {
    expect(() => probabilityBetween(terminal, 2, 1)).toThrow(
      "probabilityBetween requires lower ≤ upper, got lower 2 and upper 1",
    );
    expect(() => probabilityAbove([], 1)).toThrow(
      "probabilityAbove requires at least one value in terminal, got an empty array",
    );
  });

  it("terminal probabilities match the lognormal CDF on a seeded sample, within 4 standard errors", () => {
    const mu = Math.log(2000);
    const sigma = 0.05;
    const sampleCount = 50_000;
    const random = createRandom(8);
    const sample = Array.from({ length: sampleCount }, () =>
      Math.exp(mu + sigma * random.normal()),
    );
    const cdf = (level: number) => normalCdf((Math.log(level) - mu) / sigma);
    const tolerance = (p: number) => 4 * probabilityStandardError(p, sampleCount) + 1e-6;
    for (const level of [1850, 1950, 2000, 2080, 2200]) {
      expect(Math.abs(probabilityAbove(sample, level) - (1 - cdf(level)))).toBeLessThan(
        tolerance(1 - cdf(level)),
      );
      expect(Math.abs(probabilityBelow(sample, level) - cdf(level))).toBeLessThan(
        tolerance(cdf(level)),
      );
    }
    const between = cdf(2100) - cdf(1900);
    expect(Math.abs(probabilityBetween(sample, 1900, 2100) - between)).toBeLessThan(
      tolerance(between),
    );
  });
});
