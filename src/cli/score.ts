/**
 * `pathlab score`: score miners exactly as the network's validator does over a range of prompts,
 * compare every number with the service's own, store it all, and rank a candidate model.
 */

import { Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_DATABASE } from "../jobs/jobDefaults.ts";
import type { MinerSelection } from "../jobs/score.ts";
import type { CompetitionScores, ScoreEvent, ScoreSummary } from "../jobs/scoreSummary.ts";
import { SyncUsageError } from "../jobs/syncUsageError.ts";
import { COMPETITIONS, type Competition } from "../spec/assets.ts";
import { EXIT_USAGE } from "./errors.ts";
import { onInterrupt } from "./interrupt.ts";
import { isoTimeOption, listOption } from "./optionParsers.ts";
import { addServiceOptions } from "./serviceOptions.ts";
import type { ProgramIo, ProgramStatus } from "./program.ts";

interface ScoreCommandOptions {
  from: string;
  to: string;
  competition: Competition | "all";
  assets?: string[];
  miners?: MinerSelection;
  candidate?: string;
  db: string;
  baseUrl?: string;
  apiKey?: string;
  now?: string;
  seed?: number;
  json?: boolean;
}

/**
 * The `score` command of the program (`buildProgram`): prints a leaderboard per competition (or JSON),
 * progress on stderr, and sets the exit code (0 every number agrees, 1 a disagreement, 2 usage).
 * @example buildProgram(io, status).addCommand(scoreCommand(io, status));
 */
export function scoreCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command = addServiceOptions(
    new Command("score")
      .description(
        "score miners exactly as the network's validator does, compare with the service's scores, store it all with calibration, and rank your own model",
      )
      .requiredOption(
        "--from <time>",
        "prompts starting from this time, ISO 8601",
        isoTimeOption("--from"),
      )
      .requiredOption(
        "--to <time>",
        "prompts starting up to this time, ISO 8601",
        isoTimeOption("--to"),
      )
      .addOption(
        new Option("--competition <name>", "the competition to score")
          .choices([...COMPETITIONS, "all"])
          .default("all"),
      )
      .option(
        "--assets <list>",
        "comma-separated assets (default: every asset of the competitions)",
        listOption("--assets", (asset) => asset),
      )
      .option(
        "--miners <selection>",
        "top:N (meta-leaderboard) or uid,uid (default: every miner the service scored)",
        minersOption,
      )
      .option(
        "--candidate <dir>",
        "a folder of your model's prediction files: *.json, each the spec's prediction-set record plus asset, time_increment and time_length",
      )
      .option("--db <path>", "the DuckDB file to write", DEFAULT_DATABASE),
  )
    .option("--json", "print the summary as JSON instead of tables")
    .addHelpText(
      "after",
      "\nExit codes: 0 every recomputed number agrees with the service's, 1 a disagreement (shown\n" +
        "loudly; a bug on one side), 2 bad usage, 130 interrupted (Ctrl-C; the prompts scored until\n" +
        "then are kept, the one being written is rolled back). Each prompt is stored in one transaction under its\n" +
        "natural key, so rerunning a range changes no row count.",
    );
  return command.action(async (options: ScoreCommandOptions) => {
    const onEvent = progressPrinter(io);
    const interruption = onInterrupt("score", io.stderr);
    let summary: ScoreSummary;
    try {
      // Loaded on use: the job's modules are not needed by the other commands.
      const { runScore } = await import("../jobs/score.ts");
      summary = await runScore({
        from: options.from,
        to: options.to,
        competition: options.competition,
        ...(options.assets !== undefined && { assets: options.assets }),
        ...(options.miners !== undefined && { miners: options.miners }),
        ...(options.candidate !== undefined && { candidate: options.candidate }),
        database: options.db,
        ...(options.baseUrl !== undefined &&
          options.baseUrl !== "" && { baseUrl: options.baseUrl }),
        ...(options.apiKey !== undefined && options.apiKey !== "" && { apiKey: options.apiKey }),
        ...(options.now !== undefined && { now: options.now }),
        ...(options.seed !== undefined && { seed: options.seed }),
        onEvent,
        signal: interruption.signal,
      });
    } catch (error) {
      if (error instanceof SyncUsageError) {
        command.error(`error: ${error.message}`, { exitCode: EXIT_USAGE, code: "pathlab.usage" });
      }
      throw error;
    } finally {
      interruption.dispose();
    }
    io.stdout(options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatScoreReport(summary));
    status.exitCode = summary.exitCode;
  });
}

