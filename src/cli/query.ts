/** `pathlab query`: SQL on the database, opened read-only, streamed as a table, JSON or NDJSON. */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import { InvalidParamsError } from "../domain/errors.ts";
import { openLake } from "../store/lake.ts";
import { openStore } from "../store/openStore.ts";
import { streamRows } from "../store/queryRows.ts";
import { StatementRefusedError } from "../store/readingStatements.ts";
import { integerOption } from "./optionParsers.ts";
import type { ProgramIo } from "./io.ts";
import { writeJsonArray, writeNdjson, writeTable } from "./queryOutput.ts";
import { tablesHelp } from "./tablesHelp.ts";
import { stdoutWriter } from "./stdoutWriter.ts";

interface QueryOptions {
  db: string;
  lake?: string;
  file?: string;
  json?: boolean;
  ndjson?: boolean;
  maxRows: number;
}

/**
 * Builds the `query` command: reads the SQL (argument, `-f <path>`, or stdin when there is no
 * argument or it is `-`), opens the database read-only (other readers may run at the same time;
 * while a sync writes, the error says so and what to do) and streams the result chunk by chunk,
 * waiting for stdout to drain, so memory stays flat whatever the row count. Prints a table (at
 * most `--max-rows` rows, then how many more there were), or with `--json` one JSON array of
 * objects keyed by column, or with `--ndjson` one such object a line (BIGINT values as strings,
 * as DuckDB's JSON gives them). Usage mistakes (two SQL sources, no SQL, `--json` with
 * `--ndjson`) are `InvalidParamsError`s: one line, exit code 2.
 *
 * Read-only for real: the store is opened `locked` (DuckDB READ_ONLY, `enable_external_access =
 * false`, `lock_configuration = true`), and only statements that read run. A statement that
 * does not (SET/USE, ATTACH/DETACH, COPY, EXPORT, INSTALL/LOAD, CREATE, INSERT, DROP…) or that
 * reaches for a file (read_parquet, read_csv, COPY … TO) is refused before anything runs, as a
 * usage error: one line, exit code 2.
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
    .option(
      "--max-rows <n>",
      "rows shown in the table",
      integerOption("--max-rows", 1, Number.MAX_SAFE_INTEGER),
      100,
    )
    .addHelpText("after", helpText())
    .action(async (argument: string | undefined, options: QueryOptions) => {
      if (options.json === true && options.ndjson === true) {
        throw new InvalidParamsError("query", "--json/--ndjson", "one of them", "both");
      }
      const sql = await readSql(argument, options.file);
      const output = stdoutWriter(io);
      let written = false;
      const write: typeof output = (text) => {
        written = true;
        return output(text);
      };
      // A lake's compaction may remove a file between the listing and the reading of a query
      // that started before it: such a query is run again once, on the files there now, when it
      // has printed nothing yet.
      for (let attempt = 1; ; attempt++) {
        const store =
          options.lake !== undefined
            ? await openLake(options.lake)
            : await openStore(options.db, { locked: true });
        try {
          await streamRows(store, sql, (stream) =>
            options.json === true
              ? writeJsonArray(stream, write)
              : options.ndjson === true
                ? writeNdjson(stream, write)
                : writeTable(stream, write, options.maxRows, io.stdoutColors === true),
          );
          return;
        } catch (error) {
          const vanished = /Cannot open file|No files found that match/.test(
            (error as Error).message,
          );
          if (options.lake !== undefined && vanished && !written && attempt === 1) continue;
          const refusal = refusalError(error);
          if (refusal !== undefined) throw refusal;
          // DuckDB's message spans lines (candidates, the SQL with a caret): its first line here,
          // the whole under --verbose.
          const [first, ...rest] = (error as Error).message.split("\n");
          throw rest.length === 0
            ? error
            : new Error(`${first} (--verbose shows DuckDB's whole message)`, { cause: error });
        } finally {
          await store.close();
        }
      }
    });
}

/** Reads that DuckDB refuses because the locked store forbids them. */
const LOCKED_OUT = /disabled (through|by) configuration|configuration has been locked/;

/**
 * A refused statement as a usage error (exit code 2): a statement that does not read, or one that
 * reaches outside the database (a file, an extension, a setting); undefined for any other error.
 */
function refusalError(error: unknown): InvalidParamsError | undefined {
  const expected =
    "statements that only read the database (SELECT, WITH, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE, " +
    "informational PRAGMAs)";
  if (error instanceof StatementRefusedError) {
    const refused = new InvalidParamsError(
      "query",
      "sql",
      expected,
      `a ${error.statementKind} statement (statement ${error.statementIndex + 1} of ${error.statementCount})`,
    );
    refused.cause = error;
    return refused;
  }
  const message = error instanceof Error ? error.message : "";
  if (!LOCKED_OUT.test(message)) return undefined;
  const duckdb = message.split("\n")[0].replace(/^streamRows on ".*?": /, "");
  const refused = new InvalidParamsError(
    "query",
    "sql",
    `${expected} and touch no other file`,
    `a statement DuckDB refused: ${duckdb}`,
  );
  refused.cause = error;
  return refused;
}

/** The tables and views of the schema, then examples. */
function helpText(): string {
  return (
    `\n${tablesHelp()}\n\n` +
    "Read-only: only statements that read run (SELECT, WITH, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE,\n" +
    "informational PRAGMAs); SET, ATTACH, COPY, INSTALL, CREATE, INSERT… are refused, and no other\n" +
    "file is reachable (read an export's Parquet with duckdb or pyarrow instead).\n\nExamples:\n" +
    '  npx pathlab query "select operation, verdict, count(*) from crosschecks group by all order by all"\n' +
    "  npx pathlab query -f report.sql --json > report.json\n" +
    '  echo "select * from path_points" | npx pathlab query --ndjson | head'
  );
}

/** The SQL from exactly one source: the argument, `--file`, or stdin. */
async function readSql(argument: string | undefined, file: string | undefined): Promise<string> {
  const fromStdin = argument === undefined || argument === "-";
  if (file !== undefined && argument !== undefined) {
    throw new InvalidParamsError(
      "query",
      "sql",
      "one source (an argument, -f <path>, or stdin)",
      "both an argument and --file",
    );
  }
  let sql: string;
  let source: string;
  if (file !== undefined) {
    source = `the file ${JSON.stringify(file)}`;
    try {
      sql = readFileSync(file, "utf8");
    } catch (error) {
      throw new InvalidParamsError(
        "query",
        "--file",
        "a readable file",
        `${JSON.stringify(file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  } else if (!fromStdin) {
    source = "the argument";
    sql = argument;
  } else {
    source = "stdin";
    if (argument === undefined && process.stdin.isTTY === true) {
      throw new InvalidParamsError(
        "query",
        "sql",
        "an argument, -f <path>, or SQL piped on stdin",
        "none (stdin is a terminal; pass - to type the SQL there)",
      );
    }
    sql = await readStdin();
  }
  if (sql.trim() === "") {
    throw new InvalidParamsError("query", "sql", "a statement", `empty text from ${source}`);
  }
  return sql;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
