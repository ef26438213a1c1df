/**
 * The fast path of `pathBlockVolatilities` (pathBlockVolatilities.ts) for block lengths that
 * divide one another (5 | 15 | 60 returns for crypto-1h): every path's block volatilities from
 * one read of its returns, the longer blocks merged from the shorter ones. Traded clarity for
 * speed; the readable form is the two-pass of pathBlockVolatilities.ts.
 * Over 300 lines because the loops are written out twice, for four paths side by side and for one
 * path (a branch outside the loop, not inside it), each for the shortest blocks and the merges.
 */

/**
 * Scratch, grown when a call needs more: per rank of the sizes by block length, its first term,
 * block count and ratio to the next shorter size (integers, so that indices stay small integers
 * in the loops), and its 1/(k − 1); the merge coefficients; per block of the four paths being
 * read, their means and sums of squared deviations. Module-level, reused by every call: the
 * kernel runs to completion without calling out.
 */
let ranksScratch = new Int32Array(12);
let inverseDofScratch = new Float64Array(4);
let coefficientsScratch = new Float64Array(64);
let meansScratch = new Float64Array(128);
let squaresScratch = new Float64Array(128);
/**
 * The largest volatility so far of the blocks written in functions of their own: the longer
 * blocks' merges, and every block of a group of four paths.
 */
const LONGER_LARGEST = new Float64Array(1);

/**
 * Every path's block volatilities, as `pathBlockVolatilities` with `merge` (its checks done):
 * step-major `returns` of `nPaths` paths, block lengths `stepsPerBlock` (caller's order) that
 * divide one another in the order `order` (shortest first), `terms` blocks in all, written
 * term-major into `out`. Per group of four paths (their returns of a step are adjacent; four
 * independent sums measured ~1.4× faster than one path at a time, bench/README.md), the shortest
 * blocks in one pass shifted by their first return, then each longer size merged from the next
 * shorter one (Chan, Golub & LeVeque 1983); the paths left over one by one. A path (for groups,
 * the group's four) with a volatility that is not finite gets `redo[path] = 1` (its values are
 * then not to be trusted: the caller takes it again two-pass); returns how many were flagged, and
 * writes the largest finite volatility into `largestOut[0]` (a bound for the sorts).
 * O(nPaths × returnCount).
 * @example
 * const returns = Float64Array.of(100, -100, (1 / 101) * 10000, (-1 / 99) * 10000);
 * const out = new Float64Array(6);
 * mergedBlockVolatilities(returns, 2, [2, 1], Int32Array.of(1, 0), 3, out, new Uint8Array(2),
 *   new Float64Array(1))
 * // => 2 (blocks of one return are NaN); out[0], out[1] => 0.7001057239470748, 0.7142492739258158
 */