function minersOption(text: string): MinerSelection {
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
      io.stderr(`score: ${event.competition}: ${event.prompts} prompts to score\n`);
    } else {
      io.stderr(
        `score: ${event.competition} [${event.done}/${event.of}] ${event.asset} ${event.startTime}: ${event.miners} miners\n`,
      );
    }
  };
}

/**
 * The human-readable report of a score run: per competition a leaderboard (rank, smoothed score,
 * reward weight, mean CRPS, 90% coverage, agreement), the candidate's placing, and every
 * disagreement in capitals.
 * @example io.stdout(formatScoreReport(summary));
 */
export function formatScoreReport(summary: ScoreSummary): string {
  const lines: string[] = [];
  lines.push(
    `pathlab score ${summary.from} → ${summary.to} (${summary.service.kind}${summary.service.now === undefined ? "" : `, now ${summary.service.now}`}) run ${summary.runId} → ${summary.database}`,
  );
  for (const competition of summary.competitions) lines.push("", ...competitionLines(competition));
  if (summary.rejectedCandidateFiles.length > 0) {
    lines.push("", "Candidate files rejected by validation:");
    for (const { file, reason } of summary.rejectedCandidateFiles)
      lines.push(`  ${file}: ${reason}`);
  }
  const { agree, disagree, notCompared } = summary.agreement;
  lines.push(
    "",
    `Agreement with the service: ${agree} agree, ${disagree} disagree, ${notCompared} not compared (${(summary.durationMs / 1000).toFixed(1)} s)`,
  );
  if (disagree > 0) {
    lines.push(`!!! ${disagree} NUMBERS DISAGREE WITH THE SERVICE — a bug on one side:`);
    for (const item of summary.disagreements.slice(0, 20)) {
      lines.push(
        `!!! ${item.what} of miner ${item.minerUid} at ${item.where}: pathlab ${item.ours}, service ${item.service}`,
      );
    }
    if (summary.disagreements.length > 20) {
      lines.push(`!!! … and ${summary.disagreements.length - 20} more (see --json)`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function competitionLines(competition: CompetitionScores): string[] {
  const skipped = Object.entries(competition.promptsSkipped)
    .map(([reason, count]) => `${count} ${reason}`)
    .join(", ");
  const lines = [
    `${competition.competition}: ${competition.promptsScored} prompts scored (intervals ${Object.keys(competition.intervals).join(" ")})${skipped === "" ? "" : `; skipped ${skipped}`}`,
    `smoothed at ${competition.asOf ?? "no service update in the range"}`,
  ];
  if (competition.windowPromptsMissing > 0) {
    lines.push(
      `smoothed scores not compared: the range leaves out ${competition.windowPromptsMissing} prompts of the ${competition.competition} window the service scored`,
    );
  }
  const rows = competition.leaderboard.map((row) => [
    String(row.rank),
    String(row.minerUid),
    fixed(row.smoothedScore, 4),
    row.rewardWeight === null ? "–" : row.rewardWeight.toPrecision(4),
    fixed(row.meanCrps, 2),
    row.coverage90 === null ? "–" : `${(row.coverage90 * 100).toFixed(1)}%`,
    `${row.promptsAgreeing}/${row.prompts}`,
    row.agreement === "disagree" ? "DISAGREE" : row.agreement,
  ]);
  lines.push(
    ...table(
      ["rank", "uid", "smoothed", "weight", "mean CRPS", "cov 90%", "prompts ok", "agreement"],
      rows,
    ),
  );
  const candidate = competition.candidate;
  if (candidate !== undefined) {
    lines.push(
      `candidate: smoothed ${fixed(candidate.smoothedScore, 4)}, rank ${candidate.smoothedRank ?? "–"} of ${candidate.of}`,
    );
    for (const placing of candidate.prompts) {
      lines.push(
        placing.rank === null
          ? `  ${placing.asset} ${placing.startTime} (${placing.file}): invalid: ${placing.reason ?? "non-finite CRPS"}`
          : `  ${placing.asset} ${placing.startTime} (${placing.file}): CRPS ${fixed(placing.crps, 2)}, rank ${placing.rank} of ${placing.of}`,
      );
    }
  }
  return lines;
}

function fixed(value: number | null, digits: number): string {
  return value === null ? "–" : value.toFixed(digits);
}

function table(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padStart(widths[column])).join("  ");
  return [line(header), ...rows.map(line)];
}
