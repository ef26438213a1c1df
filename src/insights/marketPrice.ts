/** The market price at a time, from the context's price lookup. */

import type { InsightContext } from "./context.ts";

/**
 * The market price at `unix` from `context.priceAt`, checked; throws naming the field.
 * @example marketPriceAt("upDownModelSide", context, 1772128800) // => 67950.1
 */
export function marketPriceAt(operation: string, context: InsightContext, unix: number): number {
  if (typeof context.priceAt !== "function") {
    throw new RangeError(
      `${operation} requires context.startPrice or context.priceAt (the market price at the event start, unix ${unix}), got neither`,
    );
  }
  const price = context.priceAt(unix);
  if (!(price > 0 && price < Infinity)) {
    throw new RangeError(
      `${operation} requires context.priceAt(${unix}) to be a finite positive price, got ${price}`,
    );
  }
  return price;
}
