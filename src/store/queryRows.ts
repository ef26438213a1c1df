/**
 * Any SQL on the store, with bound parameters, as JSON-ready rows (for `pathlab query` and tests).
 */

import type { DuckDBValue, Json } from "@duckdb/node-api";
import type { Store } from "./openStore.ts";
import { StoreError } from "./storeError.ts";

/**
 * The result of {@link queryRows}: column names and rows of JSON values (BIGINTs as strings).
 * @example const { columns, rows }: QueryResult = await queryRows(store, "select * from runs");
 */
export interface QueryResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Json[])[];
}

/**
 * Runs `sql` with `parameters` bound (`$name` or `?`), after earlier work on the store, and returns
 * every row as JSON values: numbers, strings (BIGINT and HUGEINT as decimal strings, timestamps as
 * ISO-like text), lists as arrays, JSON columns as their text. Errors become a {@link StoreError}
 * quoting DuckDB's message.
 * @example
 * const { rows } = await queryRows(store, "select count(*) as n from path_sets where asset = $asset", { asset: "BTC" });
 * rows[0][0] // => "10"
 */
export async function queryRows(
  store: Store,
  sql: string,
  parameters?: Record<string, DuckDBValue> | DuckDBValue[],
): Promise<QueryResult> {
  return store.withConnection(async (connection) => {
    try {
      const reader = await connection.runAndReadAll(sql, parameters);
      return { columns: reader.columnNames(), rows: reader.getRowsJson() };
    } catch (error) {
      throw new StoreError("queryRows", store.path, (error as Error).message, { cause: error });
    }
  });
}
