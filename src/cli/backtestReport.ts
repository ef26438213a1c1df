/** The text report of `pathlab backtest` (loaded when a backtest has run). */

import Table from "cli-table3";
import { counted } from "../domain/counted.ts";
import type { BacktestSummary } from "../jobs/backtest/backtest.ts";
import { tableStyle } from "./tableStyle.ts";

const fixed = (value: number | null, digits: number) =>
  value === null ? "–" : value.toFixed(digits);

/**
 * The report of a backtest: what was asked, a table per competition, the model's failures and the
 * answers the validator rejected, and how the estimate is made.
 * @example io.stdout(formatBacktestReport(summary, false));
 */
export function formatBacktestReport(summary: BacktestSummary, colors: boolean): string {
  const lines = [
    `pathlab backtest: ${counted(summary.asked, "prompt")} asked, ${counted(summary.kept, "answer")} kept from ${summary.out}; scored into ${summary.score.lake === undefined ? summary.score.database : `lake ${summary.score.lake}`} (run ${summary.score.runId})`,
  ];
  const table = new Table({
    head: [
      "competition",
      "prompts",
      "valid",
      "invalid",
      "mean CRPS",
      "rank",
      "smoothed score",
      "reward weight",
      "est. USD/day",
    ],
    style: tableStyle(colors),
  });
  for (const row of summary.competitions) {
    table.push([
      row.competition,
      row.prompts,
      row.valid,
      row.invalid,
      fixed(row.mean_crps, 2),
      row.rank === null ? "–" : `${row.rank} of ${row.of}`,
      fixed(row.smoothed_score, 4),
      row.reward_weight === null ? "–" : row.reward_weight.toPrecision(4),
      fixed(row.estimated_usd_per_day, 2),
    ]);
  }
  lines.push(table.toString());
  for (const row of summary.competitions) {
    const ranks = row.updates.map((update) => update.rank);
    if (ranks.length > 1) {
      lines.push(
        `${row.competition}: ranked at ${counted(ranks.length, "validator update")}, from ${ranks[0]} to ${ranks.at(-1)} of ${row.updates.at(-1)!.of} (best ${Math.min(...ranks)}, worst ${Math.max(...ranks)}); --json lists each`,
      );
    }
  }
  if (summary.poolUsdPerDay === null) {
    lines.push("est. USD/day: give --pool-usd-per-day (the miners' pool per day) for an estimate");
  } else {
    lines.push(
      `est. USD/day = reward weight × ${summary.poolUsdPerDay} USD/day × ${summary.emissionFactor}: an estimate, not a promise`,
    );
  }
  if (summary.notScored > 0) {
    lines.push(
      `${counted(summary.notScored, "answer")} to prompts the service has not scored (not yet, or it has no scores for them): left out`,
    );
  }
  if (summary.failures.length > 0) {
    lines.push(
      `${counted(summary.failures.length, "prompt")} without an answer (the validator's penalty):`,
    );
    for (const failure of summary.failures) {
      lines.push(`  ${failure.asset} ${failure.startTime}: ${failure.reason}`);
    }
  }
  const failed = new Set(
    summary.failures.map((failure) => `${failure.asset} ${failure.startTime}`),
  );
  for (const competition of summary.score.competitions) {
    for (const placing of competition.candidate?.prompts ?? []) {
      if (placing.reason !== undefined && !failed.has(`${placing.asset} ${placing.startTime}`)) {
        lines.push(`  rejected ${placing.file}: ${placing.reason}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
