/**
 * One request rate shared by every worker of a queue, per service. The service limits requests
 * per key, and every worker sends with the same key; BullMQ's limiter counts units, and a unit
 * sends anywhere from a few requests to hundreds. So each request takes the next free slot of a
 * schedule kept in Redis: one atomic script reads Redis's clock, hands out the later of now and
 * the next free slot, and moves the next free slot on by 1/rate. Requests then reach the service
 * evenly spaced, never in a burst, whichever machines send them (the clocks of the workers play no
 * part). A limiting library with fixed windows (rate-limiter-flexible, say) lets two windows'
 * worth through around a window's edge, which a service counting its own windows refuses.
 *
 * The rate is kept in Redis beside the queue (set by `pathlab worker --requests-per-second`), so
 * every worker follows the latest setting.
 */

import type { ConnectionOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { setTimeout as sleep } from "node:timers/promises";

/** KEYS[1] the rate (requests per second, absent for none), KEYS[2] the service's next free slot. */
const TAKE_SLOT = `
local rate = tonumber(redis.call('GET', KEYS[1]) or '0')
if rate == nil or rate <= 0 then return 0 end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval = math.floor(1000000 / rate)
local slot = math.max(now, tonumber(redis.call('GET', KEYS[2]) or '0'))
redis.call('SET', KEYS[2], slot + interval, 'PX', math.floor((slot - now + interval) / 1000) + 1000)
return slot - now
`;

const rateKey = (queue: string) => `pathlab:${queue}:requests-per-second`;
const slotKey = (queue: string, service: string) => `pathlab:${queue}:next-request:${service}`;

function redisOf(connection: ConnectionOptions, more: RedisOptions = {}): Redis {
  const { url, ...rest } = connection as RedisOptions & { url?: string };
  return url === undefined ? new Redis({ ...rest, ...more }) : new Redis(url, { ...rest, ...more });
}

/**
 * Sets the queue's shared request rate (requests per second, for every worker together and each
 * service); 0 removes it. Kept in Redis until set again.
 * @example await setRequestRate(connection, "pathlab", 8);
 */
export async function setRequestRate(
  connection: ConnectionOptions,
  queue: string,
  requestsPerSecond: number,
): Promise<void> {
  if (!(Number.isFinite(requestsPerSecond) && requestsPerSecond >= 0)) {
    throw new RangeError(
      `--requests-per-second: expected a number ≥ 0 (0 removes the limit), got ${requestsPerSecond}`,
    );
  }
  const redis = redisOf(connection);
  try {
    if (requestsPerSecond === 0) await redis.del(rateKey(queue));
    else await redis.set(rateKey(queue), String(requestsPerSecond));
  } finally {
    redis.disconnect();
  }
}

/**
 * The queue's shared request rate, or `undefined` when there is none.
 * @example await requestRate(connection, "pathlab") // => 8
 */
export async function requestRate(
  connection: ConnectionOptions,
  queue: string,
): Promise<number | undefined> {
  const redis = redisOf(connection);
  try {
    const rate = Number(await redis.get(rateKey(queue)));
    return rate > 0 ? rate : undefined;
  } finally {
    redis.disconnect();
  }
}

/**
 * The pacers of one worker process: `throttle(service)` is a client's `throttle` option, which
 * waits for the next free slot of that service's schedule before each attempt. One Redis
 * connection for all of them; `close()` ends it.
 * @example
 * const pacers = new RequestPacers(connection, "pathlab");
 * const client = createClient({ baseUrl, apiKey, throttle: pacers.throttle(baseUrl) });
 */
export class RequestPacers {
  private readonly redis: Redis;

  constructor(
    connection: ConnectionOptions,
    private readonly queue: string,
  ) {
    // Unlike the queue's connection, which waits for Redis as long as it takes, a slot is asked
    // for at most 5 s: a request without one fails, and so does its unit, which BullMQ retries.
    this.redis = redisOf(connection, { maxRetriesPerRequest: 1, commandTimeout: 5000 });
    this.redis.on("error", () => {}); // reconnected by ioredis
  }

  throttle(service: string): (signal: AbortSignal) => Promise<void> {
    const keys = [rateKey(this.queue), slotKey(this.queue, service)];
    return async (signal) => {
      signal.throwIfAborted();
      let onAbort = () => {};
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason as Error);
        signal.addEventListener("abort", onAbort, { once: true });
      });
      const slot = this.redis.eval(TAKE_SLOT, 2, ...keys).catch((error: Error) => {
        throw new Error(
          `request pacer: no request slot from Redis for ${service} (${error.message}); the unit is retried`,
          { cause: error },
        );
      });
      slot.catch(() => {}); // when the signal wins the race, a later failure is nobody's
      let waitUs: number;
      try {
        waitUs = Number(await Promise.race([slot, aborted]));
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
      if (waitUs <= 0) return;
      await sleep(waitUs / 1000, undefined, { signal }).catch(() => {
        throw signal.reason;
      });
    };
  }

  close(): void {
    this.redis.disconnect();
  }
}
