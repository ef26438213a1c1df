/**
 * Any SQL on the store, with bound parameters, as JSON-ready rows: all at once ({@link queryRows},
 * for tests and small results) or chunk by chunk ({@link streamRows}, for `pathlab query`).
 */

import {
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBValue,
  type Json,
} from "@duckdb/node-api";
import { jsonValueConverter } from "./jsonValues.ts";
import type { Store } from "./openStore.ts";
import { readingStatements } from "./readingStatements.ts";
import { StoreError } from "./storeError.ts";

/**
 * The result of {@link queryRows}: column names and rows of JSON values (see {@link queryRows}).
 * @example const { columns, rows }: QueryResult = await queryRows(store, "select * from runs");
 */
export interface QueryResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Json[])[];
}

/**
 * Runs `sql` with `parameters` bound (`$name` or `?`), after earlier work on the store, and returns
 * every row as JSON values (`jsonValueConverter`): integers as numbers, BIGINT and HUGEINT too as
 * long as they are exact as numbers (up to 2^53 − 1 either side of 0), as decimal strings beyond
 * (`"9007199254740993"`); doubles as numbers (NaN and ±Infinity as strings); DECIMAL as its exact
 * decimal string; timestamps as ISO 8601 in UTC (`2026-02-25T10:00:00Z`); DATE as `2026-02-25`;
 * lists as arrays; JSON columns as their text. On a `locked` store only statements that read run
 * (see {@link streamRows}). Errors become a {@link StoreError} quoting DuckDB's message.
 * @param store - the store to query.
 * @param sql - one or more SQL statements; the rows are the last one's.
 * @param parameters - the values bound to the last statement: by name for `$name`, in order for
 *   `?`; none by default.
 * @example
 * const { rows } = await queryRows(store, "select count(*) as n from path_sets where asset = $asset", { asset: "BTC" });
 * rows[0][0] // => 10
 */
export async function queryRows(
  store: Store,
  sql: string,
  parameters?: Record<string, DuckDBValue> | DuckDBValue[],
): Promise<QueryResult> {
  return withLastStatement(store, "queryRows", sql, parameters, async (last, fail) => {
    const reader = await last.runAndReadAll().catch(fail);
    return { columns: reader.columnNames(), rows: reader.convertRows(jsonValueConverter) };
  });
}

/**
 * DuckDB frees a fetched chunk's memory only when V8 collects the chunk's JS wrapper, and V8 does
 * not count that native memory. Skipped chunks allocate next to nothing in JS, so V8 would collect
 * rarely and memory would grow with the row count (600 MB for 10 M rows of four columns). An
 * ArrayBuffer is memory V8 does count: one thrown away per skipped chunk makes it collect every
 * few hundred chunks, which holds memory flat (about 180 MB for the same 10 M rows).
 */
const MEMORY_HINT_BYTES = 256 * 1024;
// assigned, never read: a store the optimizer cannot drop as it could an unused allocation
let _memoryHint: ArrayBuffer | undefined;

/**
 * A query's result as {@link streamRows} hands it out: one DuckDB chunk (at most 2,048 rows) at a
 * time, so that memory holds one chunk whatever the row count.
 * @example
 * for (let rows = await stream.nextRows(); rows !== null; rows = await stream.nextRows()) write(rows);
 */
export interface RowStream {
  /** The column names; a name repeated in the result gets `:1`, `:2`… (as DuckDB's row objects). */
  readonly columns: readonly string[];
  /** DuckDB's type of each column, as SQL writes it: `DOUBLE`, `BIGINT`, `DECIMAL(18,3)`, `VARCHAR[]`… */
  readonly columnTypes: readonly string[];
  /** The next chunk's rows as JSON values (the conventions of {@link queryRows}), or null at the end. */
  nextRows(): Promise<Json[][] | null>;
  /** Reads the rest of the result without converting it and returns how many rows it had. */
  skipRows(): Promise<number>;
}

/**
 * Runs `sql` (statements before the last are run first; `parameters` bind to the last) as a
 * streaming query and hands its result to `read`, which pulls the rows chunk by chunk and may stop
 * early; resolves to what `read` returns. The store's connection is held until `read` settles.
 * On a `locked` store (`pathlab query`) every statement is first checked to read only
 * (`readingStatements`), and a `StatementRefusedError` is thrown before any of them runs.
 * DuckDB's errors, when the query starts or while its rows are read, become a {@link StoreError}
 * quoting DuckDB's message; errors thrown by `read` itself pass through as they are.
 * @param store - the store to query.
 * @param sql - one or more SQL statements; the streamed rows are the last one's.
 * @param read - pulls the rows from the stream, chunk by chunk, and gives the result.
 * @param parameters - the values bound to the last statement: by name for `$name`, in order for
 *   `?`; none by default.
 * @example
 * const rowCount = await streamRows(store, "select * from path_values", async (stream) => {
 *   let count = 0;
 *   for (let rows = await stream.nextRows(); rows !== null; rows = await stream.nextRows()) count += rows.length;
 *   return count;
 * });
 */
