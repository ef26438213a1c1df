/**
 * A DuckDB instance sealed for reading one database: a private copy of it (a database file, or a
 * snapshot of a lake) is the instance's default database, opened READ_ONLY, and the instance may
 * open no other file (no COPY, ATTACH, EXPORT, INSTALL/LOAD, read_parquet, read_csv…) nor change
 * its settings. DuckDB itself enforces this; `pathlab query` reads the database and the lake
 * through one.
 *
 * Why a copy: DuckDB lets an instance without external access write the files of its own
 * databases (the file, its `.wal`) and its temporary folder, so `EXPLAIN ANALYZE COPY … TO` the
 * database's own path would overwrite it. The copy's folder is removed as soon as the copy is
 * open, so those writes find no folder; the user's files are not DuckDB's own and are refused
 * with DuckDB's Permission Error.
 */

import { constants, copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

/**
 * A sealed instance and its connection, to close when done, then `removeFolder` to call.
 * @example const { instance, connection, removeFolder } = await openSealedCopy("pathlab.duckdb", write);
 */
export interface SealedDatabase {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  /** Removes the instance's temporary folder (where DuckDB spills); call it after closing. */
  readonly removeFolder: () => void;
}

/**
 * Makes the copy (`writeCopy` writes the database file it is given, in a new private folder),
 * then opens it as the default database of an instance created with `access_mode = READ_ONLY`,
 * `enable_external_access = false` and `lock_configuration = true` (so that the settings hold
 * before the first statement and no SET can undo them), and removes the copy's folder. DuckDB
 * then refuses every statement that would change the database (CREATE, INSERT, UPDATE, DELETE,
 * DROP, ALTER…) and every access to another file, even inside `EXPLAIN ANALYZE`. Temporary
 * objects (`create temp table`) are allowed by DuckDB: they live in memory and end with the
 * instance. `writeCopy`'s and DuckDB's errors pass through as they are.
 * @param fileName - the copy's file name; DuckDB names the database after it (`pathlab.duckdb`:
 *   `pathlab`).
 * @param writeCopy - writes the database file at the path it is given.
 * @example
 * const sealed = await openSealedCopy("pathlab.duckdb", async (file) => copyDatabaseFile("./pathlab.duckdb", file));
 * await sealed.connection.run("copy runs to 'runs.csv'"); // throws: Permission Error … disabled by configuration
 */
export async function openSealedCopy(
  fileName: string,
  writeCopy: (file: string) => Promise<void>,
): Promise<SealedDatabase> {
  const copyFolder = mkdtempSync(join(tmpdir(), "pathlab-copy-"));
  const spillFolder = mkdtempSync(join(tmpdir(), "pathlab-spill-"));
  const removeFolder = () => rmSync(spillFolder, { recursive: true, force: true });
  try {
    const file = join(copyFolder, fileName);
    await writeCopy(file);
    // DuckDB applies the settings in this order, and none after lock_configuration.
    const instance = await DuckDBInstance.create(file, {
      temp_directory: spillFolder,
      access_mode: "READ_ONLY",
      enable_external_access: "false",
      lock_configuration: "true",
    });
    try {
      return { instance, connection: await instance.connect(), removeFolder };
    } catch (error) {
      instance.closeSync();
      throw error;
    }
  } catch (error) {
    removeFolder();
    throw error;
  } finally {
    // The open instance keeps reading the unlinked file; a reader killed later leaves no copy.
    rmSync(copyFolder, { recursive: true, force: true });
  }
}

/**
 * Copies the database file `path` (and its `.wal`, when there is one) to `file` while holding
 * DuckDB's read lock on it, so that no writer changes it meanwhile; a copy-on-write clone where
 * the file system makes them. Throws DuckDB's error when the file cannot be opened read-only
 * (another process writes it: "Could not set lock on file").
 * @example await copyDatabaseFile("./pathlab.duckdb", "/tmp/pathlab-copy-x1/pathlab.duckdb");
 */
export async function copyDatabaseFile(path: string, file: string): Promise<void> {
  const instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
  try {
    copyFileSync(path, file, constants.COPYFILE_FICLONE);
    const wal = `${path}.wal`;
    if (existsSync(wal)) copyFileSync(wal, `${file}.wal`, constants.COPYFILE_FICLONE);
  } finally {
    instance.closeSync();
  }
}
