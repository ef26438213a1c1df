import { describe, expect, it } from "vitest";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { promptCrpsDetails } from "../../src/reference/promptCrps.ts";
import { createRandom } from "../../src/reference/random.ts";
import {
  blockVolatilitiesOf,
  volatilityCrps,
  volatilityCrpsDetails,
} from "../../src/reference/volatilityCrps.ts";
import { SCORING_INTERVALS_1H, VOLATILITY_BLOCKS_1H } from "../../src/domain/intervals.ts";
import { numpyAvailable, runPython, toJsonNumbers } from "./python.ts";

/**
 * The validator's volatility CRPS (synthdataco/synth-subnet #323) written independently in numpy:
 * `block_volatilities` with `nanstd(ddof=1)` on the blocks with at least two observed returns, the
 * ensemble CRPS by its definition mean|x−y| − ½·mean|x−x'| (NaN members left out).
 */
const NUMPY_VOLATILITY_CRPS = `
def block_volatilities(paths, k):
    returns = np.diff(paths, axis=1) / paths[:, :-1] * 10000
    n = returns.shape[1] // k
    blocks = returns[:, : n * k].reshape(returns.shape[0], n, k)
    scorable = np.sum(~np.isnan(blocks), axis=2) >= 2
    out = np.full(scorable.shape, np.nan)
    out[scorable] = np.nanstd(blocks[scorable], axis=1, ddof=1)
    return out

def crps(y, x):
    x = x[~np.isnan(x)]
    return np.mean(np.abs(x - y)) - 0.5 * np.mean(np.abs(x[:, None] - x[None, :]))

def volatility_crps(sims, real, increment):
    total = 0.0
    for seconds, weight in [(3600, 5.25 / 3), (900, 5.25 / 12), (300, 5.25 / 36)]:
        k = int(seconds / increment)
        simulated = block_volatilities(sims, k)
        realized = block_volatilities(real.reshape(1, -1), k)[0]
        observed = np.flatnonzero(~np.isnan(realized))
        if observed.size == 0:
            continue
        total += weight * float(sum(crps(realized[b], simulated[:, b]) for b in observed))
    return total

print(json.dumps([volatility_crps(np.array(c['sims'], dtype=float), np.array(c['real'], dtype=float), 60) for c in data]))
`;

/** `pathCount` GBM paths of 61 one-minute prices from 2,000, rounded to 8 significant digits. */
function hourPaths(seed: number, pathCount: number, annualVolatility = 0.6): number[][] {
  return simulateGbmPaths(createRandom(seed), {
    startPrice: 2000,
    annualVolatility,
    stepMinutes: 1,
    stepCount: 60,
    pathCount,
  }).map((path) => path.map((price) => Number(price.toPrecision(8))));
}

/** 61 prices from 100 whose 60 returns alternate +a, −a basis points (+a first). */
function alternating(bps: number): number[] {
  const prices = [100];
  for (let j = 0; j < 60; j++) {
    prices.push(prices[j] * (1 + (j % 2 === 0 ? bps : -bps) / 10000));
  }
  return prices;
}