export async function streamRows<T>(
  store: Store,
  sql: string,
  read: (stream: RowStream) => Promise<T>,
  parameters?: Record<string, DuckDBValue> | DuckDBValue[],
): Promise<T> {
  return withLastStatement(store, "streamRows", sql, parameters, async (last, fail) =>
    read(rowStream(await last.stream().catch(fail), fail)),
  );
}

/** What starts a query's last statement: a prepared statement, or the whole SQL on a connection. */
type LastStatement = Pick<DuckDBPreparedStatement, "runAndReadAll" | "stream">;

/**
 * Runs `use` on the store's connection (after earlier work) with what starts the last statement of
 * `sql`: on a store that is not locked, the whole of `sql` with `parameters` bound; on a `locked`
 * one, the last of its statements, each first checked to read only ({@link checkedStatements})
 * and those before it run, all freed when `use` settles. `fail` turns DuckDB's errors into a
 * {@link StoreError} naming `operation`; errors thrown by `use` itself pass through.
 */
async function withLastStatement<T>(
  store: Store,
  operation: string,
  sql: string,
  parameters: Record<string, DuckDBValue> | DuckDBValue[] | undefined,
  use: (last: LastStatement, fail: (error: unknown) => never) => Promise<T>,
): Promise<T> {
  const fail = (error: unknown): never => {
    throw new StoreError(operation, store.path, (error as Error).message, { cause: error });
  };
  return store.withConnection(async (connection) => {
    if (!store.locked) {
      return use(
        {
          runAndReadAll: () => connection.runAndReadAll(sql, parameters),
          stream: () => connection.stream(sql, parameters),
        },
        fail,
      );
    }
    const statements = await checkedStatements(connection, sql, store.path, fail);
    try {
      return await use(await runUntilLast(statements, parameters, fail), fail);
    } finally {
      for (const statement of statements) statement.destroySync();
    }
  });
}

/**
 * The statements of `sql` on a locked store, each checked to read only: a refusal
 * (`StatementRefusedError`) passes as it is, DuckDB's errors go through `fail`, and SQL without a
 * statement (only comments) fails too.
 */
async function checkedStatements(
  connection: DuckDBConnection,
  sql: string,
  databasePath: string,
  fail: (error: unknown) => never,
): Promise<DuckDBPreparedStatement[]> {
  const statements = await readingStatements(connection, sql, databasePath).catch(
    (error: unknown) => (error instanceof StoreError ? Promise.reject(error) : fail(error)),
  );
  if (statements.length === 0) fail(new Error("the SQL holds no statement (only comments?)"));
  return statements;
}

/** Runs every statement but the last, binds `parameters` to the last and returns it. */
async function runUntilLast(
  statements: readonly DuckDBPreparedStatement[],
  parameters: Record<string, DuckDBValue> | DuckDBValue[] | undefined,
  fail: (error: unknown) => never,
): Promise<DuckDBPreparedStatement> {
  const last = statements.length - 1;
  for (let index = 0; index < last; index++) await statements[index].run().catch(fail);
  if (parameters !== undefined) statements[last].bind(parameters);
  return statements[last];
}

/** The chunks of `result` as a {@link RowStream}; DuckDB's errors go through `fail`. */
function rowStream(result: DuckDBResult, fail: (error: unknown) => never): RowStream {
  let done = false;
  const nextChunk = async () => {
    if (done) return null;
    const chunk = await result.fetchChunk().catch(fail);
    if (chunk === null || chunk.rowCount === 0) done = true;
    return done ? null : chunk;
  };
  return {
    columns: result.deduplicatedColumnNames(),
    columnTypes: result.columnTypes().map((type) => type.toString()),
    async nextRows() {
      const chunk = await nextChunk();
      if (chunk === null) return null;
      const rows = chunk.convertRows(jsonValueConverter) as Json[][];
      chunk.reset();
      return rows;
    },
    async skipRows() {
      let count = 0;
      for (let chunk = await nextChunk(); chunk !== null; chunk = await nextChunk()) {
        count += chunk.rowCount;
        chunk.reset();
        _memoryHint = new ArrayBuffer(MEMORY_HINT_BYTES);
      }
      return count;
    },
  };
}
