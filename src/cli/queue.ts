/**
 * `pathlab enqueue score|sync|watch|backtest`: a range's score, sync or backtest units (or a watch)
 * on a Redis queue, for `pathlab worker` processes (`worker.ts`) on any machine.
 * `pathlab queue status|unwatch|retry` are in `queueAdmin.ts`.
 */

import { sandboxText } from "../service/serviceInfo.ts";
import { Command } from "commander";
import type { Competition } from "../domain/assets.ts";
import type { MinerSelection } from "../jobs/score/score.ts";
import type { EnqueueSummary } from "../jobs/queue/enqueue.ts";
import { UsageError } from "../service/usageError.ts";
import type { UnitService } from "../jobs/score/queueUnit.ts";
import { counted } from "../domain/counted.ts";
import { addModelOptions } from "./backtest.ts";
import { addQueueOptions } from "./queueAdmin.ts";
import type { ProgramIo } from "./io.ts";
import { addCompetitionOptions, minersOption } from "./score.ts";
import { addSyncSelectionOptions } from "./sync.ts";
import {
  addDeploymentOptions,
  addPromptRangeOptions,
  addServiceOptions,
  addWatchCadenceOptions,
  deploymentOf,
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
    ...queueTargetOf(command, options, io),
  };
}

/** Where an enqueue command puts its units: the deployment, the service, Redis and the queue. */
function queueTargetOf(command: Command, options: EnqueueCommandOptions, io: ProgramIo) {
  return {
    ...deploymentOf(options),
    ...serviceRequest(command, options, io.stderr),
    redis: options.redis,
    queue: options.queue,
  };
}

function watchingLine(
  installed: { id: string; queue: string; service: UnitService },
  every: number,
): string {
  return (
    `watching: ${installed.id} on queue ${installed.queue} every ${every} s, ` +
    `against ${serviceText(installed.service)}\n`
  );
}

function enqueuedLine(summary: EnqueueSummary): string {
  return (
    `enqueued: ${summary.added} of ${counted(summary.units, "unit")} on queue ${summary.queue} ` +
    `(${summary.present} already there), against ${serviceText(summary.service)}\n`
  );
}

function serviceText(service: UnitService): string {
  return service.kind === "sandbox" ? sandboxText(service) : service.baseUrl;
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
  const sync = addWatchCadenceOptions(
    addQueueOptions(
      addDeploymentOptions(
        addServiceOptions(
          addSyncSelectionOptions(addPromptRangeOptions(new Command("sync"), false, "forecasts"))
            .description(
              "put the sync units of a range (one per asset, horizon and forecast start) on the queue, a unit already there left as it is; or, with --watch, install a watch that enqueues each new forecast",
            )
            .option(
              "--watch",
              "instead of a range: every --every seconds a worker enqueues the forecasts of the last --lookback hours (each once); it lives in Redis until `pathlab queue unwatch`",
            ),
        ),
      ),
    ),
    "with --watch: ",
  );
  sync.action(
    async (
      options: EnqueueCommandOptions & {
        horizons?: string[];
        watch?: boolean;
        every: number;
        lookback: number;
      },
    ) => {
      const { runEnqueueSync, runEnqueueSyncWatch } = await import("../jobs/queue/enqueue.ts");
      const selection = {
        ...(options.assets !== undefined && { assets: options.assets }),
        ...(options.horizons !== undefined && { horizons: options.horizons }),
        ...queueTargetOf(sync, options, io),
      };
      try {
        const ranged = options.from !== undefined || options.to !== undefined;
        if (options.watch === true && ranged) {
          throw new UsageError(
            "enqueue sync: --watch follows the new forecasts; --from/--to enqueue a range: give one",
          );
        }
        if (options.watch === true) {
          const installed = await runEnqueueSyncWatch({
            ...selection,
            everySeconds: options.every,
            lookbackHours: options.lookback,
          });
          io.stdout(watchingLine(installed, options.every));
          return;
        }
        if (!ranged) {
          throw new UsageError("enqueue sync: expected --from and --to, or --watch");
        }
        const summary = await runEnqueueSync({
          ...selection,
          from: options.from as string,
          to: options.to as string,
        });
        io.stdout(enqueuedLine(summary));
      } catch (error) {
        rethrowAsUsage(sync, error);
      }
    },
  );
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
    io.stdout(watchingLine(installed, options.every));
  });
  return new Command("enqueue")
    .description("put units on a Redis queue for `pathlab worker` processes")
    .addCommand(score)
    .addCommand(sync)
    .addCommand(watch)
    .addCommand(enqueueBacktestCommand(io));
}

const BACKTEST_HELP = `
Each unit is one prompt: a worker asks the model for it (unless --out already holds its answer),
keeps the answer in --out as pathlab backtest does, and scores the prompt with the answer as one
more miner into its lake. A failed call costs its prompt the validator's penalty. The command
runs through the shell in each worker's working folder; --out (and a module's file) are made
absolute here, so every worker must reach them (a shared folder beyond one machine). Once the
workers are done, pathlab lake reduce --from --to ranks the model among the miners.`;

/** `pathlab enqueue backtest`: a backtest's prompts as units, answered and scored by workers. */
function enqueueBacktestCommand(io: ProgramIo): Command {
  const command = addQueueOptions(
    addDeploymentOptions(
      addServiceOptions(
        addModelOptions(addPromptRangeOptions(new Command("backtest")))
          .description(
            "put a backtest's prompts on the queue: workers ask your model for each and score it among the miners",
          )
          .option(
            "--miners <selection>",
            "top:N or uid,uid: the miners recomputed from their path sets (default: every miner; own-only with --base-url)",
            minersOption,
          ),
      ),
    ),
  ).addHelpText("after", BACKTEST_HELP);
  type Options = EnqueueCommandOptions & {
    model: string;
    from: string;
    to: string;
    out: string;
    modelTimeout: number;
    lookback: number;
  };
  return command.action(async (options: Options) => {
    const { runEnqueueBacktest } = await import("../jobs/queue/enqueueBacktest.ts");
    let summary;
    try {
      summary = await runEnqueueBacktest({
        model: options.model,
        competition: options.competition as Competition,
        from: options.from,
        to: options.to,
        ...(options.assets !== undefined && { assets: options.assets }),
        ...(options.miners !== undefined && { miners: options.miners }),
        out: options.out,
        modelTimeoutSeconds: options.modelTimeout,
        lookbackSeconds: options.lookback * 3600,
        ...queueTargetOf(command, options, io),
      });
    } catch (error) {
      rethrowAsUsage(command, error);
    }
    io.stdout(enqueuedLine(summary));
  });
}
