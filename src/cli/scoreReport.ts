/**
 * The human-readable report of `pathlab score`: per competition the era, a leaderboard next to the
 * service's numbers, the candidate's placing and its rank over time, and every disagreement in
 * capitals.
 */

import { counted, noun } from "../domain/counted.ts";
import type { CandidateResult, CompetitionScores, ScoreSummary } from "../jobs/score/summary.ts";

/** Points of the candidate's rank trajectory printed (first, last, best, worst, evenly between). */
const TRAJECTORY_POINTS = 8;

/**
 * The report of a score run (see the module comment).
 * @example io.stdout(formatScoreReport(summary));
 */
export function formatScoreReport(summary: ScoreSummary): string {
  const lines: string[] = [];
  lines.push(
    `pathlab score ${summary.from} → ${summary.to} (${summary.service.kind}${summary.service.now === undefined ? "" : `, now ${summary.service.now}`}${summary.service.namingFound === undefined ? "" : `, --naming auto: the ${summary.service.namingFound} naming`}) run ${summary.runId} → ${summary.lake === undefined ? summary.database : `lake ${summary.lake}`}`,
  );
  if (summary.ownOnly) {
    lines.push(
      "own-only: only the candidate is recomputed; every miner takes the service's CRPS (--no-own-only recomputes them)",
    );
  }
  for (const competition of summary.competitions) lines.push("", ...competitionLines(competition));
  if (summary.rejectedCandidateFiles.length > 0) {
    lines.push(
      "",
      "Candidate files rejected by validation (scored −1 where they answer a prompt):",
    );
    for (const { file, reason } of summary.rejectedCandidateFiles)
      lines.push(`  ${file}: ${reason}`);
  }
  if (summary.unmatchedCandidateFiles.length > 0) {
    lines.push("", "!!! Candidate files that answer no prompt of the range (not scored):");
    for (const { file, reason } of summary.unmatchedCandidateFiles) {
      lines.push(`!!!   ${file}: ${reason}`);
    }
  }
  if (summary.failures.length > 0) {
    lines.push(
      "",
      `!!! ${summary.failures.length} failed and left out (the rest is scored and stored):`,
    );
    for (const { where, reason } of summary.failures.slice(0, 20)) {
      lines.push(`!!!   ${where}: ${reason}`);
    }
    if (summary.failures.length > 20) {
      lines.push(`!!!   … and ${summary.failures.length - 20} more (see --json or the runs table)`);
    }
  }
  const { agree, disagree, notCompared } = summary.agreement;
  lines.push(
    "",
    `Agreement with the service: ${agree} agree, ${disagree} disagree, ${notCompared} not compared (${(summary.durationMs / 1000).toFixed(1)} s)`,
  );
  if (disagree > 0) {
    lines.push(
      `!!! ${disagree} ${noun(disagree, "NUMBER DISAGREES", "NUMBERS DISAGREE")} WITH THE SERVICE — a bug on one side:`,
    );
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
  const service = Object.entries(competition.serviceCrps)
    .map(([reason, count]) => `${count} ${reason}`)
    .join(", ");
  const lines = [
    `${competition.competition}: ${counted(competition.promptsScored, "prompt")} scored (intervals ${Object.keys(competition.intervals).join(" ")})${skipped === "" ? "" : `; skipped ${skipped}`}`,
    `era: ${competition.eras.length > 1 ? competition.eras.join(" → ") : competition.era} (share ${round(competition.rewardShare)}, β ${competition.softmaxBeta})`,
    `smoothed at ${competition.asOf ?? "no service update in the range"}; ${counted(competition.updates, "update")} in rank_history`,
  ];
  if (service !== "") lines.push(`on the service's CRPS: ${service}`);
  if (competition.windowPromptsMissing > 0) {
    lines.push(
      `smoothed scores not compared: the range leaves out ${counted(competition.windowPromptsMissing, "prompt")} of the ${competition.competition} window the service scored`,
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
  if (competition.candidate !== undefined) lines.push(...candidateLines(competition.candidate));
  return lines;
}

function candidateLines(candidate: CandidateResult): string[] {
  const lines = [
    `candidate: smoothed ${fixed(candidate.smoothedScore, 4)}, rank ${candidate.smoothedRank ?? "–"} of ${candidate.of}` +
      (candidate.promptsNotAnswered > 0
        ? `; ${counted(candidate.promptsNotAnswered, "prompt")} of its assets without a file scored as not answered (the fill)`
        : ""),
  ];
  if (candidate.trajectory.length > 0) {
    lines.push(`  rank over time: ${trajectoryText(candidate)}`);
    const cut = candidate.trajectory.filter((point) => !point.windowInRange);
    if (cut.length > 0) {
      lines.push(
        `  (* the window of ${cut.length} of these ${counted(candidate.trajectory.length, "update")} reaches before --from: their ranks pool the range's prompts only)`,
      );
    }
  }
  for (const placing of candidate.prompts) {
    lines.push(
      placing.rank === null
        ? `  ${placing.asset} ${placing.startTime} (${placing.file}): invalid: ${placing.reason ?? "non-finite CRPS"}`
        : `  ${placing.asset} ${placing.startTime} (${placing.file}): CRPS ${fixed(placing.crps, 2)}, rank ${placing.rank} of ${placing.of}`,
    );
  }
  return lines;
}

/** A few points of the trajectory: `10:02 12/41 → … → 10:47 7/41 (best 5 at 10:31)`. */
function trajectoryText(candidate: CandidateResult): string {
  const points = candidate.trajectory;
  const picked = new Set<number>();
  for (let index = 0; index < TRAJECTORY_POINTS; index++) {
    picked.add(Math.round((index * (points.length - 1)) / Math.max(1, TRAJECTORY_POINTS - 1)));
  }
  let best = 0;
  let worst = 0;
  points.forEach((point, index) => {
    if (point.rank < points[best].rank) best = index;
    if (point.rank > points[worst].rank) worst = index;
  });
  const sameDay = points[0].updatedAt.slice(0, 10) === points.at(-1)!.updatedAt.slice(0, 10);
  const when = (iso: string) => (sameDay ? iso.slice(11, 16) : iso.slice(5, 16).replace("T", " "));
  const path = [...picked]
    .sort((a, b) => a - b)
    .map(
      (index) =>
        `${when(points[index].updatedAt)} ${points[index].rank}/${points[index].of}${points[index].windowInRange ? "" : "*"}`,
    )
    .join(" → ");
  return `${path} (best ${points[best].rank} at ${when(points[best].updatedAt)}, worst ${points[worst].rank} at ${when(points[worst].updatedAt)})`;
}

function round(value: number): string {
  return Number(value.toPrecision(4)).toString();
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
