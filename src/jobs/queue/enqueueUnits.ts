/**
 * Putting units on the queue: the Redis connection, and each unit under its natural key as its job
 * id, so that a second enqueue of the same unit adds nothing.
 */

import { Queue, type ConnectionOptions } from "bullmq";
import { Redis } from "ioredis";
import { backtestUnitKey, type BacktestUnit } from "../backtest/backtestUnit.ts";
import { scoreUnitKey, type ScoreUnit } from "../score/queueUnit.ts";
import { queuedSyncUnitKey, type QueuedSyncUnit } from "../sync/queueUnit.ts";

/**
 * A unit on the queue: a score unit (a prompt), a backtest unit (a prompt put to a model, then
 * scored) or a sync unit (a forecast).
 * @example const units: QueueUnit[] = [...scoreUnits, ...syncUnits];
 */
export type QueueUnit = ScoreUnit | BacktestUnit | QueuedSyncUnit;

/**
 * A unit's natural key, its job id on the queue.
 * @example queueUnitKey(unit) // => "sync.BTC.1h.20261121T100000Z"
 */
export function queueUnitKey(unit: QueueUnit): string {
  if (unit.kind === "sync") return queuedSyncUnitKey(unit);
  return unit.kind === "backtest" ? backtestUnitKey(unit) : scoreUnitKey(unit);
}

/**
 * The queue's name when none is given.
 * @example DEFAULT_QUEUE // => "pathlab"
 */
export const DEFAULT_QUEUE = "pathlab";

/**
 * Attempts of a unit before it ends in the failed set.
 * @example UNIT_ATTEMPTS // => 3
 */
export const UNIT_ATTEMPTS = 3;

/**
 * BullMQ's connection to the Redis at `url` (`redis://[user:password@]host:port[/db]`). Throws
 * `RangeError` for a URL that is not `redis://` or `rediss://`, without echoing its password.
 * @example const connection = redisConnection("redis://127.0.0.1:6379");
 */
export function redisConnection(url: string): ConnectionOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(
      "--redis: expected a URL such as redis://127.0.0.1:6379, got text that is not a URL",
    );
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new RangeError(
      `--redis: expected a redis:// or rediss:// URL, got ${parsed.protocol}//…`,
    );
  }
  // Commands wait for a reconnection instead of failing: a worker rides out a Redis restart.
  return { url, maxRetriesPerRequest: null };
}

/**
 * The Redis URL with any password replaced by `***`, for messages.
 * @example redactedRedisUrl("redis://user:secret@host:6379") // => "redis://user:***@host:6379"
 */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(a URL that does not parse)";
  }
}

/**
 * Connects once to the Redis at `url` and asks it for a PING, within 5 s, so that a queue command
 * fails at once with a clear reason instead of waiting for a server that is not there (BullMQ's
 * own connections wait and retry forever, which a running worker wants when Redis restarts).
 * Rejects with an Error naming the URL (its password masked) and the cause.
 * @example await reachRedis("redis://127.0.0.1:6379");
 */
export async function reachRedis(url: string): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The connection's own error (ECONNREFUSED, ENOTFOUND, …) says more than the rejection below.
  let cause: Error | undefined;
  probe.on("error", (error: Error) => (cause ??= error));
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    cause ??= error as Error;
    const reason = (cause as NodeJS.ErrnoException).code ?? cause.message;
    throw new Error(
      `cannot reach Redis at ${redactedRedisUrl(url)} (${reason}); is redis-server running there?`,
      { cause: error },
    );
  } finally {
    probe.disconnect();
  }
}

/**
 * A BullMQ queue whose connection errors are left to BullMQ's reconnection (they are not thrown
 * at the caller, and not printed).
 */
export function quietQueue(name: string, connection: ConnectionOptions): Queue {
  const queue = new Queue(name, { connection });
  queue.on("error", () => {});
  return queue;
}

/**
 * Puts `units` on the queue, each under its natural key; a unit already there (waiting, running,
 * done in the last 7 days, or failed in the last 30) is left as it is (`pathlab queue retry` runs
 * the failed ones again). Resolves to how many were added and how many were there.
 * @example const { added, present } = await enqueueUnits(connection, "pathlab", units);
 */
export async function enqueueUnits(
  connection: ConnectionOptions,
  name: string,
  units: readonly QueueUnit[],
): Promise<{ added: number; present: number }> {
  const queue = quietQueue(name, connection);
  try {
    let present = 0;
    const fresh: QueueUnit[] = [];
    for (const unit of units) {
      if ((await queue.getJob(queueUnitKey(unit))) !== undefined) present++;
      else fresh.push(unit);
    }
    await queue.addBulk(
      fresh.map((unit) => ({
        name: unit.kind,
        data: unit,
        opts: {
          jobId: queueUnitKey(unit),
          attempts: UNIT_ATTEMPTS,
          backoff: { type: "exponential", delay: 1000 },
          // Kept a week (a second enqueue within it adds nothing; after it, the unit runs again
          // and its files are replaced), failures a month; Redis does not grow without end.
          removeOnComplete: { age: 7 * 86400 },
          removeOnFail: { age: 30 * 86400 },
        },
      })),
    );
    return { added: fresh.length, present };
  } finally {
    await queue.close();
  }
}