describe("volatilityCrps", () => {
  it("blockVolatilitiesOf gives the validator's test value and skips blocks with fewer than two observed returns", () => {
    expect(blockVolatilitiesOf([100, 101, 102], 2)).toEqual([0.7001057239470748]);
    // 61 prices, blocks of 5: 12 blocks; prices 6–9 missing leave block 1 (returns 5→6 … 9→10)
    // no observed return: NaN, as in the validator's test_block_volatilities_nan_returns.
    const prices = hourPaths(1, 1)[0];
    for (let index = 6; index < 10; index++) prices[index] = NaN;
    const volatilities = blockVolatilitiesOf(prices, 5);
    expect(volatilities).toHaveLength(12);
    expect(volatilities[0]).toBeGreaterThan(0);
    expect(volatilities[1]).toBeNaN();
    expect(volatilities[2]).toBeGreaterThan(0);
    // The returns after the last whole block are dropped: 60 returns in blocks of 7 → 8 blocks.
    expect(blockVolatilitiesOf(hourPaths(2, 1)[0], 7)).toHaveLength(8);
  });

  it("volatilityCrps matches a case worked by hand: each block size adds λ/3 × its mean CRPS per block", () => {
    // Realized returns alternate ±10 bps; two simulated paths, ±10 and ±20 bps.
    // Sample std of a block: 5 returns (3 of one sign): mean ±2, M₂ = 500 − 5·4 = 480, σ₅ = √120;
    // 15 returns (8 and 7): mean ±2/3, M₂ = 1500 − 15·4/9, σ₁₅ = √(320/3); 60 returns (30 and 30):
    // mean 0, σ₆₀ = √(6000/59). The ±20 path has twice each σ. Two members x₁ = y < x₂ = 2y:
    // CRPS = (0 + y)/2 − ½·(2y/4) = y/4. So 60 min: 1.75·σ₆₀/4; 15 min: 0.4375·4·σ₁₅/4; 5 min:
    // (5.25/36)·12·σ₅/4: in all 0.4375·(σ₆₀ + σ₁₅ + σ₅).
    const sims = [alternating(10), alternating(20)];
    const realized = alternating(10);
    const [s60, s15, s5] = [Math.sqrt(6000 / 59), Math.sqrt(320 / 3), Math.sqrt(120)];
    const details = volatilityCrpsDetails(sims, realized, 60);
    expect(
      details.blocks.map((block) => [block.name, block.stepsPerBlock, block.blockCount]),
    ).toEqual([
      ["vol_60min", 60, 1],
      ["vol_15min", 15, 4],
      ["vol_5min", 5, 12],
    ]);
    const expectedSums = [s60 / 4, s15, 3 * s5];
    details.blocks.forEach((block, index) => {
      expect(Math.abs(block.crpsSum - expectedSums[index])).toBeLessThan(
        1e-9 * expectedSums[index],
      );
    });
    const expected = 0.4375 * (s60 + s15 + s5);
    expect(Math.abs(details.score - expected)).toBeLessThan(1e-9 * expected);
    expect(volatilityCrps(sims, realized, 60)).toBe(details.score);

    // The second half of the realized path missing (prices 31…60, as the validator's
    // test_calculate_vol_crps_for_miner_skips_unobserved_blocks): the 60-minute block keeps 30
    // returns (σ = √(3000/29), between the two members: CRPS still σ₆₀/4 of the ±10 path),
    // 15 minutes keeps 2 blocks, 5 minutes 6: 0.4375·σ₆₀ + 0.21875·(σ₁₅ + σ₅).
    const half = realized.map((price, index) => (index > 30 ? NaN : price));
    const halfDetails = volatilityCrpsDetails(sims, half, 60);
    expect(halfDetails.blocks.map((block) => block.blockCount)).toEqual([1, 2, 6]);
    const halfExpected = 0.4375 * s60 + 0.21875 * (s15 + s5);
    expect(Math.abs(halfDetails.score - halfExpected)).toBeLessThan(1e-9 * halfExpected);
  });

  it("volatilityCrps is −1 for a zero or non-finite price and for an observed realized block the simulations lack", () => {
    const sims = hourPaths(3, 20);
    const realized = hourPaths(4, 1)[0];
    const zero = sims.map((path) => [...path]);
    zero[2][30] = 0;
    expect(volatilityCrpsDetails(zero, realized, 60)).toEqual({
      score: -1,
      invalidReason: "zero price encountered in simulation runs",
      blocks: [],
    });
    // 121 realized prices against 61 simulated: the second 60-minute block has no counterpart.
    const longer = [...realized, ...hourPaths(5, 1)[0]];
    expect(volatilityCrpsDetails(sims, longer, 60).invalidReason).toBe(
      'volatility block size "vol_60min": 2 realized blocks against 1 simulated blocks per path',
    );
    // No observed block at all: every size adds nothing.
    const missing = realized.map((price, index) => (index % 2 === 0 ? price : NaN));
    expect(volatilityCrps(sims, missing, 60)).toBe(0);
    expect(() => volatilityCrps(sims, realized, 600)).toThrow(
      'volatilityCrpsDetails requires every block to span at least one time increment: block "vol_5min" is 300 s with 600 s steps',
    );
  });

  it.skipIf(!numpyAvailable)(
    "volatilityCrps agrees with an independent numpy implementation to 1e-12 relative",
    () => {
      const cases = [
        { sims: hourPaths(11, 200), real: hourPaths(12, 1)[0] },
        { sims: hourPaths(13, 150, 0.3), real: hourPaths(14, 1, 1.2)[0] },
        {
          sims: hourPaths(15, 100),
          real: hourPaths(16, 1)[0].map((price, index) =>
            [2, 3, 17, 30, 31, 32, 33, 34, 58].includes(index) ? NaN : price,
          ),
        },
      ];
      const expected = runPython(
        NUMPY_VOLATILITY_CRPS,
        cases.map((item) => ({ sims: item.sims, real: toJsonNumbers(item.real) })),
      ) as number[];
      cases.forEach((item, index) => {
        const got = volatilityCrps(item.sims, item.real, 60, VOLATILITY_BLOCKS_1H);
        expect(got).toBeGreaterThan(0);
        expect(Math.abs(got - expected[index])).toBeLessThan(1e-12 * expected[index]);
      });
    },
  );
});

