/** `pathlab worker`: runs queued units (score, sync and backtest) on any machine into a Parquet lake. */

import { Command } from "commander";
import { counted } from "../domain/counted.ts";
import { onInterrupt } from "./interrupt.ts";
import { integerOption, numberOption } from "./optionParsers.ts";
import { addQueueOptions, reachedConnection } from "./queueAdmin.ts";
import type { ProgramIo } from "./io.ts";

interface WorkerCommandOptions {
  redis: string;
  queue: string;
  lake: string;
  concurrency: number;
  untilIdle?: boolean;
  lockSeconds: number;
  unitsPerMinute?: number;
  globalConcurrency?: number;
  requestsPerSecond?: number;
}

/**
 * `pathlab worker`: runs queued units into the lake until stopped (or idle).
 * @example program.addCommand(workerCommand(io));
 */
export function workerCommand(io: ProgramIo): Command {
  const command = addQueueOptions(new Command("worker"))
    .description(
      "run units from the queue and write their rows into a Parquet lake; run one on every machine",
    )
    .requiredOption("--lake <dir>", "the lake the rows go into (new, empty, or a pathlab lake)")
    .option(
      "--concurrency <n>",
      "units this process runs at once",
      integerOption("--concurrency", 1, 64),
      1,
    )
    .option("--until-idle", "exit once the queue has nothing waiting or running")
    .option(
      "--lock-seconds <s>",
      "how long a unit's lock lasts unrenewed: a worker that dies gives its unit back after this",
      integerOption("--lock-seconds", 1, 3600),
      30,
    )
    .option(
      "--units-per-minute <n>",
      "at most this many units start per minute over every worker of the queue",
      integerOption("--units-per-minute", 1, 1_000_000),
    )
    .option(
      "--global-concurrency <n>",
      "at most this many units run at once over every worker of the queue",
      integerOption("--global-concurrency", 1, 10_000),
    )
    .option(
      "--requests-per-second <n>",
      "at most this many requests per second to a service over every worker of the queue, " +
        "evenly spaced (0 removes the limit); set it a little below the service's own limit",
      numberOption("--requests-per-second", 0, 10_000),
    )
    .addHelpText(
      "after",
      "\nA service's key comes from this machine's PATHLAB_API_KEY; units never carry it. SIGINT or\n" +
        "SIGTERM lets the running units finish and then exits; a worker killed outright loses\n" +
        "nothing: its unit goes back to the queue when its lock lapses. A unit that fails three\n" +
        "times ends in the failed set (`pathlab queue status`).",
    );
  command.action(async (options: WorkerCommandOptions) => {
    const { runQueueWorker } = await import("../jobs/queue/unitQueue.ts");
    const connection = await reachedConnection(command, options.redis);
    const interruption = onInterrupt("worker", io.stderr);
    try {
      const tally = await runQueueWorker({
        connection,
        queue: options.queue,
        lake: options.lake,
        concurrency: options.concurrency,
        untilIdle: options.untilIdle === true,
        lockMs: options.lockSeconds * 1000,
        ...(options.unitsPerMinute !== undefined && { unitsPerMinute: options.unitsPerMinute }),
        ...(options.globalConcurrency !== undefined && {
          globalConcurrency: options.globalConcurrency,
        }),
        ...(options.requestsPerSecond !== undefined && {
          requestsPerSecond: options.requestsPerSecond,
        }),
        signal: interruption.signal,
        onProblem: (message) => io.stderr(`worker: ${message}\n`),
        onUnit: (event) =>
          io.stderr(
            !event.ok
              ? `worker: ${event.unit} failed: ${event.reason}\n`
              : event.planned !== undefined
                ? `worker: ${event.unit}: ${counted(event.planned, "new unit")} enqueued\n`
                : `worker: ${event.unit} stored (${counted(event.rows ?? 0, "row")}${leftOut(event)})\n`,
          ),
      });
      io.stdout(
        `worker: ${counted(tally.done, "unit")} stored, ${counted(tally.failed, "failed attempt")}\n`,
      );
    } finally {
      interruption.dispose();
    }
  });
  return command;
}

/**
 * What went wrong in a unit stored all the same, for the worker's line of the unit: a sync unit's
 * records or path sets left out, a backtest unit's model call that cost its prompt the penalty.
 */
function leftOut(event: { failures?: readonly string[]; penalized?: readonly string[] }): string {
  const { failures, penalized } = event;
  const said: string[] = [];
  if (failures !== undefined && failures.length > 0) {
    said.push(`; ${failures.length} left out: ${failures.join("; ")}`);
  }
  if (penalized !== undefined && penalized.length > 0) {
    said.push(`; penalized: ${penalized.join("; ")}`);
  }
  return said.join("");
}
