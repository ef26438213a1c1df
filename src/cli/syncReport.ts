/**
 * The summary `pathlab sync` prints at the end: a table per asset and horizon (verdict counts,
 * mismatches, time taken), the totals, the failures with their reasons, the database, and what to
 * run next.
 */

import { serviceText } from "../service/serviceInfo.ts";
import Table from "cli-table3";
import type { SyncSummary } from "../jobs/sync/summary.ts";
import { counted } from "../domain/counted.ts";
import { failureLine } from "./syncProgress.ts";
import { tableStyle } from "./tableStyle.ts";

/** Failures listed in the summary; the rest are in `runs.failures` (and in `--json`). */
const LISTED_FAILURES = 20;

/**
 * The summary as text. `databaseFlag` is the `--db …` (or `--lake …`) to repeat in the suggested
 * commands (empty for the default database); `colors` colors the table's head and borders (see
 * `tableStyle`).
 * @example io.stdout(formatSyncReport(summary, "", io.stdoutColors === true));
 */
export function formatSyncReport(
  summary: SyncSummary,
  databaseFlag: string,
  colors: boolean,
): string {
  const table = new Table({
    head: [
      "asset",
      "horizon",
      "forecast start",
      "status",
      "path sets",
      "exact",
      "within-mc",
      "missing",
      "mismatch",
      "venue rows",
      "failures",
      "time",
    ],
    style: tableStyle(colors),
  });
  for (const unit of summary.units) {
    table.push([
      unit.asset,
      unit.horizon,
      unit.forecastStartTime ?? "-",
      unit.status,
      unit.pathSets,
      unit.verdicts.exact,
      unit.verdicts["within-mc"],
      unit.verdicts.missing,
      unit.verdicts.mismatch,
      unit.venueComparisons,
      unit.failures,
      `${(unit.durationMs / 1000).toFixed(1)} s`,
    ]);
  }
  const totals = summary.totals;
  table.push([
    "total",
    "",
    "",
    `${totals.stored}/${totals.units} stored` +
      (totals.alreadyStored > 0 ? `, ${totals.alreadyStored} already` : ""),
    totals.pathSets,
    totals.verdicts.exact,
    totals.verdicts["within-mc"],
    totals.verdicts.missing,
    totals.verdicts.mismatch,
    totals.venueComparisons,
    totals.failures,
    `${(summary.durationMs / 1000).toFixed(1)} s`,
  ]);
  const lines = [table.toString(), ""];
  const recorded = serviceText(summary.service);
  const service =
    summary.replay !== undefined
      ? `replayed from ${summary.replay.directory} (recorded from ${recorded})`
      : summary.service.kind === "embedded sandbox"
        ? `${recorded}, stopped`
        : recorded;
  lines.push(
    summary.lake === undefined
      ? `database: ${summary.database} (run ${summary.runId}, ${summary.status})`
      : `lake:     ${summary.lake} (${summary.status}; the run's record is this summary)`,
    `service:  ${service}`,
    `fetched:  ${(totals.bytesFetched / 1e6).toFixed(1)} MB in ${counted(totals.requests, "request")}` +
      (totals.retries > 0 ? ` (${totals.retries} retried)` : ""),
  );
  lines.push(...lackingLines(summary.units));
  if (summary.status === "interrupted") {
    lines.push(
      "",
      `interrupted: ${counted(totals.interrupted, "unit")} not stored; ` +
        "rerun the same command to complete them",
    );
  }
  if (summary.failures.length > 0) {
    lines.push("", `${counted(summary.failures.length, "failure")} (the rest is stored):`);
    for (const failure of summary.failures.slice(0, LISTED_FAILURES)) {
      lines.push(`  ${failureLine(failure).replace(/^failure: /, "")}`);
    }
    if (summary.failures.length > LISTED_FAILURES) {
      lines.push(
        summary.lake === undefined
          ? `  … and ${summary.failures.length - LISTED_FAILURES} more: npx pathlab query "select failures from runs where id = ${summary.runId}"${databaseFlag}`
          : `  … and ${summary.failures.length - LISTED_FAILURES} more: rerun with --json to see them all`,
      );
    }
  }
  lines.push(...edgeLines(summary.venueEdges, summary.range !== undefined));
  lines.push(
    "",
    "next:",
    `  npx pathlab query "select operation, verdict, count(*) as n from crosschecks group by all order by all"${databaseFlag}`,
    `  npx pathlab query "select asset, market, recomputed_probability, between_miner_standard_error, venue_probability, net_edge, tradable from venue_comparisons where not decided order by tradable desc, net_edge desc nulls last"${databaseFlag}`,
    // a lake is Parquet already
    ...(summary.lake === undefined ? [`  npx pathlab export --out ./exports${databaseFlag}`] : []),
    "",
  );
  return lines.join("\n");
}

/**
 * "not compared" lines: per side, each field a record of that side lacks, with the operations
 * (without `/insights/`) whose records lack it, over every unit.
 */
function lackingLines(units: SyncSummary["units"]): string[] {
  const sides = {
    service: new Map<string, Set<string>>(),
    recomputed: new Map<string, Set<string>>(),
  };
  for (const unit of units) {
    for (const record of unit.lacking) {
      for (const side of ["service", "recomputed"] as const) {
        for (const field of record[side]) {
          const operations = sides[side].get(field) ?? new Set<string>();
          operations.add(record.operation.replace(/^\/insights\//, ""));
          sides[side].set(field, operations);
        }
      }
    }
  }
  const lines: string[] = [];
  for (const [side, fields] of Object.entries(sides)) {
    if (fields.size === 0) continue;
    const listed = [...fields].map(
      ([field, operations]) => `${field} (${[...operations].join(", ")})`,
    );
    lines.push(
      `not compared: the ${side === "service" ? "service's" : "recomputed"} records lack ${listed.join("; ")}`,
    );
  }
  return lines.length > 0 ? ["", ...lines] : [];
}

/**
 * The venue edges worth a look: ranked only among live markets (not decided by the current price)
 * whose edge survives the spread, the fee and the rounding, the tradable ones first (beyond 2
 * standard errors of pathlab's probability: Monte-Carlo and between the miners, combined); for a
 * range of the past (`past`), each market as it stood at its forecast's time.
 */
function edgeLines(venue: SyncSummary["venueEdges"], past: boolean): string[] {
  if (venue.markets === 0) return [];
  const lines = [
    "",
    `venue edges${past ? ", each at its forecast's time" : ""}: ${venue.beyondSpread} of ${counted(venue.markets, "market")} live with an edge beyond the spread, fee and rounding ` +
      `(${venue.decided} already decided by the ${past ? "price then" : "current price"}); ` +
      `${venue.tradable} tradable, beyond 2 standard errors (SE) of the model`,
  ];
  for (const edge of venue.edges) {
    const operation = edge.operation.replace(/^\/insights\//, "");
    const error = edge.standardError === null ? "unknown" : edge.standardError.toFixed(4);
    lines.push(
      `  ${edge.asset} ${edge.market} (${operation}): ${edge.side} YES at ${edge.price}, model ${edge.model.toFixed(4)} (SE ${error}), net edge ${edge.netEdge.toFixed(4)}${edge.tradable ? ", tradable" : ""}`,
    );
  }
  return lines;
}
