/**
 * Whether a venue market is still worth comparing with the model: **decided** when the current
 * price already settles it (a `hit` level touched, an event over, or a price so far from what
 * would change the outcome that the time left cannot bridge it), and its **edge tradable** when
 * the model is beyond the best bid or ask by more than the fee and the price rounding. An edge
 * over a decided market (a model at 0.42 against a venue at 0.998 on "ETH above 2150" with ETH at
 * 2187 and minutes left) measures the model's horizon, not a trade.
 *
 * A **tradable** edge must also stand out of the model's own uncertainty: it exceeds
 * {@link ROBUST_EDGE_Z} standard errors of the model's probability, the Monte-Carlo one and the
 * one between the miners of the pool combined (`robustEdge`).
 *
 * "Cannot bridge" is a random walk's: the log distance to the boundary that flips the outcome
 * exceeds {@link DECIDED_Z} standard deviations of the log price over the time left, at the
 * asset's realized 1-minute volatility before the forecast (the sync reads it from the closes it
 * fetched: a day of them for a 24h unit, about two hours for a 1h unit; a flip then has a
 * probability below ~3·10⁻⁵; fat tails make that an underestimate, which is why Z is 4 and not 3).
 */

/**
 * Standard deviations of the log price over the time left beyond which a market counts as decided.
 * @example DECIDED_Z // => 4
 */
export const DECIDED_Z = 4;

/**
 * Half the venues' price tick (a cent): a quoted price may be this far from the true one.
 * @example PRICE_ROUNDING // => 0.005
 */
export const PRICE_ROUNDING = 0.005;

/**
 * The fee per contract of a trade at `price` (probability units): venue B's published taker fee,
 * 0.07 · p · (1 − p), at most 1.75 cents at 0.5. Applied to both venues as a conservative bound
 * (venue A charges no fee on most markets).
 * @param price - the trade's price, in probability units (0 to 1).
 * @example venueFee(0.5) // => 0.0175
 */
export function venueFee(price: number): number {
  return 0.07 * price * (1 - price);
}

/**
 * The standard deviation of 1-minute log returns of the closes from `fromUnix` to `toUnix` (ddof
 * 1; pairs with a missing close are skipped), or NaN with fewer than 30 returns.
 * @param minuteClose - the close of the minute starting at a Unix second (a multiple of 60); NaN or
 *   ≤ 0 when missing.
 * @param fromUnix - the first minute, in Unix seconds (rounded up to a whole minute).
 * @param toUnix - the last minute, in Unix seconds.
 * @example minuteLogVolatility((minute) => 100 * Math.exp(((minute / 60) % 2) * 0.001), 0, 3600) // => about 0.001
 */
export function minuteLogVolatility(
  minuteClose: (minuteUnix: number) => number,
  fromUnix: number,
  toUnix: number,
): number {
  const first = Math.ceil(fromUnix / 60) * 60;
  let count = 0;
  let mean = 0;
  let sumSquares = 0;
  let previous = minuteClose(first);
  for (let minute = first + 60; minute <= toUnix; minute += 60) {
    const close = minuteClose(minute);
    if (close > 0 && previous > 0) {
      const value = Math.log(close / previous);
      count += 1;
      const delta = value - mean;
      mean += delta / count;
      sumSquares += delta * (value - mean);
    }
    previous = close;
  }
  return count < 30 ? Number.NaN : Math.sqrt(sumSquares / (count - 1));
}

/**
 * A venue market as the decision needs it (the columns of `venue_comparisons`).
 * @example const market: MarketSnapshot = { kind: "above", refPrices: [2150], title: ">2150", startPrice: null, currentPrice: 2186.98, currentOutcome: 1, observedAtUnix, eventStartUnix: null, eventEndUnix };
 */
export interface MarketSnapshot {
  readonly kind: string;
  readonly refPrices: readonly number[] | null;
  /** The market's title (`↑ 2100`, `↓ 96000` for `hit`: the arrow gives the direction). */
  readonly title: string | null;
  /** Up/Down: the price the outcome is measured against (the event's start price or strike). */
  readonly startPrice: number | null;
  readonly currentPrice: number;
  /** The record's `current_outcome`: 1 / `UP` where it resolves YES now. */
  readonly currentOutcome: unknown;
  readonly observedAtUnix: number;
  readonly eventStartUnix: number | null;
  readonly eventEndUnix: number;
}

