/**
 * European option prices for many strikes at once as ensemble means of the payoffs at the
 * terminal price, from the sorted terminal prices in one sweep per side.
 */

import { ascendingOrder } from "./ascendingOrder.ts";
import { requireEstimatesLength, requireSortedAscending } from "./entryChecks.ts";
import { allFiniteSorted } from "./sortedCounts.ts";
import { createEstimates, meanStandardErrorFromSums, type Estimates } from "./stderr.ts";

/**
 * Call and put prices per strike, with their standard errors (sample std of the discounted
 * payoffs / √n).
 * @example const { calls, puts } = optionPricesSorted(sortedTerminal, strikes);
 */
export interface OptionEstimates {
  /** discountFactor × mean(max(S_T − K, 0)). */
  readonly calls: Estimates;
  /** discountFactor × mean(max(K − S_T, 0)). */
  readonly puts: Estimates;
}

/**
 * An {@link OptionEstimates} buffer for `nStrikes` strikes.
 * @param nStrikes - the number of strikes.
 * @example createOptionEstimates(21).calls.values.length // => 21
 */
export function createOptionEstimates(nStrikes: number): OptionEstimates {
  return { calls: createEstimates(nStrikes), puts: createEstimates(nStrikes) };
}

/**
 * Call and put prices at every strike: discountFactor × mean(max(S_T − K, 0)) and
 * discountFactor × mean(max(K − S_T, 0)) over the ascending terminal prices `sorted`
 * (undiscounted by default, as the service reports them), so call − put = mean(S_T) − K up to
 * rounding.
 *
 * Method: strikes are visited in order, puts upward and calls downward, with running counts and
 * payoff sums. Moving from strike K to K' adds m·|K' − K| to the payoff sum of the m prices
 * already in the money, 2|K' − K|·sum + m·(K' − K)² to the sum of squared payoffs, then the
 * payoffs of the prices that K' brings into the money. Every term is non-negative, so nothing
 * cancels: the result is as accurate as summing each strike's payoffs directly, in
 * O(n + S log S) for S strikes instead of O(n·S).
 *
 * NaN for a non-finite strike; for every strike when `sorted` is empty or holds a non-finite
 * price, or `discountFactor` is negative or not finite.
 * Throws `RangeError` when `sorted` is not ascending or `out` has the wrong length.
 * @param sorted - the terminal prices, ascending (NaN last, as `Float64Array.prototype.sort` leaves
 *   them).
 * @param strikes - the strike prices, any order.
 * @param discountFactor - what each mean payoff is multiplied by, ≥ 0; default 1 (undiscounted).
 * @param out - where to write, one entry per strike in each of calls and puts ({@link
 *   createOptionEstimates}); a new buffer by default.
 * @example
 * optionPricesSorted(Float64Array.of(90, 95, 100, 105, 110, 120), Float64Array.of(100))
 * // => { calls: { values: [5.8333…], … }, puts: { values: [2.5], … } }
 */
export function optionPricesSorted(
  sorted: Float64Array,
  strikes: Float64Array,
  discountFactor = 1,
  out: OptionEstimates = createOptionEstimates(strikes.length),
): OptionEstimates {
  const operation = "optionPricesSorted";
  requireSortedAscending(operation, "sorted", sorted);
  const nStrikes = strikes.length;
  requireEstimatesLength(operation, "out.calls", out.calls, nStrikes);
  requireEstimatesLength(operation, "out.puts", out.puts, nStrikes);
  out.calls.values.fill(NaN);
  out.calls.standardErrors.fill(NaN);
  out.puts.values.fill(NaN);
  out.puts.standardErrors.fill(NaN);
  if (!allFiniteSorted(sorted) || !(discountFactor >= 0 && discountFactor < Infinity)) return out;

  const order = ascendingOrder(strikes);
  let first = 0; // finite strikes are order[first .. last − 1]
  while (first < nStrikes && strikes[order[first]] === -Infinity) ++first;
  let last = first;
  while (last < nStrikes && Number.isFinite(strikes[order[last]])) ++last;
  if (first === last) return out;
  const n = sorted.length;

  // Puts, strikes upward: the prices below the strike are in the money.
  let inTheMoney = 0;
  let payoffSum = 0;
  let payoffSumOfSquares = 0;
  let previousStrike = strikes[order[first]];
  for (let rank = first, price = 0; rank < last; ++rank) {
    const strike = strikes[order[rank]];
    const gap = strike - previousStrike;
    payoffSumOfSquares += gap * (2 * payoffSum + inTheMoney * gap);
    payoffSum += inTheMoney * gap;
    for (; price < n && sorted[price] < strike; ++price, ++inTheMoney) {
      const payoff = strike - sorted[price];
      payoffSum += payoff;
      payoffSumOfSquares += payoff * payoff;
    }
    writeMean(out.puts, order[rank], payoffSum, payoffSumOfSquares, n, discountFactor);
    previousStrike = strike;
  }

  // Calls, strikes downward: the prices above the strike are in the money.
  inTheMoney = 0;
  payoffSum = 0;
  payoffSumOfSquares = 0;
  previousStrike = strikes[order[last - 1]];
  for (let rank = last - 1, price = n - 1; rank >= first; --rank) {
    const strike = strikes[order[rank]];
    const gap = previousStrike - strike;
    payoffSumOfSquares += gap * (2 * payoffSum + inTheMoney * gap);
    payoffSum += inTheMoney * gap;
    for (; price >= 0 && sorted[price] > strike; --price, ++inTheMoney) {
      const payoff = sorted[price] - strike;
      payoffSum += payoff;
      payoffSumOfSquares += payoff * payoff;
    }
    writeMean(out.calls, order[rank], payoffSum, payoffSumOfSquares, n, discountFactor);
    previousStrike = strike;
  }
  return out;
}

function writeMean(
  estimates: Estimates,
  index: number,
  sum: number,
  sumOfSquares: number,
  n: number,
  discountFactor: number,
): void {
  estimates.values[index] = (discountFactor * sum) / n;
  estimates.standardErrors[index] =
    discountFactor * meanStandardErrorFromSums(sum, sumOfSquares, n);
}