export function mergedBlockVolatilities(
  returns: Float64Array,
  nPaths: number,
  stepsPerBlock: readonly number[],
  order: Int32Array,
  terms: number,
  out: Float64Array,
  redo: Uint8Array,
  largestOut: Float64Array,
): number {
  const sizeCount = stepsPerBlock.length;
  const returnCount = returns.length / nPaths;
  if (ranksScratch.length < 3 * sizeCount) {
    ranksScratch = new Int32Array(3 * sizeCount);
    inverseDofScratch = new Float64Array(sizeCount);
  }
  const ranks = ranksScratch;
  let coefficientCount = 0;
  for (let rank = 0; rank < sizeCount; rank++) {
    const size = order[rank];
    const steps = stepsPerBlock[size];
    let first = 0;
    for (let before = 0; before < size; before++) {
      first += Math.floor(returnCount / stepsPerBlock[before]);
    }
    const ratio = rank === 0 ? 1 : steps / stepsPerBlock[order[rank - 1]];
    ranks[3 * rank] = first;
    ranks[3 * rank + 1] = Math.floor(returnCount / steps);
    ranks[3 * rank + 2] = ratio;
    inverseDofScratch[rank] = 1 / (steps - 1);
    if (rank > 0) coefficientCount += 2 * ratio;
  }
  // Merging part j ≥ 1 of a longer block (j shorter blocks of s returns merged, then the
  // (j+1)-th): the mean moves by δ/(j+1), M₂ grows by M₂ⱼ + δ²·j·s/(j+1).
  if (coefficientsScratch.length < coefficientCount) {
    coefficientsScratch = new Float64Array(coefficientCount);
  }
  const coefficients = coefficientsScratch;
  for (let rank = 1, at = 0; rank < sizeCount; rank++) {
    const shorter = stepsPerBlock[order[rank - 1]];
    for (let part = 0; part < ranks[3 * rank + 2]; part++, at += 2) {
      coefficients[at] = 1 / (part + 1);
      coefficients[at + 1] = (part * shorter) / (part + 1);
    }
  }
  // Per path (lane) of the group being read: block k's mean and M₂ at 4·k + lane.
  if (meansScratch.length < 4 * terms) {
    meansScratch = new Float64Array(4 * terms);
    squaresScratch = new Float64Array(4 * terms);
  }
  const means = meansScratch;
  const squares = squaresScratch;
  const finestSteps = stepsPerBlock[order[0]];
  const finestFirst = ranks[0];
  const finestBlocks = ranks[1];
  const finestInverseDof = inverseDofScratch[0];
  const inverseSteps = 1 / finestSteps;
  const stride = finestSteps * nPaths;
  const groupsEnd = nPaths - (nPaths % 4);
  let flagged = 0;
  // The largest finest-block volatility of the paths taken one by one; the rest go through
  // LONGER_LARGEST.
  let largest = 0;
  LONGER_LARGEST[0] = 0;
  let path = 0;
  // Four paths side by side (their returns of a step are adjacent): four independent sums, ~1.4×
  // faster than one path at a time (bench/README.md).
  for (; path < groupsEnd; path += 4) {
    let check = 0;
    for (let block = 0, start = path; block < finestBlocks; block++, start += stride) {
      const first0 = returns[start];
      const first1 = returns[start + 1];
      const first2 = returns[start + 2];
      const first3 = returns[start + 3];
      let sum0 = 0;
      let sum1 = 0;
      let sum2 = 0;
      let sum3 = 0;
      let squares0 = 0;
      let squares1 = 0;
      let squares2 = 0;
      let squares3 = 0;
      for (let at = start + nPaths, end = start + stride; at < end; at += nPaths) {
        const deviation0 = returns[at] - first0;
        const deviation1 = returns[at + 1] - first1;
        const deviation2 = returns[at + 2] - first2;
        const deviation3 = returns[at + 3] - first3;
        sum0 += deviation0;
        sum1 += deviation1;
        sum2 += deviation2;
        sum3 += deviation3;
        squares0 += deviation0 * deviation0;
        squares1 += deviation1 * deviation1;
        squares2 += deviation2 * deviation2;
        squares3 += deviation3 * deviation3;
      }
      const squared0 = Math.max(0, squares0 - sum0 * sum0 * inverseSteps);
      const squared1 = Math.max(0, squares1 - sum1 * sum1 * inverseSteps);
      const squared2 = Math.max(0, squares2 - sum2 * sum2 * inverseSteps);
      const squared3 = Math.max(0, squares3 - sum3 * sum3 * inverseSteps);
      check += storeFourBlocks(
        means,
        squares,
        4 * block,
        out,
        (finestFirst + block) * nPaths + path,
        finestInverseDof,
        first0 + sum0 * inverseSteps,
        first1 + sum1 * inverseSteps,
        first2 + sum2 * inverseSteps,
        first3 + sum3 * inverseSteps,
        squared0,
        squared1,
        squared2,
        squared3,
      );
    }
    check += mergeLonger(sizeCount, 4, out, nPaths, path);
    if (!(check - check === 0)) {
      redo[path] = redo[path + 1] = redo[path + 2] = redo[path + 3] = 1;
      flagged += 4;
    }
  }
  for (; path < nPaths; path++) {
    let check = 0;
    for (let block = 0, start = path; block < finestBlocks; block++, start += stride) {
      const first = returns[start];
      let sum = 0;
      let shiftedSquares = 0;
      for (let at = start + nPaths, end = start + stride; at < end; at += nPaths) {
        const deviation = returns[at] - first;
        sum += deviation;
        shiftedSquares += deviation * deviation;
      }
      const squared = Math.max(0, shiftedSquares - sum * sum * inverseSteps);
      means[4 * block] = first + sum * inverseSteps;
      squares[4 * block] = squared;
      const volatility = Math.sqrt(squared * finestInverseDof);
      out[(finestFirst + block) * nPaths + path] = volatility;
      check += volatility;
      largest = volatility > largest ? volatility : largest;
    }
    check += mergeLonger(sizeCount, 1, out, nPaths, path);
    if (!(check - check === 0)) {
      redo[path] = 1;
      flagged++;
    }
  }
  largestOut[0] = Math.max(largest, LONGER_LARGEST[0]);
  return flagged;
}

/**
 * The longer sizes of one path (`lanes` 1: lane 0 of the stats, path `path` of `out`) or of the
 * four paths of a group (`lanes` 4: lanes 0–3, paths path … path + 3), from the scratch that
 * {@link mergedBlockVolatilities} filled: each size's stats after the shorter ones' (the finest
 * blocks first) in means/squares, merged from the size before (from `source` on). The lanes are
 * chosen once per size, outside the loop over its blocks.
 */
