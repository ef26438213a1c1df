/**
 * Seeded random streams for the sandbox's world. Every random choice of the world draws from a
 * stream keyed by (seed, what, which…), so that any piece — one asset's day, one miner's answer to
 * one prompt — is generated on demand, in any order, and always the same.
 */

/**
 * A 32-bit seed for the stream named by `parts` (integers, e.g. asset index, day, uid) under the
 * world's `seed`. Each part is split into two 32-bit words (so unix times and negative numbers
 * are fine) and folded in with the murmur3 finalizer, so nearby keys give unrelated seeds.
 * Throws `RangeError` for a non-integer part.
 * @example streamSeed(7, 0, 20413) !== streamSeed(7, 0, 20414) // => true
 */
export function streamSeed(seed: number, ...parts: readonly number[]): number {
  let hash = mix32((Math.trunc(seed) >>> 0) ^ 0x9e3779b9);
  for (const part of parts) {
    if (!Number.isInteger(part)) {
      throw new RangeError(`streamSeed requires integer parts, got ${part}`);
    }
    const low = part >>> 0;
    const high = Math.floor(part / 4294967296) >>> 0;
    hash = mix32((hash ^ low) + 0x85ebca6b);
    hash = mix32((hash ^ high) + 0xc2b2ae35);
  }
  return hash >>> 0;
}

/** The murmur3 32-bit finalizer (avalanche mix). */
function mix32(value: number): number {
  let mixed = value >>> 0;
  mixed ^= mixed >>> 16;
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  mixed ^= mixed >>> 16;
  return mixed >>> 0;
}

/**
 * A fast seeded stream: sfc32 (Chris Doty-Humphrey's small fast counter generator, 128-bit state)
 * for uniforms, Marsaglia's polar method for standard normals. About 3× faster per normal than
 * `reference/random.ts` (no trigonometry, no closure per draw), which matters for the 289,000
 * normals of one prediction set; its statistics are tested in test/sandbox/world.
 * @example
 * const stream = new RandomStream(streamSeed(7, 1));
 * const draws = [stream.uniform(), stream.normal()];
 */
export class RandomStream {
  private a: number;
  private b: number;
  private c: number;
  private counter = 1;
  private spareNormal = 0;
  private hasSpareNormal = false;

  /** A stream from a 32-bit seed (other numbers are reduced modulo 2³²). */
  constructor(seed: number) {
    this.a = Math.trunc(seed) | 0;
    this.b = 0x9e3779b9 | 0;
    this.c = 0x243f6a88 | 0;
    for (let warmUp = 0; warmUp < 12; warmUp++) this.uniform();
  }

  /**
   * The next uniform number in [0, 1), 32 bits of resolution.
   * @example new RandomStream(1).uniform() // => a number in [0, 1)
   */
  uniform(): number {
    const sum = (((this.a + this.b) | 0) + this.counter) | 0;
    this.counter = (this.counter + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + sum) | 0;
    return (sum >>> 0) / 4294967296;
  }

  /**
   * The next standard normal number (polar method; the second of each pair is kept).
   * @example new RandomStream(1).normal() // => a standard normal draw
   */
  normal(): number {
    if (this.hasSpareNormal) {
      this.hasSpareNormal = false;
      return this.spareNormal;
    }
    for (;;) {
      const u = 2 * this.uniform() - 1;
      const v = 2 * this.uniform() - 1;
      const radiusSquared = u * u + v * v;
      if (radiusSquared >= 1 || radiusSquared === 0) continue;
      const factor = Math.sqrt((-2 * Math.log(radiusSquared)) / radiusSquared);
      this.spareNormal = v * factor;
      this.hasSpareNormal = true;
      return u * factor;
    }
  }

  /**
   * An integer uniform in [0, count).
   * @example new RandomStream(1).integer(6) // => 0…5
   */
  integer(count: number): number {
    return Math.floor(this.uniform() * count);
  }

  /**
   * A Poisson count with mean `mean` (Knuth's product method; meant for small means).
   * @example new RandomStream(1).poisson(0.5) // => usually 0 or 1
   */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let count = 0;
    let product = this.uniform();
    while (product > limit) {
      count++;
      product *= this.uniform();
    }
    return count;
  }

  /**
   * A Student-t draw with `degrees` degrees of freedom, scaled to unit variance (degrees > 2):
   * Z / √(χ²ᵥ / ν) × √((ν − 2) / ν), with χ²ᵥ as a sum of ν squared normals (ν an integer).
   * @example new RandomStream(1).studentT(3) // => a fat-tailed draw with variance 1
   */
  studentT(degrees: number): number {
    let chiSquared = 0;
    for (let index = 0; index < degrees; index++) {
      const normal = this.normal();
      chiSquared += normal * normal;
    }
    return (this.normal() / Math.sqrt(chiSquared / degrees)) * Math.sqrt((degrees - 2) / degrees);
  }
}
