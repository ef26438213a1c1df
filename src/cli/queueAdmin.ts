/**
 * The queue as its user looks after it: `pathlab queue status` (counts, failures, watches, the
 * shared request rate), `pathlab queue unwatch` and `pathlab queue retry`; and the Redis options
 * and connection that every queue command shares.
 */

import { Command, Option } from "commander";
import { counted } from "../domain/counted.ts";
import type { ProgramIo } from "./io.ts";

const REDIS_HELP = "the Redis of the queue, e.g. redis://127.0.0.1:6379";

/**
 * BullMQ's connection to the Redis at `url`, once it answered: `command`'s usage error (exit 2) for
 * a URL that is not Redis's, and one line naming the server when it does not answer.
 * @example const connection = await reachedConnection(command, options.redis);
 */
export async function reachedConnection(command: Command, url: string) {
  const { reachRedis, redisConnection } = await import("../jobs/queue/enqueueUnits.ts");
  let connection: ReturnType<typeof redisConnection>;
  try {
    connection = redisConnection(url);
  } catch (error) {
    return command.error(`error: ${(error as Error).message}`, { exitCode: 2 });
  }
  await reachRedis(url);
  return connection;
}

/**
 * Adds `--redis` (mandatory, or `PATHLAB_REDIS`) and `--queue` to a queue command.
 * @example const status = addQueueOptions(new Command("status"));
 */
export function addQueueOptions(command: Command): Command {
  return command
    .addOption(new Option("--redis <url>", REDIS_HELP).env("PATHLAB_REDIS").makeOptionMandatory())
    .option("--queue <name>", "the queue's name (one per deployment)", "pathlab");
}

/**
 * `pathlab queue status`: the queue's counts and its failed units with their reasons.
 * @example program.addCommand(queueCommand(io));
 */
export function queueCommand(io: ProgramIo): Command {
  const status = addQueueOptions(new Command("status"))
    .description(
      "the queue's counts (waiting, active, delayed, completed, failed) and the failures",
    )
    .option("--json", "print as JSON");
  status.action(async (options: { redis: string; queue: string; json?: boolean }) => {
    const { queueStatus } = await import("../jobs/queue/queueStatus.ts");
    const connection = await reachedConnection(status, options.redis);
    const result = await queueStatus(connection, options.queue);
    if (options.json === true) {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const counts = Object.entries(result.counts)
      .map(([state, count]) => `${state} ${count}`)
      .join(", ");
    io.stdout(`queue ${options.queue}: ${counts}\n`);
    if (result.requestsPerSecond !== undefined) {
      io.stdout(`requests: at most ${result.requestsPerSecond} per second to each service\n`);
    }
    for (const watch of result.watches) {
      io.stdout(`watch: ${watch.id} every ${(watch.everyMs ?? 0) / 1000} s\n`);
    }
    for (const failure of result.failed) {
      io.stdout(
        `failed: ${failure.unit} after ${counted(failure.attempts, "attempt")}: ${failure.reason}\n`,
      );
    }
  });
  const unwatch = addQueueOptions(new Command("unwatch")).description(
    "remove the queue's watches (the units they enqueued stay)",
  );
  unwatch.action(async (options: { redis: string; queue: string }) => {
    const { stopWatches } = await import("../jobs/queue/watch.ts");
    const connection = await reachedConnection(unwatch, options.redis);
    const removed = await stopWatches(connection, options.queue);
    io.stdout(`unwatched: ${removed.length === 0 ? "no watch" : removed.join(", ")}\n`);
  });
  const retry = addQueueOptions(new Command("retry")).description(
    "run the failed units again (once their cause is fixed: a worker's key or lake, the service)",
  );
  retry.action(async (options: { redis: string; queue: string }) => {
    const { retryFailed } = await import("../jobs/queue/queueStatus.ts");
    const connection = await reachedConnection(retry, options.redis);
    io.stdout(`retried: ${counted(await retryFailed(connection, options.queue), "failed unit")}\n`);
  });
  return new Command("queue")
    .description("the queue of units")
    .addCommand(status)
    .addCommand(unwatch)
    .addCommand(retry);
}