describe("promptCrps with the dated rules", () => {
  it("promptCrps adds the volatility CRPS to the price CRPS when asked", () => {
    const sims = hourPaths(21, 50);
    const realized = hourPaths(22, 1)[0];
    const price = promptCrpsDetails(sims, realized, 60, SCORING_INTERVALS_1H);
    expect(price.volatility).toBeUndefined();
    expect(price.priceScore).toBe(price.score);
    const total = promptCrpsDetails(sims, realized, 60, SCORING_INTERVALS_1H, { volatility: true });
    expect(total.priceScore).toBe(price.score);
    expect(total.volatility?.score).toBe(volatilityCrps(sims, realized, 60));
    expect(total.score).toBe(price.score + volatilityCrps(sims, realized, 60));
    // The price CRPS is −1 first: the volatility CRPS is not computed.
    const zero = sims.map((path) => [...path]);
    zero[0][5] = 0;
    const invalid = promptCrpsDetails(zero, realized, 60, SCORING_INTERVALS_1H, {
      volatility: true,
    });
    expect([invalid.score, invalid.priceScore, invalid.volatility]).toEqual([-1, -1, undefined]);
  });

  it("promptCrps before 2026-03-11 scores _gaps intervals as ordinary intervals", () => {
    const sims = hourPaths(31, 40);
    const realized = hourPaths(32, 1)[0];
    const sumOf = (details: ReturnType<typeof promptCrpsDetails>, name: string) =>
      details.intervals.find((interval) => interval.name === name)!;
    const before = promptCrpsDetails(sims, realized, 60, SCORING_INTERVALS_1H, {
      gapsFirstChangeOnly: false,
    });
    const after = promptCrpsDetails(sims, realized, 60, SCORING_INTERVALS_1H);
    // The validator's fix (#227) names three duplicates: 0_5min_gaps = 5min, 0_15min_gaps = 15min,
    // 0_30min_gaps = 30min, each term for term.
    for (const [gaps, ordinary] of [
      ["0_5min_gaps", "5min"],
      ["0_15min_gaps", "15min"],
      ["0_30min_gaps", "30min"],
    ]) {
      expect(sumOf(before, gaps)).toEqual({ ...sumOf(before, ordinary), name: gaps });
    }
    // 0_10min_gaps: 6 changes before, 1 after; 0_35min_gaps: one change either way (grid 0, 35).
    expect(sumOf(before, "0_10min_gaps").termCount).toBe(6);
    expect(sumOf(after, "0_10min_gaps").termCount).toBe(1);
    expect(sumOf(before, "0_35min_gaps")).toEqual(sumOf(after, "0_35min_gaps"));
    // 12 gap intervals: 12 + 6 + 4 + 3 + 2 + 2 + 1 × 6 = 35 terms instead of 12.
    const termsOf = (details: ReturnType<typeof promptCrpsDetails>) =>
      details.intervals.reduce((sum, interval) => sum + interval.termCount, 0);
    expect([termsOf(before), termsOf(after)]).toEqual([144, 121]);
    expect(before.score).toBeGreaterThan(after.score);
  });
});
