/**
 * Reward weights (the validator's scoring rules): a softmax of the smoothed scores within each competition, scaled
 * by the competition's share, added up per miner across the competitions of an era.
 */

import type { CompetitionName } from "../domain/competitions.ts";
import { CURRENT_COMPETITIONS, TWO_COMPETITIONS } from "../domain/competitions.ts";
import { competitionParameters } from "./scoringTarget.ts";

/**
 * Options of {@link rewardWeights}: the competition's softmax β and reward share.
 * @example const options: RewardWeightOptions = { beta: -0.15, share: 1 / 3 };
 */
export interface RewardWeightOptions {
  /** β of softmax(β·L); negative, so that a lower smoothed score earns more. */
  readonly beta: number;
  /** The competition's share of all rewards (1/3 now, 0.5 before 2026-06-23). */
  readonly share: number;
}

/**
 * Reward weight per miner of one competition: share × softmax(β·L) over its smoothed scores L,
 * computed as the validator's `compute_softmax` does (subtract the largest β·L, exponentiate,
 * divide by the sum). The weights add up to `share`. Miners whose weight is not positive (it
 * underflows to 0, e.g. L = +Infinity) are left out, as the validator leaves them out.
 * Agreement: the same operations in the same order as `src/reference/rewardWeights.ts`, so equal
 * to it bit for bit; numpy sums the exponentials pairwise, so against numpy ~1e-16 relative.
 * Throws `RangeError` for a non-finite β or share.
 * @param smoothed - each miner's smoothed score, by miner id.
 * @param options - the competition's β and share.
 * @example rewardWeights(new Map([[1, 0], [2, 10]]), { beta: -0.1, share: 1 }) // => Map { 1 => 0.7310…, 2 => 0.2689… }
 */
export function rewardWeights(
  smoothed: ReadonlyMap<number, number>,
  options: RewardWeightOptions,
): Map<number, number> {
  const { beta, share } = options;
  if (!Number.isFinite(beta)) {
    throw new RangeError(`rewardWeights requires a finite beta, got ${beta}`);
  }
  if (!Number.isFinite(share)) {
    throw new RangeError(`rewardWeights requires a finite share, got ${share}`);
  }
  const minerUids: number[] = [];
  const scaled: number[] = [];
  let largest = -Infinity;
  for (const [minerUid, score] of smoothed) {
    const value = beta * score;
    minerUids.push(minerUid);
    scaled.push(value);
    largest = Math.max(largest, value);
  }
  let exponentialSum = 0;
  for (let index = 0; index < scaled.length; index++) {
    scaled[index] = Math.exp(scaled[index] - largest);
    exponentialSum += scaled[index];
  }
  const weights = new Map<number, number>();
  for (let index = 0; index < scaled.length; index++) {
    const weight = (scaled[index] / exponentialSum) * share;
    if (weight > 0) weights.set(minerUids[index], weight);
  }
  return weights;
}

/**
 * Reward weights of every competition of an era and their per-miner totals, as returned by
 * {@link combinedRewardWeights}.
 * @example combinedRewardWeights(new Map([["crypto-1h", smoothed]])).total.get(17)
 */
export interface CombinedRewardWeights {
  /** Each competition's weights ({@link rewardWeights} with its β and share). */
  readonly perCompetition: Map<CompetitionName, Map<number, number>>;
  /** Per miner, the sum of its weights over the competitions (in the order given). */
  readonly total: Map<number, number>;
}

/**
 * Reward weights across the competitions of one era: each competition's smoothed scores go
 * through {@link rewardWeights} with that competition's β and share (crypto-1h β −0.3, crypto-24h
 * and com-equ-24h β −0.15, each × 1/3; before 2026-06-23 `low` β −0.1 and `high` β −0.2, each
 * × 0.5), and a miner's weights are added up across competitions (the validator's
 * `combine_moving_averages`), in the order of `smoothedByCompetition`.
 * Throws `RangeError` for an unknown competition or competitions of both eras together.
 * @param smoothedByCompetition - per competition of one era, each miner's smoothed score (by miner
 *   id).
 * @example
 * combinedRewardWeights(new Map([["crypto-1h", oneHour], ["crypto-24h", day], ["com-equ-24h", equities]])).total
 */
export function combinedRewardWeights(
  smoothedByCompetition: ReadonlyMap<CompetitionName, ReadonlyMap<number, number>>,
): CombinedRewardWeights {
  const names = [...smoothedByCompetition.keys()];
  const current = names.filter((name) => CURRENT_COMPETITIONS.some((item) => item.name === name));
  const earlier = names.filter((name) => TWO_COMPETITIONS.some((item) => item.name === name));
  if (current.length > 0 && earlier.length > 0) {
    throw new RangeError(
      `combinedRewardWeights requires the competitions of one era, got ${current.join(", ")} (from 2026-06-23) with ${earlier.join(", ")} (before)`,
    );
  }
  const perCompetition = new Map<CompetitionName, Map<number, number>>();
  const total = new Map<number, number>();
  for (const [name, smoothed] of smoothedByCompetition) {
    const parameters = competitionParameters(name);
    const weights = rewardWeights(smoothed, {
      beta: parameters.softmaxBeta,
      share: parameters.rewardShare,
    });
    perCompetition.set(name, weights);
    for (const [minerUid, weight] of weights) {
      total.set(minerUid, (total.get(minerUid) ?? 0) + weight);
    }
  }
  return { perCompetition, total };
}
