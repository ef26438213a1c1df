/**
 * Per-asset weights of prompt scores in the smoothed score (the validator's scoring rules): a prompt of asset a
 * counts c(a) times. Assets not in the table weigh 1.0.
 */

/**
 * The validator's asset coefficients. `SPYX` (the earlier symbol) and `SP500` share a value.
 * @example ASSET_COEFFICIENTS.XAU // => 1.7370922597118699
 */
export const ASSET_COEFFICIENTS: Readonly<Record<string, number>> = Object.freeze({
  BTC: 1.0,
  ETH: 0.7064366394033871,
  XAU: 1.7370922597118699,
  SOL: 0.6310037175639559,
  SPYX: 3.437935601155441,
  SP500: 3.437935601155441,
  NVDAX: 1.6028217601617174,
  TSLAX: 1.6068755936957768,
  AAPLX: 2.0916380815843123,
  GOOGLX: 1.6827392777257926,
  XRP: 0.5658394110809131,
  HYPE: 0.4784547133706857,
  WTIOIL: 0.8475062847978935,
  SPCX: 0.4329342627683478,
});

/**
 * The coefficient of `asset` (exact, case-sensitive symbol as the validator stores it), 1.0 for an
 * asset not in {@link ASSET_COEFFICIENTS}.
 * @param asset - the asset's symbol as the validator stores it (`ETH`, `SPYX`); case matters.
 * @example assetCoefficient("ETH") // => 0.7064366394033871
 * @example assetCoefficient("DOGE") // => 1
 */
export function assetCoefficient(asset: string): number {
  return Object.hasOwn(ASSET_COEFFICIENTS, asset) ? ASSET_COEFFICIENTS[asset] : 1.0;
}
