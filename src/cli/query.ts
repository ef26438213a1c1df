/**
 * `pathlab query`: SQL on the database, opened read-only, streamed as a table, JSON, NDJSON or CSV.
 * This module only declares the command; what it does is in `queryRun.ts`, loaded when it runs.
 */
import { Command } from "commander";
import { DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import { integerOption } from "./optionParsers.ts";
import type { ProgramIo } from "./io.ts";
import type { QueryOptions } from "./queryRun.ts";
import { tablesHelp } from "./tablesHelp.ts";

/**
 * Builds the `query` command: reads the SQL (argument, `-f <path>`, or stdin when there is no
 * argument or it is `-`), opens the database read-only (other readers may run at the same time;
 * while a sync writes, the error says so and what to do) and streams the result chunk by chunk,
 * waiting for stdout to drain, so memory stays flat whatever the row count. Prints a table (at
 * most `--max-rows` rows, then how many more there were; doubles to 6 significant digits), or
 * every row at full precision: with `--json` one JSON array of objects keyed by column, with
 * `--ndjson` one such object a line, with `--csv` CSV with a header line. Integers are numbers
 * (BIGINT too, a string only beyond 2^53) and timestamps ISO 8601 in UTC (`queryRows`' values).
 * Usage mistakes (two SQL sources, no SQL, two output formats) are `InvalidParamsError`s, and SQL
 * that DuckDB rejects (it does not parse or bind, or a value does not convert) a `SqlError` with
 * DuckDB's message: one line, exit code 2.
 *
 * Read-only for real, enforced by DuckDB: the database (with `--lake`, a snapshot of the lake's
 * rows taken as the query starts, see `openLake`) is opened `locked` (DuckDB READ_ONLY,
 * `enable_external_access = false`, `lock_configuration = true`), so DuckDB refuses any change
 * to it and any access to a file, the lake's included, even inside `EXPLAIN ANALYZE`. As a second
 * guard only statements that read run: a statement that does not (SET/USE, ATTACH/DETACH, COPY,
 * EXPORT, INSTALL/LOAD, CREATE, INSERT, DROP…) is refused before anything runs. Either refusal
 * is a usage error: one line, exit code 2.
 * @example program.addCommand(queryCommand(io));
 */
export function queryCommand(io: ProgramIo): Command {
  return new Command("query")
    .description("run SQL that reads the database (opened read-only) and print the result")
    .argument("[sql]", 'the SQL, e.g. "select count(*) from insights"; "-" or none: read stdin')
    .option("-f, --file <path>", "read the SQL from a file")
    .option("--db <path>", "the DuckDB file to read", DEFAULT_DATABASE)
    .option(
      "--lake <dir>",
      "read a Parquet lake (written by `pathlab worker` or `score --lake`) instead of a DuckDB file, while they write",
    )
    .option("--json", "print every row, as one JSON array of objects keyed by column")
    .option("--ndjson", "print every row, as one JSON object a line")
    .option("--csv", "print every row, as CSV with a header line (RFC 4180)")
    .option(
      "--max-rows <n>",
      "rows shown in the table",
      integerOption("--max-rows", 1, Number.MAX_SAFE_INTEGER),
      100,
    )
    .addHelpText("after", helpText())
    .action(async (argument: string | undefined, options: QueryOptions) => {
      const { runQuery } = await import("./queryRun.ts");
      await runQuery(io, argument, options);
    });
}

/** The tables and views of the schema, then examples. */
function helpText(): string {
  return (
    `\n${tablesHelp()}\n\n` +
    "Read-only: DuckDB opens the database (with --lake, a copy of the lake's rows made as the query\n" +
    "starts) read-only and may open no file, so no statement changes the database or the lake;\n" +
    "only statements that read run (SELECT, WITH, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE, informational\n" +
    "PRAGMAs); SET, ATTACH, COPY, INSTALL, CREATE, INSERT… are refused (read an export's Parquet\n" +
    "with duckdb or pyarrow instead).\n\n" +
    "The table rounds doubles to 6 significant digits; --json, --ndjson and --csv keep every digit,\n" +
    "give integers as numbers (a string beyond 2^53) and timestamps as ISO 8601 in UTC.\n\nExamples:\n" +
    '  npx pathlab query "select operation, verdict, count(*) from crosschecks group by all order by all"\n' +
    "  npx pathlab query -f report.sql --json > report.json\n" +
    '  echo "select * from path_points" | npx pathlab query --ndjson | head\n' +
    '  npx pathlab query "select * from miner_scores" --csv > miner_scores.csv'
  );
}
