/**
 * Black–Scholes with r = 0 on a forward (Black's model), and the volatility it implies from an
 * option price: the view of an option chain a desk reads. The service's option prices are
 * undiscounted means over the paths, so call − put = E[S] − K: they invert on the same terms with
 * the forward F = E[S], the paths' mean price at the expiry (with the spot instead, calls and puts
 * of one strike would imply two volatilities whenever the paths drift).
 */

import { normalCdf } from "../core/normalDistribution.ts";

/**
 * The Black–Scholes price of a European call or put with r = 0 on a forward F (the spot when the
 * underlying does not drift): F·N(d1) − K·N(d2) for a call, K·N(−d2) − F·N(−d1) for a put,
 * d1 = (ln(F/K) + σ²T/2)/(σ√T), d2 = d1 − σ√T. At σ√T = 0 the intrinsic value.
 * @param option - `"call"` or `"put"`.
 * @param forward - the underlying's forward F (> 0): its spot, or its mean price at the expiry.
 * @param strike - the strike K (> 0).
 * @param years - the time to expiry T, in years (≥ 0).
 * @param volatility - the annualized volatility σ, as a fraction (0.6 for 60 %).
 * @example blackScholesPrice("call", 100, 100, 1, 0.2) // => 7.9655674…
 */
export function blackScholesPrice(
  option: "call" | "put",
  forward: number,
  strike: number,
  years: number,
  volatility: number,
): number {
  const deviation = volatility * Math.sqrt(years);
  if (!(deviation > 0)) {
    return Math.max(0, option === "call" ? forward - strike : strike - forward);
  }
  const d1 = (Math.log(forward / strike) + (deviation * deviation) / 2) / deviation;
  const d2 = d1 - deviation;
  return option === "call"
    ? forward * normalCdf(d1) - strike * normalCdf(d2)
    : strike * normalCdf(-d2) - forward * normalCdf(-d1);
}

/**
 * The annualized volatility σ at which {@link blackScholesPrice} equals `price` (r = 0), found by
 * bisection over [1e-6, 20] to 1e-10 (the price rises with σ). NaN where no σ gives the price: at
 * or below the intrinsic value, at or above the price's bound (the forward for a call, the strike for
 * a put), or for a time or input that is not positive. Out-of-the-money options (puts below the
 * forward, calls above it) carry the most information: their price is all time value.
 * @param option - `"call"` or `"put"`.
 * @param price - the option's price, in the underlying's currency.
 * @param forward - the underlying's forward F (> 0): its spot, or its mean price at the expiry.
 * @param strike - the strike K (> 0).
 * @param years - the time the price spans, in years (> 0).
 * @example impliedVolatility("call", 7.9655674554, 100, 100, 1) // => 0.2000…
 */
export function impliedVolatility(
  option: "call" | "put",
  price: number,
  forward: number,
  strike: number,
  years: number,
): number {
  if (!(forward > 0 && strike > 0 && years > 0)) return NaN;
  const intrinsic = Math.max(0, option === "call" ? forward - strike : strike - forward);
  const bound = option === "call" ? forward : strike;
  if (!(price > intrinsic && price < bound)) return NaN;
  let low = 1e-6;
  let high = 20;
  if (blackScholesPrice(option, forward, strike, years, high) < price) return NaN;
  while (high - low > 1e-10) {
    const middle = (low + high) / 2;
    if (blackScholesPrice(option, forward, strike, years, middle) < price) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
