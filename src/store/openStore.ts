/**
 * The thin connection module: open a DuckDB file (migrating it, or read-only), run work on its one
 * connection one piece at a time, transactions with rollback on error, and close.
 */

import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { copyDatabaseFile, openSealedCopy, type SealedDatabase } from "./lockedDatabase.ts";
import { flushFreedMemory, limitMemory, limitThreads } from "./memoryLimit.ts";
import { checkSchemaReadable, migrate, type Migration } from "./migrations.ts";
import type { OpenStoreOptions } from "./openStoreOptions.ts";
import { sqlStringLiteral } from "./sqlText.ts";
import { StoreError, StoreLockedError, StoreNotFoundError } from "./storeError.ts";

export type { OpenStoreOptions } from "./openStoreOptions.ts";

/**
 * Rows per DuckDB row group, 2,048 by default (DuckDB's own is 122,880). At a checkpoint DuckDB
 * rewrites a table's last, partly filled row group; with 289 doubles per row a 122,880-row group
 * holds 35 M doubles, so each checkpoint rewrote every ensemble appended to the open group so far
 * (commits of a 10-miner unit grew to seconds in our runs). With 2,048 rows the appended groups are
 * written once, full, and commits stay flat; bench/suites/store.ts times both.
 */
const DEFAULT_ROW_GROUP_SIZE = 2048;

/** The alias of the attached database file (the connection's current database). */
const DATABASE_ALIAS = "pathlab";

/**
 * An open pathlab database: one DuckDB connection, used by one piece of work at a time (calls made
 * while another runs wait their turn, so concurrent jobs never interleave inside a transaction).
 * Close it when the job ends: DuckDB lets one process write the file.
 * @example
 * const store = await openStore("./pathlab.duckdb");
 * try { await writeUnit(store, unit); } finally { await store.close(); }
 */
export class Store {
  /** The database file, as given to {@link openStore}. */
  readonly path: string;
  /** Whether the file was opened read-only. */
  readonly readOnly: boolean;
  /** Whether the store was opened `locked` (read-only, no file access, reads only). */
  readonly locked: boolean;
  /** The migrations applied when this store was opened (empty when the schema was current). */
  readonly appliedMigrations: readonly Migration[];
  private readonly instance: DuckDBInstance;
  private readonly connection: DuckDBConnection;
  private readonly afterClose: (() => void) | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private closed = false;

  /**
   * Wraps an open connection; {@link openStore} is the way to make one.
   * @param path - the database file (`":memory:"` for an in-memory one), or the lake's folder.
   * @param readOnly - whether the database was opened read-only.
   * @param instance - the DuckDB instance holding the database.
   * @param connection - the one connection every piece of work runs on.
   * @param migrations - the migrations applied on opening; none by default.
   * @param locked - whether the store was opened `locked` (only statements that read run); false by
   *   default.
   * @param afterClose - run once the database is closed (the lake's reader removes its snapshot's
   *   folder); none by default.
   * @example const store = await openStore(":memory:");
   */
  constructor(
    path: string,
    readOnly: boolean,
    instance: DuckDBInstance,
    connection: DuckDBConnection,
    migrations: readonly Migration[] = [],
    locked = false,
    afterClose?: () => void,
  ) {
    this.path = path;
    this.readOnly = readOnly || locked;
    this.locked = locked;
    this.instance = instance;
    this.connection = connection;
    this.appliedMigrations = migrations;
    this.afterClose = afterClose;
  }

  /**
   * Runs `work` with the connection once every earlier piece of work has finished, outside any
   * transaction (each statement commits on its own): for reads.
   * @param work - what to run; it gets the connection and must not keep it past its promise.
   * @example const reader = await store.withConnection((connection) => connection.runAndReadAll("select 1"));
   */
  withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) {
      return Promise.reject(new StoreError("withConnection", this.path, "the store is closed"));
    }
    const result = this.turn.then(() => work(this.connection));
    this.turn = result.catch(() => undefined);
    return result;
  }

  /**
   * Runs `work` in one transaction: BEGIN, then COMMIT when `work` resolves, or ROLLBACK when it
   * throws (the error is rethrown and nothing of the work remains). Waits for earlier work first.
   * When `signal` has aborted by the time `work` resolves (a job interrupted while it wrote), the
   * transaction is rolled back too, and the signal's reason thrown.
   * @param work - what to run in the transaction; it gets the connection and must not keep it past
   *   its promise.
   * @param signal - when aborted by the time `work` resolves, the transaction is rolled back; none
   *   by default.
   * @example
   * await store.withTransaction(async (connection) => {
   *   await connection.run("delete from crosschecks where asset = $asset", { asset: "BTC" });
   * });
   */
  withTransaction<T>(
    work: (connection: DuckDBConnection) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.readOnly) {
      return Promise.reject(
        new StoreError(
          "withTransaction",
          this.path,
          "the store is open read-only; open it with { readOnly: false } to write",
        ),
      );
    }
    return this.withConnection(async (connection) => {
      await connection.run("BEGIN TRANSACTION");
      let committed = false;
      try {
        const result = await work(connection);
        signal?.throwIfAborted();
        await connection.run("COMMIT");
        committed = true;
        return result;
      } finally {
        if (!committed) await rollbackQuietly(connection);
      }
    });
  }

  /**
   * Refuses new work, waits for the work already queued, then closes the connection and the
   * database (DuckDB checkpoints the file on close), and runs the store's `afterClose`. Closing
   * twice does nothing.
   * @example await store.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true; // work asked for from now on is refused; work already queued finishes
    await this.turn;
    this.connection.closeSync();
    this.instance.closeSync();
    this.afterClose?.();
  }
}

/** A failed COMMIT leaves no transaction; a ROLLBACK then fails, and that second error is noise. */
async function rollbackQuietly(connection: DuckDBConnection): Promise<void> {
  try {
    await connection.run("ROLLBACK");
  } catch {
    // no transaction left to roll back
  }
}

