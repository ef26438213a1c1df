/**
 * The market side of the sandbox's venue records: an order book top, a last trade and the venue's
 * implied probability, derived from the model's probability with a persistent per-market bias, a
 * favourite–longshot shrink toward 0.5, and per-minute noise, so that there is an edge to find.
 * Deterministic: every draw comes from `createRandom` (reference) seeded by a hash of the sandbox
 * seed, the market and (for the noise) the snapshot minute.
 */

import { roundTo } from "../../domain/insightConventions.ts";
import { createRandom } from "../../reference/random.ts";

/**
 * What {@link venueQuote} needs about one market at one moment.
 * @example const request: VenueQuoteRequest = { seed: 42, marketKey: "btc-updown-5m-1772205000", nowUnix, creationUnix, modelProbability: 0.4215 };
 */
export interface VenueQuoteRequest {
  readonly seed: number;
  /** Identifies the market (slug, plus the title when several markets share a slug). */
  readonly marketKey: string;
  readonly nowUnix: number;
  /** Last trades are never before the market's creation. */
  readonly creationUnix: number;
  /** The model's YES (Up) probability. */
  readonly modelProbability: number;
  /** The market is already decided YES (a hit level already touched): the book sits near 1. */
  readonly resolvedYes?: boolean;
}

/**
 * One market's book top and last trade, in probability units of the YES (Up) token.
 * @example const { probability, bestBidPrice, bestAskPrice } = venueQuote(request);
 */
export interface VenueQuote {
  /** Implied YES probability: the mid of the best bid and ask, 4 decimals. */
  readonly probability: number;
  readonly bestBidPrice: number;
  /** Dollar size at the best bid. */
  readonly bestBidSize: number;
  readonly bestAskPrice: number;
  readonly bestAskSize: number;
  /** Price of the token traded last (the NO/Down token trades at 1 − the YES price). */
  readonly lastTradePrice: number;
  readonly lastTradeUnix: number;
  /** Whether the last trade was of the YES (Up) token. */
  readonly lastTradeYes: boolean;
}

/**
 * 32-bit FNV-1a hash of a text, for seeding per-market random streams.
 * @example hashText("btc-updown-5m-1772205000") === hashText("btc-updown-5m-1772205000") // => true
 */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Shrink of the model's log-odds toward 0 (favourite–longshot bias). */
const LOG_ODDS_SHRINK = 0.8;
/** Standard deviation of the persistent per-market bias, in log-odds. */
const MARKET_BIAS_SPREAD = 0.35;
/** Standard deviation of the per-minute noise, in log-odds. */
const MINUTE_NOISE_SPREAD = 0.08;

/**
 * The venue's book top and last trade for one market at `nowUnix`. The fair YES price is
 * σ(0.8·logit(m) + b + ε) with m the model probability clamped to [0.003, 0.997], b ~ N(0, 0.35²)
 * fixed per market, ε ~ N(0, 0.08²) per minute; the book is one or two ticks wide around it (tick
 * 0.01, or 0.001 beyond 4 % / 96 %), best prices within [0.001, 0.999]; the implied probability is
 * the mid. Sizes are lognormal dollars; the last trade is at the bid or the ask, of the YES or the
 * NO token, up to ten minutes before the snapshot minute (not before creation). The whole quote
 * is the same for every `nowUnix` within one minute.
 * @example venueQuote({ seed: 42, marketKey: "btc-updown-5m-1772205000", nowUnix: 1772205381, creationUnix: 1772118900, modelProbability: 0.4215 }).probability
 */
export function venueQuote(request: VenueQuoteRequest): VenueQuote {
  const { seed, marketKey, nowUnix, creationUnix, modelProbability } = request;
  const persistent = createRandom(hashText(`${seed}|${marketKey}`));
  const minuteStart = Math.floor(nowUnix / 60) * 60;
  const minute = createRandom(hashText(`${seed}|${marketKey}|${minuteStart}`));
  const clamped = Math.min(0.997, Math.max(0.003, modelProbability));
  const logOdds =
    LOG_ODDS_SHRINK * Math.log(clamped / (1 - clamped)) +
    MARKET_BIAS_SPREAD * persistent.normal() +
    MINUTE_NOISE_SPREAD * minute.normal();
  const fair = request.resolvedYes === true ? 0.9995 : 1 / (1 + Math.exp(-logOdds));
  const tick = fair < 0.04 || fair > 0.96 ? 0.001 : 0.01;
  const spreadTicks = minute.uniform() < 0.6 ? 1 : 2;
  const highestBid = 1 - (spreadTicks + 1) * tick;
  const bid = roundTo(Math.min(highestBid, Math.max(tick, Math.floor(fair / tick) * tick)), 3);
  const ask = roundTo(bid + spreadTicks * tick, 3);
  const lastTradeYes = minute.uniform() < 0.5;
  const yesTradePrice = minute.uniform() < 0.5 ? bid : ask;
  return {
    probability: roundTo((bid + ask) / 2, 4),
    bestBidPrice: bid,
    bestBidSize: dollarSize(minute.normal()),
    bestAskPrice: ask,
    bestAskSize: dollarSize(minute.normal()),
    lastTradePrice: lastTradeYes ? yesTradePrice : roundTo(1 - yesTradePrice, 3),
    lastTradeUnix: Math.max(creationUnix, minuteStart - Math.floor(minute.uniform() * 600)),
    lastTradeYes,
  };
}

/** A lognormal dollar size around $250, cents. */
function dollarSize(normal: number): number {
  return roundTo(Math.exp(Math.log(250) + 1.1 * normal), 2);
}

/**
 * A deterministic creation time of a market: `leadSeconds` before its start plus up to five
 * minutes of jitter (milliseconds kept, like the captured `17:02:40.731…`).
 * @example marketCreationUnix(42, "bitcoin-up-or-down-on-february-26", 1772038800, 86400) // => between 1771952400 and 1771952700
 */
export function marketCreationUnix(
  seed: number,
  marketKey: string,
  startUnix: number,
  leadSeconds: number,
): number {
  const jitter = createRandom(hashText(`${seed}|${marketKey}|created`)).uniform() * 300;
  return startUnix - leadSeconds + Math.round(jitter * 1000) / 1000;
}
