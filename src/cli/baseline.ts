/**
 * `pathlab baseline`: writes a baseline candidate (zero-drift GBM or an arithmetic random walk) for
 * every prompt of a range, a first model to score and a bar to beat.
 */

import { Command, Option } from "commander";
import {
  BASELINE_MODELS,
  type BaselineModel,
  type BaselineSummary,
} from "../jobs/baseline/summary.ts";
import { COMPETITIONS, type Competition } from "../domain/assets.ts";
import { counted, noun } from "../domain/counted.ts";
import { onInterrupt } from "./interrupt.ts";
import { integerOption, listOption } from "./optionParsers.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";
import {
  addPromptRangeOptions,
  addServiceOptions,
  rethrowAsUsage,
  serviceRequest,
  type ServiceCommandOptions,
} from "./serviceOptions.ts";

interface BaselineCommandOptions extends ServiceCommandOptions {
  from: string;
  to: string;
  competition: Competition;
  assets?: string[];
  model: BaselineModel;
  out: string;
  modelSeed: number;
  simulations: number;
  force?: boolean;
  json?: boolean;
}

const MODELS_HELP = `
Models (σ = sample deviation of the asset's realized 1-minute log returns over the 24 h before the
prompt's start, × √(increment / 60); S0 = the realized price at the start; Z standard normal):
  gbm          zero-drift geometric Brownian motion, exact on the grid:
               S(t+1) = S(t)·exp(−σ²/2 + σ·Z)  (a martingale: E[S(t)] = S0)
  random-walk  arithmetic Gaussian random walk (Bachelier): S(t+1) = S(t) + S0·σ·Z
               (the same step deviation in price units as the GBM's first step)
Each file is <out>/<ASSET>-<start, ISO 8601 basic>-<horizon>.json: the spec's prediction-set
record plus asset, time_increment, time_length (what score --candidate reads), prices rounded to
8 significant digits as miners round them. A prompt's paths depend only on --model-seed, the asset
and the start. Files that pathlab baseline did not write are not overwritten without --force.

Exit codes: 0 a file for every prompt of the range, 1 some prompt without a file (listed) or no
prompt in the range, 2 bad usage, 130 interrupted (the files written until then are whole).`;

/**
 * Adds the prompts a model answers: `--competition <name>` (required, one of the competitions)
 * and `--assets <list>` (default every asset of the competition); `baseline` and `backtest`.
 * @example const command = addAnsweredPromptOptions(new Command("baseline"));
 */
export function addAnsweredPromptOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--competition <name>", "the competition whose prompts to answer")
        .choices([...COMPETITIONS])
        .makeOptionMandatory(),
    )
    .option(
      "--assets <list>",
      "comma-separated assets (default: every asset of the competition)",
      listOption("--assets", (asset) => asset),
    );
}

/**
 * The `baseline` command of the program (`buildProgram`): prints one line per file written, a
 * summary with the volatility used per asset and the commands to run next (or JSON), and sets the
 * exit code.
 * @example buildProgram(io, status).addCommand(baselineCommand(io, status));
 */
export function baselineCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command = addServiceOptions(
    addAnsweredPromptOptions(addPromptRangeOptions(new Command("baseline")))
      .description(
        "write a baseline candidate (GBM or random walk) for every prompt of a range: a first model to score and a bar to beat",
      )
      .addOption(
        new Option("--model <name>", "the model to simulate")
          .choices([...BASELINE_MODELS])
          .makeOptionMandatory(),
      )
      .requiredOption("--out <dir>", "the folder to write the files to (created when missing)")
      .option(
        "--model-seed <integer>",
        "seed of the paths' random numbers (--seed is the embedded sandbox's, as for score)",
        integerOption("--model-seed", 0, 2 ** 32 - 1),
        1,
      )
      .option(
        "--simulations <integer>",
        "paths per file, the prompt's num_simulations (the validator accepts only 1000)",
        integerOption("--simulations", 1, 100_000),
        1000,
      )
      .option("--force", "overwrite files of the folder that pathlab baseline did not write"),
  )
    .option("--json", "print the summary as JSON instead of text")
    .addHelpText("after", MODELS_HELP);
  return command.action(async (options: BaselineCommandOptions) => {
    const service = serviceRequest(command, options, io.stderr);
    const interruption = onInterrupt("baseline", io.stderr);
    let summary: BaselineSummary;
    try {
      // Loaded on use: the job's modules are not needed by the other commands.
      const { runBaseline } = await import("../jobs/baseline/baseline.ts");
      summary = await runBaseline({
        from: options.from,
        to: options.to,
        competition: options.competition,
        ...(options.assets !== undefined && { assets: options.assets }),
        model: options.model,
        out: options.out,
        modelSeed: options.modelSeed,
        simulations: options.simulations,
        force: options.force === true,
        ...service,
        onEvent: (event) => {
          if (event.type === "plan") {
            io.stderr(`baseline: ${event.competition}: ${counted(event.prompts, "prompt")}\n`);
          } else if (options.json !== true) {
            io.stdout(
              `wrote ${event.file}  ${event.asset} ${event.startTime}  S0 ${event.startPrice}  σ/step ${event.stepVolatility.toPrecision(4)} (${event.annualizedVolatilityPct.toFixed(1)} %/yr)\n`,
            );
          }
        },
        signal: interruption.signal,
      });
    } catch (error) {
      rethrowAsUsage(command, error);
    } finally {
      interruption.dispose();
    }
    io.stdout(
      options.json === true
        ? `${JSON.stringify(summary, null, 2)}\n`
        : formatBaselineReport(summary, options),
    );
    status.exitCode = summary.exitCode;
  });
}

