/**
 * `pathlab score`: score miners exactly as the network's validator does over a range of prompts,
 * compare every number with the service's own, store it all, and rank a candidate model.
 */

import { Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import type { MinerSelection } from "../jobs/score/score.ts";
import type { RecordReplaySummary } from "../service/replay.ts";
import type { ScoreEvent, ScoreSummary } from "../jobs/score/summary.ts";
import { formatScoreReport } from "./scoreReport.ts";
import { COMPETITIONS, type Competition } from "../domain/assets.ts";
import { counted } from "../domain/counted.ts";
import { onInterrupt } from "./interrupt.ts";
import { integerOption, listOption } from "./optionParsers.ts";
import { watchCommand } from "./scoreWatch.ts";
import { UsageError } from "../service/usageError.ts";
import {
  addDeploymentOptions,
  addJobOptions,
  addPromptRangeOptions,
  addServiceOptions,
  addWatchCadenceOptions,
  deploymentOf,
  rethrowAsUsage,
  serviceRequest,
  storeTargetOf,
  type ServiceCommandOptions,
  type DeploymentCommandOptions,
} from "./serviceOptions.ts";
import { DEFAULT_ERA_SETTINGS, type EraSettings } from "../domain/eras.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";

interface ScoreCommandOptions extends ServiceCommandOptions, DeploymentCommandOptions {
  from?: string;
  to?: string;
  watch?: boolean;
  every: number;
  lookback: number;
  competition: Competition | "all";
  assets?: string[];
  miners?: MinerSelection;
  ownOnly?: boolean;
  candidate?: string;
  outlierCapFrom?: number | null;
  volatilityCrpsFrom?: number | null;
  formatRuleFrom?: number | null;
  db: string;
  lake?: string;
  unitDeadline: number;
  deadline: number;
  threads?: number;
  json?: boolean;
  record?: string;
  replay?: string;
}

/**
 * The `score` command of the program (`buildProgram`): prints a leaderboard per competition (or JSON),
 * progress on stderr, and sets the exit code (0 every number agrees, 1 a disagreement, 2 usage).
 * @example buildProgram(io, status).addCommand(scoreCommand(io, status));
 */
export function scoreCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command = addJobOptions(
    "prompt",
    addDeploymentOptions(
      addServiceOptions(
        addCompetitionOptions(
          addPromptRangeOptions(watchOptions(new Command("score")), false).description(
            "score miners exactly as the network's validator does, compare with the service's scores, store it all with calibration, and rank your own model",
          ),
        )
          .option(
            "--miners <selection>",
            "top:N (meta-leaderboard) or uid,uid (default: every miner the service scored)",
            minersOption,
          )
          .option(
            "--own-only",
            "recompute only the candidate: no miner's path set is fetched, every miner takes the service's CRPS, as the network's backtester does (the default with --base-url and no --miners: miners' path sets need elevated access and are kept 6–11 days)",
          )
          .option(
            "--no-own-only",
            "recompute every selected miner from its path set (default with the embedded sandbox)",
          )
          .option(
            "--candidate <dir>",
            "a folder of your model's answers (*.json; see 'npx pathlab validate --help' for the layouts): it is scored as one more miner on every prompt of its competitions and assets, the fill where it has no file",
          )
          .option("--db <path>", "the DuckDB file to write", DEFAULT_DATABASE)
          .option(
            "--lake <dir>",
            "write each prompt's rows into a Parquet lake instead (readable while the run goes on, as `pathlab worker` writes it)",
          )
          .option(
            "--threads <n>",
            "worker threads that score whole prompts, several at once (default: the machine's cores; 0: all on the main thread)",
            integerOption("--threads", 0, 256),
          ),
      ),
    )
      .option(
        "--outlier-cap-from <time|off>",
        `when the 10 × median outlier cap joined the p95 rule (default ${dayOf(DEFAULT_ERA_SETTINGS.outlierCapFromUnix)})`,
        eraDateOption("--outlier-cap-from"),
      )
      .option(
        "--volatility-crps-from <time|off>",
        `when crypto-1h prompts gained the volatility CRPS (default ${dayOf(DEFAULT_ERA_SETTINGS.volatilityCrpsFromUnix)})`,
        eraDateOption("--volatility-crps-from"),
      )
      .option(
        "--format-rule-from <time|off>",
        `when responses were first checked with the v1.10.3 price format rule (default ${dayOf(DEFAULT_ERA_SETTINGS.responseFormatFromUnix)})`,
        eraDateOption("--format-rule-from"),
      )
      .option("--json", "print the summary as JSON instead of tables")
      .addHelpText(
        "after",
        "\nThe validator's rules are those of each prompt's date (pathlab's era table): the\n" +
          "competitions and their shares, the prompt-score rule, the 1h gap formula, the price format\n" +
          "rule, SPYX → SP500, the crypto-1h volatility CRPS. Miners are keyed by hotkey; smoothed\n" +
          "scores are computed at every validator update of the range (table rank_history).\n" +
          "\nExit codes: 0 every recomputed number agrees with the service's, 1 a disagreement (shown\n" +
          "loudly; a bug on one side), a prompt that failed (recorded with its reason; the others are\n" +
          "scored) or a candidate file that answers no prompt of the range, 2 bad usage, 130\n" +
          "interrupted (Ctrl-C or SIGTERM; the prompts scored until then are kept, the one being\n" +
          "written is rolled back). Each prompt is stored in one transaction under its natural key, so\n" +
          "rerunning a range changes no row count.",
      ),
  );
  return command.action(async (options: ScoreCommandOptions) => {
    const service = serviceRequest(command, options, io.stderr);
    const onEvent = progressPrinter(io);
    const interruption = onInterrupt("score", io.stderr);
    let summary: ScoreSummary & RecordReplaySummary;
    let endLine: string | undefined;
    const common = {
      competition: options.competition,
      ...(options.assets !== undefined && { assets: options.assets }),
      ...(options.miners !== undefined && { miners: options.miners }),
      ...(options.candidate !== undefined && { candidate: options.candidate }),
      ...(options.ownOnly !== undefined && { ownOnly: options.ownOnly }),
      ...deploymentOf(options),
      eraSettings: eraSettingsOf(options),
      unitDeadlineMs: options.unitDeadline * 1000,
      deadlineMs: options.deadline * 1000,
      ...(options.threads !== undefined && { threads: options.threads }),
      ...storeTargetOf(command, options),
      ...service,
      signal: interruption.signal,
    };
    try {
      if (options.watch === true) {
        await watchCommand(io, options, common);
        return;
      }
      if (options.from === undefined || options.to === undefined) {
        throw new UsageError("score: --from and --to are required (or --watch)");
      }
      // Loaded on use: the job's modules are not needed by the other commands.
      const { runScore } = await import("../jobs/score/score.ts");
      summary = await runScore({
        ...common,
        from: options.from,
        to: options.to,
        ...(options.record !== undefined && { record: options.record }),
        ...(options.replay !== undefined && { replay: options.replay }),
        onEvent,
      });
      const { recordReplayLine } = await import("../service/recordReplay.ts");
      endLine = recordReplayLine("score", summary);
    } catch (error) {
      rethrowAsUsage(command, error);
    } finally {
      interruption.dispose();
    }
    io.stdout(options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatScoreReport(summary));
    if (endLine !== undefined) io.stderr(`${endLine}\n`);
    status.exitCode = summary.exitCode;
  });
}

