/** The options of `openStore`: how a DuckDB file is opened, and DuckDB's settings for it. */

import type { Migration } from "./migrations.ts";

/**
 * Options of `openStore`.
 * @example const options: OpenStoreOptions = { readOnly: true };
 */
export interface OpenStoreOptions {
  /**
   * Open read-only (notebooks, `pathlab query`): several readers may share the file, no writer
   * may; the schema is checked, never migrated. Default false.
   */
  readonly readOnly?: boolean;
  /**
   * Open for `pathlab query` (implies `readOnly`): a private copy of the file, made under DuckDB's
   * read lock, is the database of a DuckDB instance in READ_ONLY access mode, with
   * `enable_external_access = false` and `lock_configuration = true` set before any statement
   * runs, so no file can be written or read (no COPY, ATTACH, EXPORT, INSTALL/LOAD, read_parquet),
   * the file itself included, and no SET can undo this (see `lockedDatabase.ts`); the store then
   * runs only statements that read (see `readingStatements`). The copy is the instance's default
   * database, named after the file (not `pathlab`). Default false.
   */
  readonly locked?: boolean;
  /** Rows per row group for new data; 2,048 by default (see bench/suites/store.ts). */
  readonly rowGroupSize?: number;
  /**
   * DuckDB's `memory_limit`, set once migrated (e.g. `"512MB"`): it bounds the blocks DuckDB keeps
   * after writing them (`limitMemory`). Without it, DuckDB's own: 80 % of the machine's memory.
   */
  readonly memoryLimit?: string;
  /**
   * DuckDB's `allocator_bulk_deallocation_flush_threshold`, set once migrated (e.g. `"1MB"`): after
   * freeing at least that much at once, DuckDB hands the process's free memory back to the system
   * (`flushFreedMemory`). Without it, DuckDB's own: 512 MiB.
   */
  readonly flushThreshold?: string;
  /**
   * DuckDB's `threads`, set once migrated (a count ≥ 1): the threads its statements may use,
   * the calling one included. Without it, DuckDB's own: one per core.
   */
  readonly threads?: number | string;
  /**
   * The migrations that build and update the database step by step (tests: a database of an
   * earlier version); by default pathlab's own, a new database made at once from `schema.ts`.
   */
  readonly migrations?: readonly Migration[];
}