function mergeLonger(
  sizeCount: number,
  lanes: 1 | 4,
  out: Float64Array,
  nPaths: number,
  path: number,
): number {
  const ranks = ranksScratch;
  const coefficients = coefficientsScratch;
  const means = meansScratch;
  const squares = squaresScratch;
  let check = 0;
  for (let rank = 1, source = 0, level = ranks[1], c = 0; rank < sizeCount; rank++) {
    const first = ranks[3 * rank];
    const blocks = ranks[3 * rank + 1];
    const ratio = ranks[3 * rank + 2];
    const inverseDof = inverseDofScratch[rank];
    if (lanes === 4) {
      for (let block = 0, child = 4 * source; block < blocks; block++) {
        let mean0 = means[child];
        let mean1 = means[child + 1];
        let mean2 = means[child + 2];
        let mean3 = means[child + 3];
        let squared0 = squares[child];
        let squared1 = squares[child + 1];
        let squared2 = squares[child + 2];
        let squared3 = squares[child + 3];
        child += 4;
        for (let part = 1; part < ratio; part++, child += 4) {
          const shift = coefficients[c + 2 * part];
          const spread = coefficients[c + 2 * part + 1];
          const delta0 = means[child] - mean0;
          const delta1 = means[child + 1] - mean1;
          const delta2 = means[child + 2] - mean2;
          const delta3 = means[child + 3] - mean3;
          mean0 += delta0 * shift;
          mean1 += delta1 * shift;
          mean2 += delta2 * shift;
          mean3 += delta3 * shift;
          squared0 += squares[child] + delta0 * delta0 * spread;
          squared1 += squares[child + 1] + delta1 * delta1 * spread;
          squared2 += squares[child + 2] + delta2 * delta2 * spread;
          squared3 += squares[child + 3] + delta3 * delta3 * spread;
        }
        check += storeFourBlocks(
          means,
          squares,
          4 * (level + block),
          out,
          (first + block) * nPaths + path,
          inverseDof,
          mean0,
          mean1,
          mean2,
          mean3,
          squared0,
          squared1,
          squared2,
          squared3,
        );
      }
    } else {
      for (let block = 0, child = 4 * source; block < blocks; block++) {
        let mean = means[child];
        let squared = squares[child];
        child += 4;
        for (let part = 1; part < ratio; part++, child += 4) {
          const delta = means[child] - mean;
          mean += delta * coefficients[c + 2 * part];
          squared += squares[child] + delta * delta * coefficients[c + 2 * part + 1];
        }
        means[4 * (level + block)] = mean;
        squares[4 * (level + block)] = squared;
        const volatility = Math.sqrt(squared * inverseDof);
        out[(first + block) * nPaths + path] = volatility;
        check += volatility;
        if (volatility > LONGER_LARGEST[0]) LONGER_LARGEST[0] = volatility;
      }
    }
    source = level;
    level += blocks;
    c += 2 * ratio;
  }
  return check;
}

/**
 * One block of the four paths of a group: stores their means and sums of squared deviations at
 * `stat` … `stat + 3`, writes their volatilities √(M₂/(k − 1)) at `out[at]` … `out[at + 3]`, raises
 * LONGER_LARGEST to the largest of them, and returns their sum (for the finiteness check).
 */
function storeFourBlocks(
  means: Float64Array,
  squares: Float64Array,
  stat: number,
  out: Float64Array,
  at: number,
  inverseDof: number,
  mean0: number,
  mean1: number,
  mean2: number,
  mean3: number,
  squared0: number,
  squared1: number,
  squared2: number,
  squared3: number,
): number {
  means[stat] = mean0;
  means[stat + 1] = mean1;
  means[stat + 2] = mean2;
  means[stat + 3] = mean3;
  squares[stat] = squared0;
  squares[stat + 1] = squared1;
  squares[stat + 2] = squared2;
  squares[stat + 3] = squared3;
  const volatility0 = Math.sqrt(squared0 * inverseDof);
  const volatility1 = Math.sqrt(squared1 * inverseDof);
  const volatility2 = Math.sqrt(squared2 * inverseDof);
  const volatility3 = Math.sqrt(squared3 * inverseDof);
  out[at] = volatility0;
  out[at + 1] = volatility1;
  out[at + 2] = volatility2;
  out[at + 3] = volatility3;
  let top = LONGER_LARGEST[0];
  top = volatility0 > top ? volatility0 : top;
  top = volatility1 > top ? volatility1 : top;
  top = volatility2 > top ? volatility2 : top;
  LONGER_LARGEST[0] = volatility3 > top ? volatility3 : top;
  return volatility0 + volatility1 + volatility2 + volatility3;
}
