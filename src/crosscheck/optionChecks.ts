/**
 * The checks of `audit` on one option pricing record: calls fall and puts rise with the strike,
 * both convex in it, and put-call parity holds, to the rounding of the quotes.
 */

import type { OptionPricingRecord } from "../domain/records/option-pricing.ts";
import { FindingList, sortedKeys } from "./auditChecks.ts";

/**
 * The smallest step the option prices are quoted in: 1 when all are whole, else 0.01.
 * @param record - an option pricing record, as the service gave it.
 * @example quoteStep(record) // => 1
 */
export function quoteStep(record: OptionPricingRecord): number {
  const prices = [...Object.values(record.call_options), ...Object.values(record.put_options)];
  return prices.every((price) => Number.isInteger(price)) ? 1 : 0.01;
}

/**
 * Option prices: calls fall and puts rise with the strike, both convex in it, and put-call parity:
 * C − P + K, the forward the prices imply, is the same at every strike. Tolerances are the
 * rounding of the quotes (each within half a step): none for monotony, which rounding keeps; one
 * step for convexity; two for parity, a difference of two forwards. Returns the findings and that forward (the
 * median over the strikes).
 * @param record - an option pricing record, as the service gave it.
 * @example checkOptions(record).forward // => 71224
 */
export function checkOptions(record: OptionPricingRecord): FindingList & { forward: number } {
  const list = new FindingList("/insights/option-pricing");
  const step = quoteStep(record);
  for (const side of ["call_options", "put_options"] as const) {
    const prices = record[side];
    const strikes = sortedKeys(prices);
    const sign = side === "call_options" ? 1 : -1;
    for (let k = 1; k < strikes.length; ++k) {
      const [before, now] = [prices[strikes[k - 1]], prices[strikes[k]]];
      list.expect(
        side === "call_options" ? "calls fall with the strike" : "puts rise with the strike",
        `${side}["${strikes[k]}"]`,
        sign * (now - before),
        0,
        `${now} at ${strikes[k]} after ${before} at ${strikes[k - 1]}`,
      );
      if (k === 1) continue;
      const slope = (a: number, b: number) =>
        (prices[strikes[b]] - prices[strikes[a]]) / (Number(strikes[b]) - Number(strikes[a]));
      const [left, right] = [slope(k - 2, k - 1), slope(k - 1, k)];
      const h1 = Number(strikes[k - 1]) - Number(strikes[k - 2]);
      const h2 = Number(strikes[k]) - Number(strikes[k - 1]);
      list.expect(
        "prices convex in the strike",
        `${side}["${strikes[k - 1]}"]`,
        // how far the middle price lies above the chord of its neighbours, in price units
        ((left - right) * h1 * h2) / (h1 + h2),
        step,
        `slopes ${left.toFixed(4)} then ${right.toFixed(4)}`,
      );
    }
  }
  const forwards = sortedKeys(record.call_options)
    .filter((strike) => record.put_options[strike] !== undefined)
    .map((strike) => ({
      strike,
      forward: record.call_options[strike] - record.put_options[strike] + Number(strike),
    }));
  const sorted = forwards.map((entry) => entry.forward).sort((a, b) => a - b);
  const forward = sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)];
  for (const entry of forwards) {
    list.expect(
      "put-call parity: C − P + K the same at every strike",
      `call_options["${entry.strike}"]`,
      Math.abs(entry.forward - forward),
      2 * step,
      `C − P + K = ${entry.forward} against ${forward} at the other strikes`,
    );
  }
  return Object.assign(list, { forward });
}
