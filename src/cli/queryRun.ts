/**
 * What `pathlab query` does once its options are parsed (`query.ts` declares the command and loads
 * this module only when it runs): reads the SQL, opens the database or the lake, streams the rows
 * out, and turns DuckDB's errors into pathlab's.
 */
import { readFileSync } from "node:fs";
import { InvalidParamsError } from "../domain/errors.ts";
import { openLake } from "../store/lake.ts";
import { lakeTablesNamedIn } from "../store/lakeSnapshot.ts";
import { openStore } from "../store/openStore.ts";
import { streamRows } from "../store/queryRows.ts";
import { StatementRefusedError } from "../store/readingStatements.ts";
import { StoreError, StoreNotFoundError } from "../store/storeError.ts";
import { SqlError } from "./errors.ts";
import type { ProgramIo } from "./io.ts";
import { writeCsv, writeJsonArray, writeNdjson, writeTable } from "./queryOutput.ts";
import { stdoutWriter } from "./stdoutWriter.ts";

/**
 * The options of `pathlab query`, as commander parses them.
 * @example const options: QueryOptions = { db: "./pathlab.duckdb", maxRows: 100, csv: true };
 */
export interface QueryOptions {
  db: string;
  lake?: string;
  file?: string;
  json?: boolean;
  ndjson?: boolean;
  csv?: boolean;
  maxRows: number;
}

/** The output options, of which a query takes one at most. */
const FORMATS = ["json", "ndjson", "csv"] as const;

/**
 * Runs `pathlab query` (see `queryCommand` for what it prints and refuses): the SQL from
 * `argument`, `--file` or stdin, on the database opened `locked` or on the lake, streamed to
 * `io` as a table, JSON, NDJSON or CSV.
 * @example await runQuery(io, "select count(*) from runs", { db: "./pathlab.duckdb", maxRows: 100 });
 */
export async function runQuery(
  io: ProgramIo,
  argument: string | undefined,
  options: QueryOptions,
): Promise<void> {
  const formats = FORMATS.filter((format) => options[format] === true);
  if (formats.length > 1) {
    throw new InvalidParamsError(
      "query",
      "--json/--ndjson/--csv",
      "one of them",
      formats.map((format) => `--${format}`).join(" and "),
    );
  }
  const sql = await readSql(argument, options.file);
  const store = await openQuerySource(options, sql);
  const write = stdoutWriter(io);
  try {
    await streamRows(store, sql, (stream) =>
      options.json === true
        ? writeJsonArray(stream, write)
        : options.ndjson === true
          ? writeNdjson(stream, write)
          : options.csv === true
            ? writeCsv(stream, write)
            : writeTable(stream, write, options.maxRows, io.stdoutColors === true),
    );
  } catch (error) {
    throw queryError(error);
  } finally {
    await store.close();
  }
}

/**
 * The database (opened `locked`) or the lake that `options` name, the lake with the tables that
 * `sql` names. Nothing there is the user's mistake: a usage error that names the option and what
 * creates one.
 * @param options - `db`, or `lake` (which wins).
 * @param sql - the query, for the lake's tables to copy.
 * @example const store = await openQuerySource({ db: "./pathlab.duckdb" }, "select 1");
 */
export async function openQuerySource(options: Pick<QueryOptions, "db" | "lake">, sql: string) {
  try {
    return options.lake !== undefined
      ? await openLake(options.lake, lakeTablesNamedIn(sql))
      : await openStore(options.db, { locked: true });
  } catch (error) {
    if (!(error instanceof StoreNotFoundError)) throw error;
    const [option, path, expected] =
      options.lake !== undefined
        ? [
            "--lake",
            options.lake,
            "a pathlab lake (`sync`, `score` or `worker` with --lake write one)",
          ]
        : ["--db", options.db, "a pathlab database (`npx pathlab sync --db <path>` creates one)"];
    const got = `${JSON.stringify(path)}, ${options.lake !== undefined ? "which holds no .pathlab-lake.json" : "where there is no file"}`;
    throw new InvalidParamsError("query", option, expected, got);
  }
}

/**
 * DuckDB's errors that come from the machine rather than from the SQL (a file that cannot be
 * read, memory, a bug of DuckDB's, an interruption); every other error DuckDB gives is about the
 * SQL: it does not parse or bind, or a value in it or in the data cannot be converted.
 */
const MACHINE_ERROR = /^(IO|Out of Memory|INTERNAL|Internal|FATAL|Fatal|Interrupt) Error: /;

/**
 * Statements that DuckDB refuses because the locked store forbids them: a file, an extension, a
 * setting, or a change to the database opened read-only.
 */
const LOCKED_OUT =
  /disabled (through|by) configuration|configuration has been locked|in read-only mode/;

/** What `pathlab query` accepts, as a refusal says it. */
const READING_STATEMENTS =
  "statements that only read the database (SELECT, WITH, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE, " +
  "informational PRAGMAs)";

/**
 * A query's failure as the user should see it; errors that are neither a refusal nor DuckDB's
 * pass as they are.
 * - A statement that does not read (`StatementRefusedError`), or one that reaches outside the
 *   database (a file, an extension, a setting: DuckDB refuses it on the locked store): an
 *   `InvalidParamsError`, exit code 2.
 * - DuckDB's other errors: `query: <DuckDB's first line>`, with DuckDB's whole message (which may
 *   add the SQL with a caret, or candidates) as the cause that `--verbose` shows, and no word of
 *   pathlab's own functions. A {@link SqlError} (exit code 2) when the SQL is at fault, an Error
 *   (exit code 1) for the machine's errors ({@link MACHINE_ERROR}).
 * @param error - what opening or streaming the query threw.
 * @example throw queryError(error);
 */
export function queryError(error: unknown): unknown {
  if (error instanceof StatementRefusedError) {
    return refusal(
      READING_STATEMENTS,
      `a ${error.statementKind} statement (statement ${error.statementIndex + 1} of ${error.statementCount})`,
      error,
    );
  }
  if (!(error instanceof StoreError) || error.operation !== "streamRows") return error;
  const message = (error.cause instanceof Error ? error.cause.message : error.message)
    // the node binding's words before DuckDB's message when the SQL does not parse
    .replace(/^Failed to extract statements: /, "");
  const [first, ...rest] = message.split("\n");
  const cause = new Error(message);
  if (LOCKED_OUT.test(message)) {
    return refusal(
      `${READING_STATEMENTS} and touch no other file`,
      `a statement DuckDB refused: ${first}`,
      cause,
    );
  }
  const line = `query: ${first}${rest.length === 0 ? "" : " (--verbose shows DuckDB's whole message)"}`;
  return MACHINE_ERROR.test(first) ? new Error(line, { cause }) : new SqlError(line, { cause });
}

/** A refused statement: a usage error of the parameter `sql` (exit code 2). */
function refusal(expected: string, got: string, cause: Error): InvalidParamsError {
  const refused = new InvalidParamsError("query", "sql", expected, got);
  refused.cause = cause;
  return refused;
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
