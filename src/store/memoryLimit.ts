/** DuckDB's memory limit on an open store, set once its migrations have run. */

import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlStringLiteral } from "./sqlText.ts";
import { StoreError } from "./storeError.ts";

/**
 * Sets DuckDB's `memory_limit` to `limit` (DuckDB's words, e.g. `"512MB"`) on the connection of
 * the store at `path`, and for a file its spill folder to `<path>.tmp` beside it (DuckDB's default
 * for the in-memory instance a store is: `.tmp` in the working folder). Called after the
 * migrations, which may rebuild a whole table and its keys in one statement. Throws a
 * `StoreError` naming the limit when DuckDB refuses it.
 * @example await limitMemory(connection, "./pathlab.duckdb", "512MB");
 */
export async function limitMemory(
  connection: DuckDBConnection,
  path: string,
  limit: string,
): Promise<void> {
  try {
    await connection.run(`SET memory_limit = ${sqlStringLiteral(limit)}`);
    if (path !== ":memory:") {
      await connection.run(`SET temp_directory = ${sqlStringLiteral(`${path}.tmp`)}`);
    }
  } catch (error) {
    throw new StoreError(
      "openStore",
      path,
      `DuckDB's memory limit ${JSON.stringify(limit)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
