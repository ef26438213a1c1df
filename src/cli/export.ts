/** `pathlab export`: the database's tables as hive-partitioned Parquet. */
import { Command } from "commander";
import Table from "cli-table3";
import { DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import { InvalidParamsError } from "../domain/errors.ts";
import { ExportFolderError } from "../store/exportFolder.ts";
import { exportParquet, type ExportedTableName } from "../store/exportParquet.ts";
import { openStore } from "../store/openStore.ts";
import { tableNames } from "../store/schemaTables.ts";
import { listOption } from "./optionParsers.ts";
import type { ProgramIo } from "./io.ts";
import { tablesHelp } from "./tablesHelp.ts";
import { tableStyle } from "./tableStyle.ts";

interface ExportOptions {
  out: string;
  db: string;
  tables?: ExportedTableName[];
  json?: boolean;
  overwrite?: boolean;
}

/**
 * Builds the `export` command: opens the database read-only and writes each of its tables (all of
 * them, as its schema lists them, or those of `--tables`, checked against that list: an unknown
 * one is a usage error, exit code 2) to `<out>/<table>/asset=…/date=…/*.parquet` (tables without
 * an asset by date only); prints per table its rows and files (or, with `--json`, the same as
 * JSON) and how to read the result back. It writes only its own files: `--out` must be new, empty,
 * or hold pathlab's own earlier export (its `.pathlab-export.json`), which `--overwrite` replaces
 * by removing only the files listed there. Any other folder, an earlier export without
 * `--overwrite`, a user's file inside a table folder, and a folder that cannot be created are
 * usage errors: one line naming the path, exit code 2.
 * @example program.addCommand(exportCommand(io));
 */
export function exportCommand(io: ProgramIo): Command {
  return new Command("export")
    .description("write the database's tables as hive-partitioned Parquet (DuckDB, pandas, Spark)")
    .requiredOption(
      "--out <dir>",
      "a new or empty folder to write (one subfolder per table), or an earlier export with --overwrite",
    )
    .option("--db <path>", "the DuckDB file to read", DEFAULT_DATABASE)
    .option(
      "--tables <list>",
      "comma-separated tables (default: every table of the database)",
      listOption("--tables", (table) => table),
    )
    .option("--json", "print what was written as JSON")
    .option(
      "--overwrite",
      "replace pathlab's earlier export in --out (removes only the files its manifest lists)",
    )
    .addHelpText("after", `\n${tablesHelp()}`)
    .action(async (options: ExportOptions) => {
      const store = await openStore(options.db, { readOnly: true });
      let written;
      try {
        if (options.tables !== undefined) {
          const present = await tableNames(store);
          const unknown = options.tables.find((table) => !present.includes(table));
          if (unknown !== undefined) {
            throw new InvalidParamsError(
              "export",
              "--tables",
              `tables of the database (${present.join(", ")})`,
              JSON.stringify(unknown),
            );
          }
        }
        written = await exportParquet(store, options.out, options.tables, {
          overwrite: options.overwrite === true,
        });
      } catch (error) {
        if (!(error instanceof ExportFolderError)) throw error;
        const refused = new InvalidParamsError("export", "--out", error.expected, error.got);
        refused.cause = error;
        throw refused;
      } finally {
        await store.close();
      }
      if (options.json) {
        io.stdout(`${JSON.stringify(written, null, 2)}\n`);
        return;
      }
      const table = new Table({
        head: ["table", "rows", "files", "folder"],
        style: tableStyle(io.stdoutColors === true),
      });
      for (const entry of written) {
        table.push([entry.table, entry.rows, entry.files.length, entry.directory]);
      }
      const example =
        written.find((entry) => entry.table === "insights" && entry.files.length > 0) ??
        written.find((entry) => entry.files.length > 0);
      io.stdout(
        `${table.toString()}\n` +
          (example === undefined
            ? ""
            : `read back, e.g.:\n` +
              `  duckdb -c "select count(*) from read_parquet('${example.directory}/**/*.parquet', hive_partitioning = true)"\n` +
              `  python3 -c "import pyarrow.dataset as d; print(d.dataset('${example.directory}', partitioning='hive').count_rows())"\n`),
      );
    });
}