/**
 * The summary of a baseline run: prompts, model, files, the volatility used per asset, the prompts
 * without a file, and the commands to run next (`validate`, then `score --candidate` with the same
 * range and service options).
 * @example io.stdout(formatBaselineReport(summary, { assets: ["BTC"] }));
 */
export function formatBaselineReport(
  summary: BaselineSummary,
  options: { assets?: readonly string[]; now?: string; seed?: number; baseUrl?: string } = {},
): string {
  const lines = [
    `pathlab baseline: ${summary.model}, ${counted(summary.prompts, "prompt")} of ${summary.competition} (${summary.from} → ${summary.to}, ${summary.service.kind}), ${counted(summary.files.length, "file")} in ${summary.out}${summary.replaced > 0 ? ` (${summary.replaced} replaced)` : ""}, ${counted(summary.simulations, "path")} each, model seed ${summary.modelSeed}, ${(summary.durationMs / 1000).toFixed(1)} s`,
  ];
  if (summary.simulations !== 1000) {
    lines.push(`note: the validator expects 1000 paths; these files will be rejected`);
  }
  if (summary.volatility.length > 0) {
    lines.push(
      "σ used per asset (1-minute log returns over the 24 h before each start; per step and annualized):",
    );
    for (const used of summary.volatility) {
      lines.push(
        `  ${used.asset.padEnd(6)} ${String(used.prompts).padStart(4)} ${noun(used.prompts, "prompt").padEnd(7)}  σ/step ${used.stepVolatilityMean.toPrecision(4)}  ${used.annualizedPctMean.toFixed(1)} %/yr (${used.annualizedPctMin.toFixed(1)}–${used.annualizedPctMax.toFixed(1)})`,
      );
    }
  }
  if (summary.notScoredYet > 0) {
    lines.push(
      `${summary.notScoredYet} of the files answer prompts not scored yet (the validator scores a prompt 90 s after its end): score places them once they are.`,
    );
  }
  if (summary.skipped.length > 0) {
    lines.push(`${counted(summary.skipped.length, "prompt")} without a file:`);
    for (const { asset, startTime, reason } of summary.skipped) {
      lines.push(`  ${asset} ${startTime}: ${reason}`);
    }
  }
  if (summary.files.length > 0) {
    const service = [
      ...(options.assets === undefined ? [] : ["--assets", options.assets.join(",")]),
      ...(options.baseUrl === undefined || options.baseUrl === ""
        ? []
        : ["--base-url", options.baseUrl]),
      ...(options.now === undefined ? [] : ["--now", options.now]),
      ...(options.seed === undefined ? [] : ["--seed", String(options.seed)]),
    ];
    lines.push(
      "next:",
      `  npx pathlab validate ${shellWord(summary.out)}/*.json`,
      `  npx pathlab score --candidate ${shellWord(summary.out)} --from ${summary.from} --to ${summary.to} --competition ${summary.competition}${service.map((word) => ` ${shellWord(word)}`).join("")}`,
    );
  } else if (summary.prompts === 0) {
    lines.push("No prompt of the competition starts in the range: nothing written.");
  }
  return `${lines.join("\n")}\n`;
}

/** `text` as one shell word: as it is when plain, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w./:,=@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
