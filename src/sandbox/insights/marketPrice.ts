/** The market price at a time, required to be a real price. */

import type { SandboxInsightInputs } from "./inputs.ts";

/**
 * `inputs.priceAt(unix)`, checked: throws `RangeError` naming the operation and the field when the
 * world has no price there (before its history).
 * @example marketPriceAt(inputs, eventStartUnix, "start_price") // => 68249.16
 */
export function marketPriceAt(inputs: SandboxInsightInputs, unix: number, field: string): number {
  const price = inputs.priceAt(unix);
  if (!(price > 0 && Number.isFinite(price))) {
    throw new RangeError(
      `${inputs.operationPath}: ${field} needs the market price at ${unix}, got ${price}`,
    );
  }
  return price;
}
