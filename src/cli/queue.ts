/**
 * The commands of many machines: `pathlab enqueue score|sync|watch` puts a range's score or sync
 * units (or a watch) on a Redis queue, and `pathlab worker` runs them on any machine into a Parquet lake.
 * `pathlab queue status|unwatch|retry` are in `queueAdmin.ts`.
 */

import { Command } from "commander";
import type { Competition } from "../spec/assets.ts";
import type { MinerSelection } from "../jobs/score.ts";
import type { EnqueueSummary } from "../jobs/queue/enqueue.ts";
import type { UnitService } from "../jobs/queue/scoreUnits.ts";
import { onInterrupt } from "./interrupt.ts";
import { integerOption, numberOption } from "./optionParsers.ts";
import { addQueueOptions, reachedConnection } from "./queueAdmin.ts";
import type { ProgramIo } from "./program.ts";
import { addCompetitionOptions, minersOption } from "./score.ts";
import { addSyncSelectionOptions } from "./sync.ts";
import {
  addDeploymentOptions,
  addPromptRangeOptions,
  addServiceOptions,
  addWatchCadenceOptions,
  deploymentOptions,
  rethrowAsUsage,
  serviceRequest,
  type DeploymentCommandOptions,
  type ServiceCommandOptions,
} from "./serviceOptions.ts";

interface EnqueueCommandOptions extends ServiceCommandOptions, DeploymentCommandOptions {
  from?: string;
  to?: string;
  competition: Competition | "all";
  assets?: string[];
  miners?: MinerSelection;
  ownOnly?: boolean;
  redis: string;
  queue: string;
}

/** The selection options that `enqueue score` and `enqueue watch` share with `score`. */
function addSelectionOptions(command: Command): Command {
  return addQueueOptions(
    addDeploymentOptions(
      addServiceOptions(
        addCompetitionOptions(command)
          .option("--miners <selection>", "top:N (resolved when planned) or uid,uid", minersOption)
          .option(
            "--own-only",
            "recompute no miner's path set: every miner takes the service's CRPS",
          )
          .option("--no-own-only", "recompute every selected miner from its path set"),
      ),
    ),
  );
}

function selectionOf(command: Command, options: EnqueueCommandOptions, io: ProgramIo) {
  return {
    competition: options.competition,
    ...(options.assets !== undefined && { assets: options.assets }),
    ...(options.miners !== undefined && { miners: options.miners }),
    ...(options.ownOnly !== undefined && { ownOnly: options.ownOnly }),
    client: deploymentOptions(options),
    ...serviceRequest(command, options, io.stderr),
    redis: options.redis,
    queue: options.queue,
  };
}

function enqueuedLine(summary: EnqueueSummary): string {
  return (
    `enqueued: ${summary.added} of ${summary.units} units on queue ${summary.queue} ` +
    `(${summary.present} already there), against ${serviceText(summary.service)}\n`
  );
}

function serviceText(service: UnitService): string {
  return service.kind === "sandbox"
    ? `the embedded sandbox (seed ${service.seed}, now ${service.now})`
    : service.baseUrl;
}

/**
 * `pathlab enqueue score` (the units of a range on the queue, under their natural keys) and
 * `pathlab enqueue watch` (a watch that the workers follow).
 * @example program.addCommand(enqueueCommand(io));
 */
export function enqueueCommand(io: ProgramIo): Command {
  const score = addSelectionOptions(
    addPromptRangeOptions(new Command("score")).description(
      "put the score units of a range (one per competition, asset and prompt) on the queue; a unit already there is left as it is",
    ),
  );
  score.action(async (options: EnqueueCommandOptions) => {
    const { runEnqueueScore } = await import("../jobs/queue/enqueue.ts");
    let summary;
    try {
      summary = await runEnqueueScore({
        ...selectionOf(score, options, io),
        from: options.from as string,
        to: options.to as string,
      });
    } catch (error) {
      rethrowAsUsage(score, error);
    }
    io.stdout(enqueuedLine(summary));
  });
  const sync = addQueueOptions(
    addDeploymentOptions(
      addServiceOptions(
        addSyncSelectionOptions(
          addPromptRangeOptions(new Command("sync"), true, "forecasts"),
        ).description(
          "put the sync units of a range (one per asset, horizon and forecast start) on the queue; a unit already there is left as it is",
        ),
      ),
    ),
  );
  sync.action(async (options: EnqueueCommandOptions & { horizons?: string[] }) => {
    const { runEnqueueSync } = await import("../jobs/queue/enqueue.ts");
    let summary;
    try {
      summary = await runEnqueueSync({
        from: options.from as string,
        to: options.to as string,
        ...(options.assets !== undefined && { assets: options.assets }),
        ...(options.horizons !== undefined && { horizons: options.horizons }),
        client: deploymentOptions(options),
        ...serviceRequest(sync, options, io.stderr),
        redis: options.redis,
        queue: options.queue,
      });
    } catch (error) {
      rethrowAsUsage(sync, error);
    }
    io.stdout(enqueuedLine(summary));
  });
  const watch = addWatchCadenceOptions(
    addSelectionOptions(
      new Command("watch").description(
        "install a watch: every --every seconds a worker enqueues the prompts scored in the last --lookback hours (each prompt once); it lives in Redis until `pathlab queue unwatch`",
      ),
    ),
  );
  watch.action(async (options: EnqueueCommandOptions & { every: number; lookback: number }) => {
    const { runEnqueueWatch } = await import("../jobs/queue/enqueue.ts");
    let installed;
    try {
      installed = await runEnqueueWatch({
        ...selectionOf(watch, options, io),
        everySeconds: options.every,
        lookbackHours: options.lookback,
      });
    } catch (error) {
      rethrowAsUsage(watch, error);
    }
    io.stdout(
      `watching: ${installed.id} on queue ${installed.queue} every ${options.every} s, ` +
        `against ${serviceText(installed.service)}\n`,
    );
  });
  return new Command("enqueue")
    .description("put units on a Redis queue for `pathlab worker` processes")
    .addCommand(score)
    .addCommand(sync)
    .addCommand(watch);
}

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
                ? `worker: ${event.unit}: ${event.planned} new units enqueued\n`
                : `worker: ${event.unit} stored (${event.rows} rows${leftOut(event.failures)})\n`,
          ),
      });
      io.stdout(`worker: ${tally.done} units stored, ${tally.failed} failed attempts\n`);
    } finally {
      interruption.dispose();
    }
  });
  return command;
}

/** A sync unit's failures that left the rest stored, for the worker's line of the unit. */
function leftOut(failures: readonly string[] | undefined): string {
  if (failures === undefined || failures.length === 0) return "";
  return `; ${failures.length} left out: ${failures.join("; ")}`;
}
