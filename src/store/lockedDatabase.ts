/**
 * A DuckDB instance sealed for reading one database file: the file is its default database, opened
 * READ_ONLY, and the instance may open no other file (no COPY, ATTACH, EXPORT, INSTALL/LOAD,
 * read_parquet, read_csv…) nor change its settings. DuckDB itself enforces both; `pathlab query`
 * reads the database and the lake through one.
 */

import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

/**
 * A sealed instance and its connection, both to close when done.
 * @example const { instance, connection } = await openLockedDatabase("./pathlab.duckdb");
 */
export interface LockedDatabase {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
}

/**
 * Opens `path` as the default database of an instance created with `access_mode = READ_ONLY`,
 * `enable_external_access = false` and `lock_configuration = true`, so that the settings hold
 * before the first statement and no SET can undo them. DuckDB then refuses every statement that
 * would change the database (CREATE, INSERT, UPDATE, DELETE, DROP, ALTER, CHECKPOINT's writes…) and
 * every access to another file, even inside `EXPLAIN ANALYZE`. Temporary objects (`create temp
 * table`) are allowed by DuckDB: they live in memory and end with the instance. DuckDB's errors
 * pass through as they are (a lock held by a writer: "Could not set lock on file").
 * @param path - the database file; it must exist.
 * @param temporaryDirectory - where DuckDB may spill what does not fit in memory; DuckDB's default
 *   (beside the file) when undefined.
 * @example
 * const { instance, connection } = await openLockedDatabase("./pathlab.duckdb");
 * await connection.run("copy runs to 'runs.csv'"); // throws: Permission Error … disabled by configuration
 */
export async function openLockedDatabase(
  path: string,
  temporaryDirectory?: string,
): Promise<LockedDatabase> {
  // DuckDB applies the settings in this order, and none after lock_configuration.
  const instance = await DuckDBInstance.create(path, {
    ...(temporaryDirectory === undefined ? {} : { temp_directory: temporaryDirectory }),
    access_mode: "READ_ONLY",
    enable_external_access: "false",
    lock_configuration: "true",
  });
  try {
    return { instance, connection: await instance.connect() };
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}
