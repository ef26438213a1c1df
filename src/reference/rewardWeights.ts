/**
 * Reward weights (the validator's scoring rules): a softmax of the smoothed scores within each competition, scaled
 * by the competition's share, then added up per miner across competitions.
 */

/**
 * Reward weight per miner of one competition: rewardShare × softmax(β·L), computed as the validator
 * does (subtract the largest β·L before exponentiating). With β < 0, a lower smoothed score L earns
 * more. The weights add up to `rewardShare`. Miners whose weight underflows to exactly 0 (e.g.
 * L = +Infinity) are left out, as the validator leaves them out.
 * Throws `RangeError` for a non-finite β or share.
 * @example softmaxRewardWeights(new Map([[1, 0], [2, 10]]), -0.1, 1) // => Map { 1 => 0.7310…, 2 => 0.2689… }
 */
export function softmaxRewardWeights(
  smoothedScores: ReadonlyMap<number, number>,
  softmaxBeta: number,
  rewardShare: number,
): Map<number, number> {
  if (!Number.isFinite(softmaxBeta)) {
    throw new RangeError(`softmaxRewardWeights requires a finite softmaxBeta, got ${softmaxBeta}`);
  }
  if (!Number.isFinite(rewardShare)) {
    throw new RangeError(`softmaxRewardWeights requires a finite rewardShare, got ${rewardShare}`);
  }
  const scaled = new Map<number, number>();
  for (const [minerUid, score] of smoothedScores) scaled.set(minerUid, softmaxBeta * score);
  const largest = Math.max(...scaled.values());
  let exponentialSum = 0;
  const exponentials = new Map<number, number>();
  for (const [minerUid, value] of scaled) {
    const exponential = Math.exp(value - largest);
    exponentials.set(minerUid, exponential);
    exponentialSum += exponential;
  }
  const weights = new Map<number, number>();
  for (const [minerUid, exponential] of exponentials) {
    const weight = (exponential / exponentialSum) * rewardShare;
    if (weight > 0) weights.set(minerUid, weight);
  }
  return weights;
}

/**
 * A miner's total reward weight: the sum of its weights over the competitions it is in.
 * @example combineRewardWeights([new Map([[1, 0.2]]), new Map([[1, 0.1], [2, 0.3]])]) // => Map { 1 => 0.3…, 2 => 0.3 }
 */
export function combineRewardWeights(
  perCompetition: readonly ReadonlyMap<number, number>[],
): Map<number, number> {
  const totals = new Map<number, number>();
  for (const weights of perCompetition) {
    for (const [minerUid, weight] of weights) {
      totals.set(minerUid, (totals.get(minerUid) ?? 0) + weight);
    }
  }
  return totals;
}
