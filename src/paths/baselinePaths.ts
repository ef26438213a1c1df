/**
 * Baseline price paths for `pathlab baseline`: a seeded generator of standard normals and the two
 * textbook benchmark models (zero-drift geometric Brownian motion and the arithmetic Gaussian random
 * walk), written path-major into one Float64Array, the {@link PathSet} layout.
 *
 * In `paths/` rather than `jobs/`: the output is a path set's `values`, the code does no I/O, and a
 * library user can build a baseline path set and score it without the job. Not `reference/`: jobs
 * must not import it, and the sandbox's generator there is the independent side of the checks.
 */

import type { PathSet } from "./pathSet.ts";

/**
 * The baseline models, as `pathlab baseline --model` names them.
 * @example BASELINE_MODELS // => ["gbm", "random-walk"]
 */
export const BASELINE_MODELS = ["gbm", "random-walk"] as const;

/** One of {@link BASELINE_MODELS}. @example const model: BaselineModel = "gbm"; */
export type BaselineModel = (typeof BASELINE_MODELS)[number];

/** 2⁻³², the spacing of the 32-bit uniforms. */
const UINT32_SCALE = 1 / 4294967296;
const TWO_PI = 2 * Math.PI;

/**
 * A seeded stream of standard normal numbers. Uniforms: sfc32 (Chris Doty-Humphrey's Small Fast
 * Counting generator, 128-bit state, passes PractRand), its state filled by splitmix32 from the
 * seed and warmed up for 12 rounds. Normals: Box–Muller, z₀ = √(−2 ln u₁)·cos(2πu₂),
 * z₁ = √(−2 ln u₁)·sin(2πu₂) with u₁ ∈ (0, 1] and u₂ ∈ [0, 1), both kept; with 32-bit uniforms
 * |z| ≤ √(2·32·ln 2) ≈ 6.66 (the tail beyond has probability 3·10⁻¹¹). The same seed always
 * gives the same numbers.
 * @example
 * const normals = new NormalStream(42);
 * const draws = normals.fill(new Float64Array(4)); // four standard normal numbers
 */