/**
 * Opens (creating if needed) the pathlab database at `path` and brings its schema up to date
 * (`migrate`), or with `readOnly` opens an existing one read-only after checking that its
 * schema is the one this pathlab knows. `":memory:"` opens a private in-memory database. With
 * `locked` (what `pathlab query` uses) it opens a private copy of the file read-only in an
 * instance that cannot touch any file nor change its settings, and the store runs only
 * statements that read.
 *
 * Errors: a {@link StoreLockedError} when another process holds the file (the message names its PID
 * and what to do), a {@link StoreNotFoundError} for a read-only open of a missing file, and a
 * {@link StoreError} for an outdated or newer schema, or a file DuckDB cannot open (its error as
 * `cause`).
 * @param path - the database file (created when missing, unless read-only), or `":memory:"`.
 * @param options - how to open it: `readOnly`, `locked`, the row group size and DuckDB's memory
 *   limit; read-write by default.
 * @example
 * const store = await openStore("./pathlab.duckdb");
 * const reader = await openStore("./pathlab.duckdb", { readOnly: true }); // after the writer closed
 * const sealed = await openStore("./pathlab.duckdb", { locked: true }); // `pathlab query`
 */
export async function openStore(path: string, options: OpenStoreOptions = {}): Promise<Store> {
  const locked = options.locked ?? false;
  const readOnly = locked || (options.readOnly ?? false);
  const rowGroupSize = options.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE;
  if (!Number.isInteger(rowGroupSize) || rowGroupSize < 2048 || rowGroupSize % 2048 !== 0) {
    throw new RangeError(
      `openStore requires rowGroupSize to be a positive multiple of 2048, got ${rowGroupSize}`,
    );
  }
  if (readOnly && path !== ":memory:" && !existsSync(path)) {
    throw new StoreNotFoundError(
      "openStore",
      path,
      "no database file there; a read-only open needs an existing database (run `npx pathlab sync` to create one)",
    );
  }
  if (locked) return openLocked(path, options.migrations);
  const instance = await DuckDBInstance.create(":memory:");
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    const attachOptions = readOnly ? "READ_ONLY" : `ROW_GROUP_SIZE ${rowGroupSize}`;
    try {
      await connection.run(
        `ATTACH ${sqlStringLiteral(path)} AS ${DATABASE_ALIAS} (${attachOptions})`,
      );
    } catch (error) {
      throw openFailure(path, readOnly, error);
    }
    await connection.run(`USE ${DATABASE_ALIAS}`);
    if (readOnly) await checkSchemaReadable(connection, path, options.migrations);
    const applied = readOnly ? [] : await migrate(connection, path, options.migrations);
    if (options.memoryLimit !== undefined) await limitMemory(connection, path, options.memoryLimit);
    if (options.flushThreshold !== undefined) {
      await flushFreedMemory(connection, path, options.flushThreshold);
    }
    if (options.threads !== undefined) await limitThreads(connection, path, options.threads);
    return new Store(path, readOnly, instance, connection, applied);
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    throw error;
  }
}

/**
 * {@link openStore} with `locked`: a copy of the file, made under DuckDB's read lock, as the
 * default database of a sealed instance (see `lockedDatabase.ts` for why a copy).
 */
async function openLocked(
  path: string,
  migrations: readonly Migration[] | undefined,
): Promise<Store> {
  let sealed: SealedDatabase;
  try {
    sealed = await openSealedCopy(basename(path), (file) => copyDatabaseFile(path, file));
  } catch (error) {
    throw openFailure(path, true, error);
  }
  const { instance, connection, removeFolder } = sealed;
  try {
    await checkSchemaReadable(connection, path, migrations);
    return new Store(path, true, instance, connection, [], true, removeFolder);
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    removeFolder();
    throw error;
  }
}

/**
 * The error of a database file DuckDB could not open: a {@link StoreLockedError} when another
 * process holds its lock, else a `StoreError` with DuckDB's message.
 */
function openFailure(path: string, readOnly: boolean, error: unknown): StoreError {
  if (/Could not set lock on file/.test((error as Error).message)) {
    return new StoreLockedError(path, readOnly, error);
  }
  return new StoreError(
    "openStore",
    path,
    `DuckDB could not open the file ${readOnly ? "read-only" : "for writing"}: ${(error as Error).message}`,
    { cause: error },
  );
}