/** `--watch` and its cadence: a watch instead of a range. */
function watchOptions(command: Command): Command {
  return addWatchCadenceOptions(
    command.option(
      "--watch",
      "instead of --from/--to: score the new prompts of the last --lookback hours every --every seconds, until SIGINT/SIGTERM (prompts already stored are not scored again)",
    ),
    "with --watch: ",
  );
}

function eraSettingsOf(options: ScoreCommandOptions): EraSettings {
  return {
    ...(options.outlierCapFrom !== undefined && { outlierCapFromUnix: options.outlierCapFrom }),
    ...(options.volatilityCrpsFrom !== undefined && {
      volatilityCrpsFromUnix: options.volatilityCrpsFrom,
    }),
    ...(options.formatRuleFrom !== undefined && { responseFormatFromUnix: options.formatRuleFrom }),
  };
}

/** An era setting: an ISO time (Unix seconds) or `off` (null: the change never applies). */
function eraDateOption(name: string): (text: string) => number | null {
  return (text) => {
    if (text === "off") return null;
    const milliseconds = parseIsoTimeMs(text);
    if (Number.isNaN(milliseconds)) {
      throw new InvalidArgumentError(
        `${name} must be an ISO 8601 time such as 2026-09-01 or off, got ${JSON.stringify(text)}`,
      );
    }
    return Math.floor(milliseconds / 1000);
  };
}

function dayOf(unix: number | null): string {
  return unix === null ? "off" : new Date(unix * 1000).toISOString().slice(0, 10);
}

/**
 * Adds `--competition` (one, or `all`) and `--assets` (a comma-separated list) to `command`, as
 * `score` and `enqueue` take them, and returns it.
 * @example const command = addCompetitionOptions(new Command("score"));
 */
export function addCompetitionOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--competition <name>", "the competition to score")
        .choices([...COMPETITIONS, "all"])
        .default("all"),
    )
    .option(
      "--assets <list>",
      "comma-separated assets (default: every asset of the competitions)",
      listOption("--assets", (asset) => asset),
    );
}

/** `--miners`: `top:N` or a comma-separated list of uids. */
export function minersOption(text: string): MinerSelection {
  const top = /^top:(\d+)$/.exec(text.trim());
  if (top !== null && Number(top[1]) >= 1) return { top: Number(top[1]) };
  const uids = text.split(",").map((item) => item.trim());
  if (uids.length > 0 && uids.every((uid) => /^\d+$/.test(uid))) {
    return { uids: uids.map(Number) };
  }
  throw new InvalidArgumentError(
    `--miners must be top:N (N ≥ 1) or a comma-separated list of uids, got ${JSON.stringify(text)}`,
  );
}

function progressPrinter(io: ProgramIo): (event: ScoreEvent) => void {
  return (event) => {
    if (event.type === "plan") {
      io.stderr(`score: ${event.competition}: ${counted(event.prompts, "prompt")} to score\n`);
    } else {
      io.stderr(
        `score: ${event.competition} [${event.done}/${event.of}] ${event.asset} ${event.startTime}: ${counted(event.miners, "miner")}\n`,
      );
    }
  };
}
