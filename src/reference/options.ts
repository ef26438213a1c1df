/**
 * Option prices as plain ensemble means of the payoff at the terminal price (the service's insight conventions).
 */

import { requireFinite, requireNonEmpty } from "./validate.ts";

/**
 * Call and put prices, one per strike, as returned by {@link optionPrices}.
 * @example const { calls, puts } = optionPrices(terminal, [95, 100, 105]);
 */
export interface OptionPrices {
  /** discountFactor × mean(max(S_T − K, 0)) for each strike K, in the order of the strikes. */
  readonly calls: number[];
  /** discountFactor × mean(max(K − S_T, 0)) for each strike K, in the order of the strikes. */
  readonly puts: number[];
}

/**
 * European call and put prices at each strike as ensemble means of the payoffs at the terminal
 * prices, multiplied by `discountFactor` (default 1: undiscounted, as the service reports them).
 * Put-call parity holds exactly: call − put = discountFactor × (mean(S_T) − K).
 * Throws `RangeError` for an empty `terminal` or a non-finite `discountFactor`.
 * @example optionPrices([110, 90, 120, 100, 95, 105], [100]) // => { calls: [5.8333…], puts: [2.5] }
 */
export function optionPrices(
  terminal: readonly number[],
  strikes: readonly number[],
  discountFactor = 1,
): OptionPrices {
  requireNonEmpty("optionPrices", "terminal", terminal);
  requireFinite("optionPrices", "discountFactor", discountFactor);
  const calls: number[] = [];
  const puts: number[] = [];
  for (const strike of strikes) {
    let callPayoffSum = 0;
    let putPayoffSum = 0;
    for (const price of terminal) {
      callPayoffSum += Math.max(price - strike, 0);
      putPayoffSum += Math.max(strike - price, 0);
    }
    calls.push((discountFactor * callPayoffSum) / terminal.length);
    puts.push((discountFactor * putPayoffSum) / terminal.length);
  }
  return { calls, puts };
}
