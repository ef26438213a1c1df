/**
 * `pathlab backtest`: a model in any language answers a range's prompts as the validators would
 * put them, and is scored and ranked among the network's miners, with an estimate of its earnings.
 */

import { Command } from "commander";
import type { Competition } from "../domain/assets.ts";
import type { BacktestSummary } from "../jobs/backtest/backtest.ts";
import type { MinerSelection } from "../jobs/score/score.ts";
import { DEFAULT_DATABASE, DEFAULT_JOB_DEADLINE_MS } from "../jobs/harness/defaults.ts";
import { onInterrupt } from "./interrupt.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";
import { integerOption, numberOption } from "./optionParsers.ts";
import { addAnsweredPromptOptions } from "./baseline.ts";
import { minersOption } from "./score.ts";
import {
  addPromptRangeOptions,
  addServiceOptions,
  rethrowAsUsage,
  serviceRequest,
  storeTargetOf,
  type ServiceCommandOptions,
} from "./serviceOptions.ts";

interface BacktestCommandOptions extends ServiceCommandOptions {
  miners?: MinerSelection;
  model: string;
  competition: Competition;
  from: string;
  to: string;
  assets?: string[];
  out: string;
  db: string;
  lake?: string;
  concurrency: number;
  modelTimeout: number;
  maxRestarts: number;
  deadline: number;
  lookback: number;
  poolUsdPerDay?: number;
  emissionFactor: number;
  json?: boolean;
}

const HELP = `
The model: --model "<command>" runs through the shell, --concurrency copies at a time. pathlab
writes one prompt per line on its stdin, as JSON: asset, start_time (ISO 8601), time_increment,
time_length, num_simulations, and history, [[unix_seconds, price], …] of realized 1-minute closes on
the prompt's grid, every one strictly before start_time (--lookback hours of them). The model
answers each with one line on stdout: {"predictions": [[…], …]} or the validator's list format. Its
stderr shows here. Examples: examples/models/gbm.py (Python, standard library only) and
examples/models/garch.mjs (Node, GARCH(1,1) with Student-t shocks).

--model ./model.mjs (one argument, an existing .mjs or .js file) loads an ES module instead, on
--concurrency worker threads: its simulate(prompt) gets the same prompt as an object and returns
the paths (number[][], or one Float64Array of num_simulations × points, path after path) or an
answer as above; it may be async. A module without simulate exits 2 before any prompt is asked.

Each answer is kept in --out as a candidate file (rerun: only the prompts without one are asked),
then scored as score --candidate scores it: validated with the rules of its date (an invalid or
missing answer takes the validator's penalty), ranked among the network's miners. A call that
crashes, throws or passes --model-timeout costs its prompt; the model is started again, at most
--max-restarts times.

Estimated USD per day = reward weight × --pool-usd-per-day × --emission-factor (0.6935, the
official backtester's calibration against on-chain emissions): an estimate, not a promise.

Exit codes: 0 every prompt answered validly and scored, 1 otherwise (listed), 2 bad usage, 130
interrupted (the answers until then are kept).`;

/**
 * Adds the options that say what a backtest asks and of whom: `--model`, `--competition`,
 * `--assets`, `--out`, `--model-timeout` and `--lookback` (`backtest` and `enqueue backtest`).
 * @example const command = addModelOptions(new Command("backtest"));
 */
export function addModelOptions(command: Command): Command {
  return addAnsweredPromptOptions(
    command.requiredOption(
      "--model <command>",
      "the model's command line, or its ES module file (see below)",
    ),
  )
    .option("--out <dir>", "the folder of the model's answers", "./backtest")
    .option(
      "--model-timeout <seconds>",
      "seconds a model call may take",
      numberOption("--model-timeout", 0.1, 3600),
      60,
    )
    .option(
      "--lookback <hours>",
      "hours of realized prices in each prompt's history",
      integerOption("--lookback", 1, 168),
      24,
    );
}

/**
 * The `backtest` command of the program (`buildProgram`): runs the model and prints a table per
 * competition (or JSON), and sets the exit code.
 * @example buildProgram(io, status).addCommand(backtestCommand(io, status));
 */
export function backtestCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command = addServiceOptions(
    addModelOptions(
      addPromptRangeOptions(new Command("backtest")).description(
        "run your model (any language) over a range as the validators prompt it; its rank, reward weight and estimated earnings",
      ),
    )
      .option(
        "--miners <selection>",
        "top:N or uid,uid: the miners recomputed from their path sets, the others taking the service's CRPS (default: every miner; own-only with --base-url)",
        minersOption,
      )
      .option("--db <path>", "the database the scores go to", DEFAULT_DATABASE)
      .option(
        "--lake <dir>",
        "score into a Parquet lake instead (readable while the run goes on, as score --lake writes it)",
      )
      .option(
        "--deadline <seconds>",
        `the longest the whole backtest, answers and scoring, may take (${DEFAULT_JOB_DEADLINE_MS / 3_600_000} hours by default); past it, the model is stopped, the answers written are kept, and it exits 1`,
        integerOption("--deadline", 1, 7 * 86_400),
        DEFAULT_JOB_DEADLINE_MS / 1000,
      )
      .option(
        "--concurrency <n>",
        "copies of the model asked at a time",
        integerOption("--concurrency", 1, 64),
        1,
      )
      .option(
        "--max-restarts <n>",
        "restarts of a failing model before the run stops",
        integerOption("--max-restarts", 0, 1000),
        3,
      )
      .option(
        "--pool-usd-per-day <usd>",
        "the miners' pool per day, for the earnings estimate",
        numberOption("--pool-usd-per-day", 0, 1e12),
      )
      .option(
        "--emission-factor <factor>",
        "the estimate's normalization factor",
        numberOption("--emission-factor", 0, 10),
        0.6935,
      ),
  )
    .option("--json", "print the summary as JSON instead of text")
    .addHelpText("after", HELP);
  return command.action(async (options: BacktestCommandOptions) => {
    const service = serviceRequest(command, options, io.stderr);
    const interruption = onInterrupt("backtest", io.stderr);
    let summary: BacktestSummary;
    try {
      const { runBacktest } = await import("../jobs/backtest/backtest.ts");
      summary = await runBacktest({
        model: options.model,
        competition: options.competition,
        from: options.from,
        to: options.to,
        ...(options.assets !== undefined && { assets: options.assets }),
        ...(options.miners !== undefined && { miners: options.miners }),
        out: options.out,
        ...storeTargetOf(command, options),
        concurrency: options.concurrency,
        modelTimeoutSeconds: options.modelTimeout,
        maxRestarts: options.maxRestarts,
        deadlineMs: options.deadline * 1000,
        lookbackSeconds: options.lookback * 3600,
        ...(options.poolUsdPerDay !== undefined && { poolUsdPerDay: options.poolUsdPerDay }),
        emissionFactor: options.emissionFactor,
        ...service,
        onAnswer: (prompt, file) => {
          if (options.json !== true)
            io.stderr(`answered ${prompt.asset} ${prompt.start_time}: ${file}\n`);
        },
        signal: interruption.signal,
      });
    } catch (error) {
      rethrowAsUsage(command, error);
    } finally {
      interruption.dispose();
    }
    if (options.json === true) {
      const { score: _score, ...rest } = summary;
      io.stdout(`${JSON.stringify(rest, null, 2)}\n`);
    } else {
      const { formatBacktestReport } = await import("./backtestReport.ts");
      io.stdout(formatBacktestReport(summary, io.stdoutColors === true));
    }
    status.exitCode = summary.exitCode;
  });
}
