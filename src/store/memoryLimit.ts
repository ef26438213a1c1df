/**
 * DuckDB's memory limit, allocator flushes and threads on an open store, set once its migrations
 * have run.
 */

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
  await setting(path, `DuckDB's memory limit ${JSON.stringify(limit)}`, async () => {
    await connection.run(`SET memory_limit = ${sqlStringLiteral(limit)}`);
    if (path !== ":memory:") {
      await connection.run(`SET temp_directory = ${sqlStringLiteral(`${path}.tmp`)}`);
    }
  });
}

/**
 * Sets DuckDB's `allocator_bulk_deallocation_flush_threshold` to `threshold` (DuckDB's words, e.g.
 * `"1MB"`; DuckDB's own is 512 MiB) on the connection of the store at `path`: whenever DuckDB frees
 * at least that much at once, it then hands free memory back to the system. On Linux with glibc it
 * does so with `malloc_trim`, which returns the free memory of the whole process, not DuckDB's
 * alone: the arrays the job's threads have let go of too. Throws a `StoreError` naming the value
 * when DuckDB refuses it.
 * @example await flushFreedMemory(connection, "./pathlab.duckdb", "1MB");
 */
export async function flushFreedMemory(
  connection: DuckDBConnection,
  path: string,
  threshold: string,
): Promise<void> {
  await setting(path, `DuckDB's allocator flush threshold ${JSON.stringify(threshold)}`, () =>
    connection.run(
      `SET allocator_bulk_deallocation_flush_threshold = ${sqlStringLiteral(threshold)}`,
    ),
  );
}

/**
 * Sets DuckDB's `threads` to `threads` (a count ≥ 1, as a number or its digits) on the connection
 * of the store at `path`. Throws a `StoreError` naming the value when DuckDB refuses it.
 * @example await limitThreads(connection, "./pathlab.duckdb", 1);
 */
export async function limitThreads(
  connection: DuckDBConnection,
  path: string,
  threads: number | string,
): Promise<void> {
  await setting(path, `DuckDB's threads ${JSON.stringify(threads)}`, () =>
    connection.run(`SET threads = ${sqlStringLiteral(String(threads))}`),
  );
}

/** Runs `set`; DuckDB's refusal becomes a `StoreError` of `openStore` that names `what`. */
async function setting(path: string, what: string, set: () => Promise<unknown>): Promise<void> {
  try {
    await set();
  } catch (error) {
    throw new StoreError("openStore", path, `${what}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
