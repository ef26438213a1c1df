/**
 * The miners' rounding, for the sandbox's market closes: the spec's {@link roundPrice} (8
 * significant digits, `spec/priceFormat.ts`, where the validator's price rules live).
 */

export { roundPrice } from "../../spec/priceFormat.ts";
