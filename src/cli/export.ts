/**
 * `pathlab export`: the database's tables as hive-partitioned Parquet. This module only declares
 * the command; what it does is in `exportRun.ts`, loaded when it runs.
 */
import { Command } from "commander";
import { DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import type { ExportOptions } from "./exportRun.ts";
import { listOption } from "./optionParsers.ts";
import type { ProgramIo } from "./io.ts";
import { tablesHelp } from "./tablesHelp.ts";

/**
 * Builds the `export` command: opens the database read-only and writes each of its tables (all of
 * them, as its schema lists them, or those of `--tables`, checked against that list: an unknown
 * one is a usage error, exit code 2) to `<out>/<table>/asset=…/date=…/*.parquet` (tables without
 * an asset by date only); prints per table its rows and files (or, with `--json`, the same as
 * JSON) and how to read the result back. It writes only its own files: `--out` must be new, empty,
 * or hold pathlab's own earlier export (its `.pathlab-export.json`), which `--overwrite` replaces
 * by removing only the files listed there of the tables written now, through real folders (no
 * symbolic link inside `--out` is followed). Any other folder, an earlier export without
 * `--overwrite`, a user's file or a link inside a table folder to write (or that folder a link),
 * and a folder that cannot be created are usage errors: one line naming the path, exit code 2.
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
      "replace pathlab's earlier export in --out (removes only the files its manifest lists of the tables written)",
    )
    .addHelpText("after", `\n${tablesHelp()}`)
    .action(async (options: ExportOptions) => {
      const { runExport } = await import("./exportRun.ts");
      await runExport(io, options);
    });
}