export class NormalStream {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  /** `seed` is taken modulo 2³² (after truncation); throws `RangeError` for a non-finite seed. */
  constructor(seed: number) {
    if (!Number.isFinite(seed)) {
      throw new RangeError(`NormalStream requires a finite seed, got ${seed}`);
    }
    let state = Math.trunc(seed) >>> 0;
    const words = new Uint32Array(4);
    for (let index = 0; index < 4; ++index) {
      // splitmix32
      state = (state + 0x9e3779b9) >>> 0;
      let mixed = state ^ (state >>> 16);
      mixed = Math.imul(mixed, 0x21f0aaad);
      mixed ^= mixed >>> 15;
      mixed = Math.imul(mixed, 0x735a2d97);
      words[index] = (mixed ^ (mixed >>> 15)) >>> 0;
    }
    [this.#a, this.#b, this.#c, this.#d] = words;
    const warmUp = new Float64Array(24);
    this.fill(warmUp);
  }

  /**
   * Fills `out` with standard normal numbers (in pairs; an odd last entry drops the pair's second)
   * and returns it. Traded clarity for speed: sfc32 is inlined in the loop, its state in locals.
   * @example new NormalStream(1).fill(new Float64Array(1000)).length // => 1000
   */
  fill(out: Float64Array): Float64Array {
    let a = this.#a;
    let b = this.#b;
    let c = this.#c;
    let d = this.#d;
    const n = out.length;
    for (let index = 0; index < n; index += 2) {
      let t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      const first = ((t >>> 0) + 1) * UINT32_SCALE; // (0, 1]: its log is finite
      t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      const angle = TWO_PI * (t >>> 0) * UINT32_SCALE;
      const radius = Math.sqrt(-2 * Math.log(first));
      out[index] = radius * Math.cos(angle);
      if (index + 1 < n) out[index + 1] = radius * Math.sin(angle);
    }
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
    return out;
  }
}

/**
 * The seed of one prompt's stream: FNV-1a (32 bit) of `"<seed>:<asset>:<startTimeUnix>"`. A
 * prompt's paths then depend only on the seed and the prompt, not on the other prompts of a run.
 * @example baselineSeed(1, "BTC", 1772063100) === baselineSeed(1, "BTC", 1772063100) // => true
 */
export function baselineSeed(seed: number, asset: string, startTimeUnix: number): number {
  const text = `${seed}:${asset}:${startTimeUnix}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; ++index) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

/**
 * What {@link simulateBaselinePaths} simulates.
 * @example
 * const model: BaselinePathModel = {
 *   model: "gbm", startPrice: 68000, stepVolatility: 0.0021, nPaths: 1000, nPoints: 289, seed: 7,
 * };
 */
export interface BaselinePathModel {
  readonly model: BaselineModel;
  /** Point 0 of every path (> 0). */
  readonly startPrice: number;
  /**
   * σ of one step's log return (≥ 0). The random walk's step deviation in price units is
   * `startPrice × stepVolatility`, the GBM's at its start.
   */
  readonly stepVolatility: number;
  readonly nPaths: number;
  /** Points per path, point 0 included. */
  readonly nPoints: number;
  /** Seed of the {@link NormalStream}. */
  readonly seed: number;
}

/**
 * `nPaths` paths of `nPoints` prices, path-major (path p, point t at `p·nPoints + t`), point 0 =
 * `startPrice`, with Z standard normals of a {@link NormalStream}(seed), drawn path by path:
 * - `gbm`: zero-drift geometric Brownian motion dS = σS dW, exact on the grid:
 *   S(t+1) = S(t)·exp(−σ²/2 + σZ), σ = `stepVolatility` (so E[S(t)] = S(0): a martingale);
 * - `random-walk`: the arithmetic Gaussian random walk (Bachelier), S(t+1) = S(t) + s·Z with
 *   s = `startPrice × stepVolatility`, the same step deviation in price units as the GBM's first
 *   step. Not floored at 0: at the assets' volatilities (the markets' usual magnitudes, at most ~100 % a year) a
 *   non-positive price after 24 h is over 19 standard deviations away.
 * O(nPaths·nPoints). Throws `RangeError` for a non-positive start price, a negative or non-finite
 * volatility, counts that are not positive integers, or an `out` of the wrong length.
 * @example
 * const values = simulateBaselinePaths({
 *   model: "random-walk", startPrice: 100, stepVolatility: 0.01, nPaths: 2, nPoints: 3, seed: 1,
 * }); // values[0] => 100, values[3] => 100
 */
export function simulateBaselinePaths(
  model: BaselinePathModel,
  out?: Float64Array,
): PathSet["values"] {
  const { startPrice, stepVolatility, nPaths, nPoints } = model;
  if (!(startPrice > 0 && Number.isFinite(startPrice))) {
    throw new RangeError(`simulateBaselinePaths requires a positive startPrice, got ${startPrice}`);
  }
  if (!(stepVolatility >= 0 && Number.isFinite(stepVolatility))) {
    throw new RangeError(
      `simulateBaselinePaths requires a finite stepVolatility ≥ 0, got ${stepVolatility}`,
    );
  }
  for (const [name, value] of [
    ["nPaths", nPaths],
    ["nPoints", nPoints],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(
        `simulateBaselinePaths requires a positive integer ${name}, got ${value}`,
      );
    }
  }
  const values = out ?? new Float64Array(nPaths * nPoints);
  if (values.length !== nPaths * nPoints) {
    throw new RangeError(
      `simulateBaselinePaths requires out.length = nPaths × nPoints = ${nPaths * nPoints}, got ${values.length}`,
    );
  }
  const normals = new NormalStream(model.seed);
  const shocks = new Float64Array(nPoints - 1);
  // Branch once on the model, outside the loops (the house style of kernels).
  if (model.model === "gbm") {
    const meanLogStep = -(stepVolatility * stepVolatility) / 2;
    for (let path = 0; path < nPaths; ++path) {
      normals.fill(shocks);
      const offset = path * nPoints;
      let price = startPrice;
      values[offset] = price;
      for (let point = 1; point < nPoints; ++point) {
        price *= Math.exp(meanLogStep + stepVolatility * shocks[point - 1]);
        values[offset + point] = price;
      }
    }
  } else {
    const stepDeviation = startPrice * stepVolatility;
    for (let path = 0; path < nPaths; ++path) {
      normals.fill(shocks);
      const offset = path * nPoints;
      let price = startPrice;
      values[offset] = price;
      for (let point = 1; point < nPoints; ++point) {
        price += stepDeviation * shocks[point - 1];
        values[offset + point] = price;
      }
    }
  }
  return values;
}
