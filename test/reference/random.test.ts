import { describe, expect, it } from "vitest";
import { createRandom } from "../../src/reference/random.ts";
import { numpyAvailable, runPython } from "./python.ts";

describe("createRandom", () => {
  it("createRandom gives the same stream for the same seed and different streams otherwise", () => {
    const first = createRandom(123);
    const second = createRandom(123);
    const other = createRandom(124);
    const draws = (random: ReturnType<typeof createRandom>) =>
      Array.from({ length: 10 }, (_, index) => (index % 2 ? random.normal() : random.uniform()));
    const firstDraws = draws(first);
    expect(draws(second)).toEqual(firstDraws);
    expect(draws(other)).not.toEqual(firstDraws);
  });

  it.skipIf(!numpyAvailable)("createRandom's uniforms are mulberry32's outputs / 2³²", () => {
    // An independent transcription of mulberry32 in Python (integer arithmetic mod 2³²).
    const expected = runPython(
      [
        "M = 2**32",
        "def imul(a, b): return (a * b) % M",
        "a = data % M",
        "out = []",
        "for _ in range(8):",
        "    a = (a + 0x6D2B79F5) % M",
        "    t = imul(a ^ (a >> 15), a | 1)",
        "    t = ((t + imul(t ^ (t >> 7), t | 61)) % M) ^ t",
        "    out.append(((t ^ (t >> 14)) % M) / 4294967296)",
        "print(json.dumps(out))",
      ].join("\n"),
      2026,
    ) as number[];
    const random = createRandom(2026);
    expect(Array.from({ length: 8 }, () => random.uniform())).toEqual(expected);
  });

  it("createRandom's uniforms have mean 1/2 and variance 1/12, normals mean 0 and variance 1", () => {
    const random = createRandom(7);
    const count = 200_000;
    let uniformSum = 0;
    let uniformSquares = 0;
    let normalSum = 0;
    let normalSquares = 0;
    let normalFourth = 0;
    let uniformsOutside = 0;
    for (let index = 0; index < count; index++) {
      const u = random.uniform();
      if (!(u >= 0 && u < 1)) uniformsOutside++;
      uniformSum += u;
      uniformSquares += u * u;
      const z = random.normal();
      normalSum += z;
      normalSquares += z * z;
      normalFourth += z ** 4;
    }
    expect(uniformsOutside).toBe(0);
    // Tolerances are 5 standard errors of each estimate.
    expect(Math.abs(uniformSum / count - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / count));
    expect(Math.abs(uniformSquares / count - 1 / 3)).toBeLessThan(5 * Math.sqrt(4 / 45 / count));
    expect(Math.abs(normalSum / count)).toBeLessThan(5 / Math.sqrt(count));
    expect(Math.abs(normalSquares / count - 1)).toBeLessThan(5 * Math.sqrt(2 / count));
    expect(Math.abs(normalFourth / count - 3)).toBeLessThan(5 * Math.sqrt(96 / count));
  });

  it("createRandom rejects a non-finite seed", () => {
    expect(() => createRandom(NaN)).toThrow("createRandom requires a finite seed, got NaN");
  });
});