/**
 * Whether `market` is decided (see the module comment), at a realized volatility of
 * `sigmaPerMinute` (the standard deviation of 1-minute log returns; NaN when unknown: then only
 * what needs no volatility decides, a touched level or an event over).
 * @param market - the market as the venue showed it, with the time it was seen and its event's end.
 * @param sigmaPerMinute - the standard deviation of 1-minute log returns, or NaN when unknown.
 * @example marketDecided({ ...market, kind: "above", refPrices: [2150], currentPrice: 2186.98 }, 0.0005) // => true with 10 minutes left
 */
export function marketDecided(market: MarketSnapshot, sigmaPerMinute: number): boolean {
  const minutesLeft = (market.eventEndUnix - market.observedAtUnix) / 60;
  if (minutesLeft <= 0) return true;
  const room = DECIDED_Z * sigmaPerMinute * Math.sqrt(minutesLeft);
  const price = market.currentPrice;
  const beyond = (level: number) => Math.abs(Math.log(price / level)) > room;
  const levels = market.refPrices ?? [];
  switch (market.kind) {
    case "hit": {
      const level = levels[0];
      if (level === undefined) return false;
      const touched =
        market.currentOutcome === 1 ||
        (market.title?.includes("↑") === true && price >= level) ||
        (market.title?.includes("↓") === true && price <= level);
      return touched || beyond(level);
    }
    case "above":
    case "below":
      return levels.length > 0 && beyond(levels[0]);
    case "range":
      return levels.length === 2 && beyond(levels[0]) && beyond(levels[1]);
    case "up-down": {
      const started =
        market.eventStartUnix === null || market.eventStartUnix <= market.observedAtUnix;
      return started && market.startPrice !== null && beyond(market.startPrice);
    }
    default:
      return false;
  }
}

/**
 * The edge on a market that survives the spread: buying YES when the model is above the best ask
 * by more than the fee and the rounding, selling YES when it is below the best bid by more; the
 * edge is what is left after them. `null` when neither side pays, or there is no model
 * probability or book.
 * @param model - the model's probability of YES, or `null` when there is none.
 * @param bid - the best bid for YES, in probability units, or `null` without a book.
 * @param ask - the best ask for YES, in probability units, or `null` without a book.
 * @example tradableEdge(0.7, 0.6, 0.62) // => { side: "buy", netEdge: 0.7 − 0.62 − venueFee(0.62) − 0.005 }
 */
export function tradableEdge(
  model: number | null,
  bid: number | null,
  ask: number | null,
): { side: "buy" | "sell"; netEdge: number } | null {
  if (model === null || !Number.isFinite(model)) return null;
  if (ask !== null && ask > 0 && ask < 1) {
    const netEdge = model - ask - venueFee(ask) - PRICE_ROUNDING;
    if (netEdge > 0) return { side: "buy", netEdge };
  }
  if (bid !== null && bid > 0 && bid < 1) {
    const netEdge = bid - model - venueFee(bid) - PRICE_ROUNDING;
    if (netEdge > 0) return { side: "sell", netEdge };
  }
  return null;
}

/**
 * Standard errors of the model's probability that a tradable edge must exceed.
 * @example ROBUST_EDGE_Z // => 2
 */
export const ROBUST_EDGE_Z = 2;

/**
 * Whether an edge is tradable: the market is not decided (`decided` false, or null when it could
 * not be judged), an edge survives the spread, fee and rounding (`tradableEdge`), and it exceeds
 * {@link ROBUST_EDGE_Z} × √(MC SE² + between-miner SE²). False when either standard error is
 * unknown (null or NaN): an edge whose uncertainty is unknown is not one to trade on.
 * @param decided - whether the current price settles the market (`marketDecided`), or null.
 * @param netEdge - the edge after spread, fee and rounding, or null when neither side pays.
 * @param monteCarlo - the Monte-Carlo standard error of the model's probability.
 * @param betweenMiners - its between-miner standard error (`betweenMiners.ts`).
 * @example robustEdge(false, 0.05, 0.004, 0.01) // => true (0.05 > 2 × 0.0108)
 */
export function robustEdge(
  decided: boolean | null,
  netEdge: number | null,
  monteCarlo: number | null,
  betweenMiners: number | null,
): boolean {
  if (decided === true || netEdge === null || monteCarlo === null || betweenMiners === null) {
    return false;
  }
  const error = Math.hypot(monteCarlo, betweenMiners);
  return Number.isFinite(error) && netEdge > ROBUST_EDGE_Z * error;
}
