/**
 * A small seeded random number generator for reproducible simulations (tests, the sandbox):
 * mulberry32 for uniforms and the Box–Muller transform for standard normals.
 */

/** A seeded stream of random numbers, as returned by {@link createRandom}. */
export interface Random {
  /**
   * The next uniform number in [0, 1), with 32 bits of resolution.
   * @example createRandom(1).uniform() // => a number in [0, 1)
   */
  uniform(): number;
  /**
   * The next standard normal number (mean 0, variance 1).
   * @example createRandom(1).normal() // => a standard normal draw
   */
  normal(): number;
}

/**
 * A deterministic random stream from a 32-bit integer seed (other numbers are reduced modulo 2³²).
 * Uniforms: mulberry32 (Tommy Ettinger's 32-bit generator, period 2³²). Normals: Box–Muller,
 * z₀ = √(−2 ln u₁)·cos(2πu₂), z₁ = √(−2 ln u₁)·sin(2πu₂) with u₁ = 1 − uniform() ∈ (0, 1]; the
 * second normal of each pair is kept for the next call. The same seed always gives the same stream.
 * Throws `RangeError` for a non-finite seed.
 * @example
 * const random = createRandom(42);
 * const draws = [random.uniform(), random.normal()];
 */
export function createRandom(seed: number): Random {
  if (!Number.isFinite(seed)) {
    throw new RangeError(`createRandom requires a finite seed, got ${seed}`);
  }
  let state = Math.trunc(seed) >>> 0;
  let spareNormal: number | undefined;

  function uniform(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  }

  function normal(): number {
    if (spareNormal !== undefined) {
      const value = spareNormal;
      spareNormal = undefined;
      return value;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
    const angle = 2 * Math.PI * uniform();
    spareNormal = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  }

  return { uniform, normal };
}
