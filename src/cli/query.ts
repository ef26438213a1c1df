/** `pathlab query`: SQL on the database, opened read-only, as a table or JSON. */
import { Command } from "commander";
import Table from "cli-table3";
import { DEFAULT_DATABASE } from "../jobs/jobDefaults.ts";
import { openStore } from "../store/openStore.ts";
import { queryRows } from "../store/queryRows.ts";
import { integerOption } from "./optionParsers.ts";
import type { ProgramIo } from "./program.ts";

interface QueryOptions {
  db: string;
  json?: boolean;
  maxRows: number;
}

/**
 * Builds the `query` command: opens the database read-only (other readers may run at the same
 * time; while a sync writes, the error says so and what to do), runs the SQL, and prints a table
 * (at most `--max-rows` rows, then how many more) or, with `--json`, every row as an object keyed
 * by column name (BIGINT values as strings, as DuckDB's JSON gives them).
 * @example program.addCommand(queryCommand(io));
 */
export function queryCommand(io: ProgramIo): Command {
  return new Command("query")
    .description("run SQL on the database (opened read-only) and print the result")
    .argument("<sql>", 'the SQL, e.g. "select count(*) from insights"')
    .option("--db <path>", "the DuckDB file to read", DEFAULT_DATABASE)
    .option("--json", "print the rows as JSON objects instead of a table")
    .option(
      "--max-rows <n>",
      "rows shown in the table",
      integerOption("--max-rows", 1, Number.MAX_SAFE_INTEGER),
      100,
    )
    .addHelpText(
      "after",
      "\nTables: runs, path_sets, path_values (and the view path_points), insights, insight_values,\n" +
        "crosschecks, leaderboard_rows, venue_comparisons. Example:\n" +
        '  pathlab query "select operation, verdict, count(*) from crosschecks group by all order by all"',
    )
    .action(async (sql: string, options: QueryOptions) => {
      const store = await openStore(options.db, { readOnly: true });
      let result;
      try {
        result = await queryRows(store, sql);
      } catch (error) {
        // DuckDB's message spans lines (candidates, the SQL with a caret): its first line here,
        // the whole under --verbose.
        const [first, ...rest] = (error as Error).message.split("\n");
        throw rest.length === 0
          ? error
          : new Error(`${first} (--verbose shows DuckDB's whole message)`, { cause: error });
      } finally {
        await store.close();
      }
      const { columns, rows } = result;
      if (options.json) {
        const objects = rows.map((row) =>
          Object.fromEntries(columns.map((column, index) => [column, row[index]])),
        );
        io.stdout(`${JSON.stringify(objects, null, 2)}\n`);
        return;
      }
      const table = new Table({
        head: [...columns],
        style: io.stdoutTerminal ? { compact: true } : { compact: true, head: [], border: [] },
      });
      for (const row of rows.slice(0, options.maxRows)) table.push(row.map(cellText));
      const more = rows.length - Math.min(rows.length, options.maxRows);
      io.stdout(
        `${table.toString()}\n${rows.length} row${rows.length === 1 ? "" : "s"}` +
          (more > 0 ? ` (${more} not shown: raise --max-rows, add LIMIT, or use --json)` : "") +
          "\n",
      );
    });
}

function cellText(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}
