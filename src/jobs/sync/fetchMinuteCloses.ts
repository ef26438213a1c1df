/**
 * The 1-minute closes before a forecast start, which the volatility records' `realized` part and
 * the previous forecast's price are computed from, fetched from the realized-path operation at
 * prompt starts only (the live service answers it nowhere else).
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { PromptsParams, RealizedPathParams } from "../../domain/params.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";

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

/** The prompt shapes whose realized paths give closes: 1h prompts every minute, then 24h every 5. */
const SHAPES = [
  { time_increment: 60, time_length: 3600 },
  { time_increment: 300, time_length: 86400 },
] as const;

type Shape = (typeof SHAPES)[number];

/**
 * Fetches the closes of `asset` from `fromUnix` to `toUnix` (floored to the minute) through the
 * realized-path operation at prompt starts, as the live service allows:
 * - the asset's 1h prompts (`/validation/prompts`) are chosen to cover the window with as few
 *   requests as possible, each request giving the 61 closes of its hour;
 * - minutes that no 1h prompt covers are taken, where a 24h prompt covers them, from its realized
 *   path at 5-minute steps (the other minutes of those stretches stay missing).
 * Requests run in parallel. `asset` is taken as the validation operations name it. Missing candles
 * (`null`) are NaN. Client errors are thrown.
 * @param client - the client of the service.
 * @param asset - the asset, as the validation operations name it.
 * @param fromUnix - the first minute, in Unix seconds (floored to the minute).
 * @param toUnix - the last minute, in Unix seconds (floored to the minute).
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
  const closes = new Map<number, number>();
  let gaps: [number, number][] = [[first, last]];
  for (const shape of SHAPES) {
    if (gaps.length === 0) break;
    const starts = await promptStarts(client, asset, shape, gaps[0][0], gaps.at(-1)![1]);
    const chosen = gaps.flatMap(([from, to]) =>
      coveringStarts(starts, from, to, shape.time_length),
    );
    const paths = await Promise.all(
      chosen.map((start) => {
        const params: RealizedPathParams = {
          asset: asset as RealizedPathParams["asset"],
          start_time: new Date(start * 1000).toISOString(),
          ...shape,
        };
        return client.request("/validation/realized-path", params);
      }),
    );
    paths.forEach((path, index) => {
      path.real_prices.forEach((price, step) => {
        const minute = chosen[index] + step * shape.time_increment;
        if (price !== null && Number.isFinite(price) && minute >= first && minute <= last) {
          closes.set(minute, price);
        }
      });
    });
    gaps = gaps.flatMap(([from, to]) => uncovered(chosen, shape.time_length, from, to));
  }
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

/** The asset's prompt starts of `shape` whose paths reach into [from, to], ascending (unix seconds). */
async function promptStarts(
  client: PathlabClient,
  asset: string,
  shape: Shape,
  from: number,
  to: number,
): Promise<number[]> {
  const params: PromptsParams = {
    asset: asset as PromptsParams["asset"],
    from: new Date((from - shape.time_length) * 1000).toISOString(),
    to: new Date(to * 1000).toISOString(),
    ...shape,
  };
  const list = await client.request("/validation/prompts", params);
  return list.start_times.map((time) => parseIsoTimeMs(time) / 1000).sort((a, b) => a - b);
}

/**
 * Starts (ascending) whose windows [start, start + length] cover [from, to] with the fewest
 * requests: for each first uncovered minute, the latest start at or before it that still reaches
 * it, else the next start after it (leaving a gap).
 * @example coveringStarts([0, 1200, 2400, 3600, 4800], 600, 5400, 3600) // => [0, 3600]
 */
export function coveringStarts(
  starts: readonly number[],
  from: number,
  to: number,
  length: number,
): number[] {
  const chosen: number[] = [];
  let need = from;
  let index = 0;
  while (need <= to && index < starts.length) {
    while (index + 1 < starts.length && starts[index + 1] <= need) index++;
    if (starts[index] + length < need) index++;
    if (index >= starts.length || starts[index] > to) break;
    chosen.push(starts[index]);
    need = Math.max(need, starts[index] + length + 60);
    index++;
  }
  return chosen;
}

/** The stretches of [from, to] (whole minutes) that no window [start, start + length] covers. */
function uncovered(
  starts: readonly number[],
  length: number,
  from: number,
  to: number,
): [number, number][] {
  const gaps: [number, number][] = [];
  let need = from;
  for (const start of [...starts].sort((a, b) => a - b)) {
    if (start > need) gaps.push([need, Math.min(start - 60, to)]);
    need = Math.max(need, start + length + 60);
    if (need > to) break;
  }
  if (need <= to) gaps.push([need, to]);
  return gaps.filter(([gapFrom, gapTo]) => gapFrom <= gapTo);
}
