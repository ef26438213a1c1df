/**
 * Impermanent loss at `price` of a concentrated-liquidity position over [lower, upper] opened at
 * `startPrice`, as a positive fraction (the service's insight conventions): 1 − V_LP(P)/V_HODL(P) with, for unit
 * liquidity, x0 = 1/√P0 − 1/√U, y0 = √P0 − √L, V_HODL = x0·P + y0 and V_LP = P·(1/√L − 1/√U) if
 * P < L, √U − √L if P > U, else 2√P − P/√U − √L.
 *
 * Computed as (V_HODL − V_LP)/V_HODL with the difference in closed form, so that a loss near 0
 * keeps its relative precision: (√P − √P0)²/√P0 inside the range, (√P0 − √L)(1 − P/√(P0·L))
 * below it, (√U − √P0)(P/√(P0·U) − 1) above it, each difference of roots taken as
 * (a − b)/(√a + √b). The plain formula is `impermanentLoss` in `src/reference/lp.ts`.
 * NaN unless 0 < lower < upper < ∞, lower ≤ startPrice ≤ upper, and `price` is finite and ≥ 0.
 * @param startPrice - the price when the position opened, in [lower, upper].
 * @param lower - the lower bound of the range, > 0.
 * @param upper - the upper bound of the range, > lower and finite.
 * @param price - the price at which the loss is measured, finite and ≥ 0.
 * @example impermanentLoss(2000, 1800, 2200, 1500) // => 0.124649928340…
 */
export function impermanentLoss(
  startPrice: number,
  lower: number,
  upper: number,
  price: number,
): number {
  if (!(lower > 0 && lower < upper && upper < Infinity)) return NaN;
  if (!(startPrice >= lower && startPrice <= upper)) return NaN;
  if (!(price >= 0 && price < Infinity)) return NaN;
  const sqrtStart = Math.sqrt(startPrice);
  const sqrtLower = Math.sqrt(lower);
  const sqrtUpper = Math.sqrt(upper);
  // Differences of square roots as quotients of exact differences: √a − √b = (a − b)/(√a + √b).
  const startAmountY = (startPrice - lower) / (sqrtStart + sqrtLower); // y0 = √P0 − √L
  const upperGap = (upper - startPrice) / (sqrtUpper + sqrtStart); // √U − √P0
  const startAmountX = upperGap / (sqrtStart * sqrtUpper); // x0 = 1/√P0 − 1/√U
  const holdValue = price * startAmountX + startAmountY;
  let loss: number;
  if (price < lower) {
    loss = startAmountY * (1 - price / (sqrtStart * sqrtLower));
  } else if (price > upper) {
    loss = upperGap * (price / (sqrtStart * sqrtUpper) - 1);
  } else {
    const rootDifference = (price - startPrice) / (Math.sqrt(price) + sqrtStart);
    loss = (rootDifference * rootDifference) / sqrtStart;
  }
  return loss / holdValue;
}
