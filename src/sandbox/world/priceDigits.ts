/**
 * The miners' rounding, for the sandbox's market closes: the spec's {@link roundPrice} (8
 * significant digits, `domain/priceFormat.ts`, where the validator's price rules live).
 */

export { roundPrice } from "../../domain/priceFormat.ts";
