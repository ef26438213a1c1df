import { describe, expect, it } from "vitest";
import { RandomStream, streamSeed } from "../../../src/sandbox/world/randomStream.ts";

const DRAWS = 200_000;

/** Student-t CDF with 3 degrees of freedom (closed form). */
function studentT3Cdf(t: number): number {
  const scaled = t / Math.sqrt(3);
  return 0.5 + (scaled / (1 + scaled * scaled) + Math.atan(scaled)) / Math.PI;
}

/** P(|Z| > x) for a standard normal, by Simpson integration of the density. */
function normalTwoSidedTail(x: number): number {
  // Simpson integration of the density from x to x + 12 (the rest is far below 1e-30).
  const steps = 20_000;
  const width = 12 / steps;
  let sum = 0;
  for (let index = 0; index <= steps; index++) {
    const z = x + index * width;
    const weight = index === 0 || index === steps ? 1 : index % 2 === 1 ? 4 : 2;
    sum += weight * Math.exp(-(z * z) / 2);
  }
  return (2 * (sum * width)) / 3 / Math.sqrt(2 * Math.PI);
}

describe("streamSeed", () => {
  it("streamSeed gives the same seed for the same key and unrelated seeds for neighbouring keys", () => {
    expect(streamSeed(7, 1, 20413)).toBe(streamSeed(7, 1, 20413));
    const seeds = new Set<number>();
    for (let day = 0; day < 1000; day++) seeds.add(streamSeed(7, 1, day));
    for (let seed = 0; seed < 1000; seed++) seeds.add(streamSeed(seed, 2, 0));
    expect(seeds.size).toBe(2000);
    expect(streamSeed(7, 1_795_258_140)).not.toBe(streamSeed(7, 1_795_258_140 + 4294967296));
  });

  it("streamSeed rejects a part that is not an integer", () => {
    expect(() => streamSeed(7, 1.5)).toThrow("streamSeed requires integer parts, got 1.5");
  });
});

describe("RandomStream", () => {
  it("RandomStream repeats its draws for the same seed", () => {
    const first = new RandomStream(99);
    const second = new RandomStream(99);
    for (let index = 0; index < 100; index++) expect(first.normal()).toBe(second.normal());
  });

  it("RandomStream uniforms are uniform on [0, 1)", () => {
    const stream = new RandomStream(streamSeed(1, 2));
    const bins = new Array<number>(20).fill(0);
    let sum = 0;
    for (let index = 0; index < DRAWS; index++) {
      const value = stream.uniform();
      expect(value >= 0 && value < 1).toBe(true);
      sum += value;
      bins[Math.floor(value * 20)]++;
    }
    const standardError = Math.sqrt(1 / 12 / DRAWS);
    expect(Math.abs(sum / DRAWS - 0.5)).toBeLessThan(5 * standardError);
    const expected = DRAWS / 20;
    const binError = Math.sqrt(expected * (1 - 1 / 20));
    for (const count of bins) expect(Math.abs(count - expected)).toBeLessThan(5 * binError);
  });

  it("RandomStream normals have mean 0, variance 1 and the normal tail beyond 2", () => {
    const stream = new RandomStream(streamSeed(1, 3));
    let sum = 0;
    let sumOfSquares = 0;
    let beyondTwo = 0;
    for (let index = 0; index < DRAWS; index++) {
      const value = stream.normal();
      sum += value;
      sumOfSquares += value * value;
      if (Math.abs(value) > 2) beyondTwo++;
    }
    expect(Math.abs(sum / DRAWS)).toBeLessThan(5 / Math.sqrt(DRAWS));
    expect(Math.abs(sumOfSquares / DRAWS - 1)).toBeLessThan(5 * Math.sqrt(2 / DRAWS));
    const tail = normalTwoSidedTail(2); // 0.0455
    expect(Math.abs(beyondTwo / DRAWS - tail)).toBeLessThan(
      5 * Math.sqrt((tail * (1 - tail)) / DRAWS),
    );
  });

  it("RandomStream studentT(3) has the Student-t tail of a unit-variance t₃", () => {
    const stream = new RandomStream(streamSeed(1, 4));
    let beyondFour = 0;
    for (let index = 0; index < DRAWS; index++) if (Math.abs(stream.studentT(3)) > 4) beyondFour++;
    // Unit variance: T·√(1/3); |T·√(1/3)| > 4 ⇔ |T| > 4√3.
    const tail = 2 * (1 - studentT3Cdf(4 * Math.sqrt(3))); // 0.00616, vs 6.3e-5 for a normal
    expect(Math.abs(beyondFour / DRAWS - tail)).toBeLessThan(
      5 * Math.sqrt((tail * (1 - tail)) / DRAWS),
    );
  });

  it("RandomStream poisson counts have the requested mean", () => {
    const stream = new RandomStream(streamSeed(1, 5));
    let sum = 0;
    for (let index = 0; index < DRAWS; index++) sum += stream.poisson(1.5);
    expect(Math.abs(sum / DRAWS - 1.5)).toBeLessThan(5 * Math.sqrt(1.5 / DRAWS));
  });
});
