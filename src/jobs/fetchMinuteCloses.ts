/**
 * The 1-minute closes before a forecast start, which the volatility records' `realized` part and
 * the previous forecast's price are computed from, fetched from the realized-path operation.
 */

import type { PathlabClient } from "../client/pathlab-client.ts";
import type { RealizedPathParams } from "../spec/params.ts";

/**
 * Minute closes as the insight context takes them (`minuteClose`, `priceAt` of `InsightContext`).
 * @example const { minuteClose, priceAt } = await fetchMinuteCloses(client, "BTC", from, to);
 */
export interface MinuteCloses {
  /** Close of the 1-minute candle starting at `minuteUnix`; NaN where missing or not fetched. */
  readonly minuteClose: (minuteUnix: number) => number;
  /** The last close at or before `unix` (NaN when there is none from `fromUnix` on). */
  readonly priceAt: (unix: number) => number;
}

/** Seconds per realized-path request: the 1h prompt's shape (60 s steps over 3,600 s). */
const WINDOW_SECONDS = 3600;

/**
 * Fetches the 1-minute closes of `asset` from `fromUnix` to at least `toUnix` (floored to the
 * minute; the last hour's request runs to its end) through the realized-path operation at 60 s
 * steps, one hour per request (the prompts' shapes are the only increment/length pairs the
 * operation takes), the requests in parallel. `asset` is
 * taken as the validation operations name it (the cross-listed `SPYX` is the earlier form they
 * accept). Missing candles (`null`) are NaN. Client errors are thrown.
 * @example
 * const closes = await fetchMinuteCloses(client, "ETH", start - 27 * 3600, start);
 * closes.priceAt(start - 86400) // => the close of the minute one day before the start
 */
export async function fetchMinuteCloses(
  client: PathlabClient,
  asset: string,
  fromUnix: number,
  toUnix: number,
): Promise<MinuteCloses> {
  const first = Math.floor(fromUnix / 60) * 60;
  const last = Math.floor(toUnix / 60) * 60;
  const starts: number[] = [];
  for (let start = first; start < last; start += WINDOW_SECONDS) starts.push(start);
  if (starts.length === 0) starts.push(first);
  const paths = await Promise.all(
    starts.map((start) => {
      const params: RealizedPathParams = {
        asset: asset as RealizedPathParams["asset"],
        start_time: new Date(start * 1000).toISOString(),
        time_increment: 60,
        time_length: WINDOW_SECONDS as RealizedPathParams["time_length"],
      };
      return client.request("/validation/realized-path", params);
    }),
  );
  const closes = new Map<number, number>();
  paths.forEach((path, index) => {
    path.real_prices.forEach((price, step) => {
      const minute = starts[index] + step * 60;
      if (price !== null && Number.isFinite(price)) closes.set(minute, price);
    });
  });
  const minuteClose = (minuteUnix: number): number => closes.get(minuteUnix) ?? NaN;
  const priceAt = (unix: number): number => {
    for (let minute = Math.floor(unix / 60) * 60; minute >= first; minute -= 60) {
      const close = closes.get(minute);
      if (close !== undefined) return close;
    }
    return NaN;
  };
  return { minuteClose, priceAt };
}
