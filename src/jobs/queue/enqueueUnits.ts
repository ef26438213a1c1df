/**
 * Putting units on the queue: the Redis connection, and each unit under its natural key as its job
 * id, so that a second enqueue of the same unit adds nothing.
 */

import { Queue, type ConnectionOptions } from "bullmq";
import { scoreUnitKey, type ScoreUnit } from "./scoreUnits.ts";

/** The queue's name when none is given. */
export const DEFAULT_QUEUE = "pathlab";

/** Attempts of a unit before it ends in the failed set. */
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
 * Puts `units` on the queue, each under its natural key; a unit already there (waiting, running,
 * done or failed) is left as it is. Resolves to how many were added and how many were there.
 * @example const { added, present } = await enqueueUnits(connection, "pathlab", units);
 */
export async function enqueueUnits(
  connection: ConnectionOptions,
  name: string,
  units: readonly ScoreUnit[],
): Promise<{ added: number; present: number }> {
  const queue = new Queue(name, { connection });
  try {
    let present = 0;
    const fresh: ScoreUnit[] = [];
    for (const unit of units) {
      if ((await queue.getJob(scoreUnitKey(unit))) !== undefined) present++;
      else fresh.push(unit);
    }
    await queue.addBulk(
      fresh.map((unit) => ({
        name: unit.kind,
        data: unit,
        opts: {
          jobId: scoreUnitKey(unit),
          attempts: UNIT_ATTEMPTS,
          backoff: { type: "exponential", delay: 1000 },
          removeOnComplete: false,
          removeOnFail: false,
        },
      })),
    );
    return { added: fresh.length, present };
  } finally {
    await queue.close();
  }
}
