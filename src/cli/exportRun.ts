/**
 * What `pathlab export` does once its options are parsed (`export.ts` declares the command and
 * loads this module only when it runs): the tables written as Parquet, then what was written.
 */
import Table from "cli-table3";
import { InvalidParamsError } from "../domain/errors.ts";
import { ExportFolderError } from "../store/exportFolder.ts";
import { exportParquet, type ExportedTableName } from "../store/exportParquet.ts";
import { openStore } from "../store/openStore.ts";
import { tableNames } from "../store/schemaTables.ts";
import type { ProgramIo } from "./io.ts";
import { tableStyle } from "./tableStyle.ts";

/**
 * The options of `pathlab export`, as commander parses them.
 * @example const options: ExportOptions = { out: "./exports", db: "./pathlab.duckdb" };
 */
export interface ExportOptions {
  out: string;
  db: string;
  tables?: ExportedTableName[];
  json?: boolean;
  overwrite?: boolean;
}

/**
 * Runs `pathlab export` (see `exportCommand` for what it writes and refuses) and prints per table
 * its rows and files (or JSON) and how to read the result back.
 * @example await runExport(io, { out: "./exports", db: "./pathlab.duckdb" });
 */
export async function runExport(io: ProgramIo, options: ExportOptions): Promise<void> {
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
}
