/**
 * The lake as one DuckDB database file: what the lake's reader (`openLake`) opens sealed, so that
 * DuckDB itself keeps the reader from writing. DuckDB has no setting that lets an instance read
 * files but not write them (`allowed_directories` and `allowed_paths` allow both), so the rows are
 * copied into a database file first, by an instance that runs pathlab's statements only. Copying
 * costs about what reading the rows costs, so only the tables a reader needs are copied.
 */

import { dirname } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { lakeTableGlob, latestRows } from "./lakeLayout.ts";
import { SCHEMA_MIGRATIONS_TABLE, TABLES } from "./schema.ts";
import { sqlIdentifier, sqlStringLiteral } from "./sqlText.ts";

/** The alias of the snapshot's database in the instance that writes it. */
const SNAPSHOT_ALIAS = "snapshot";

/**
 * A file listed when a statement started that a compaction removed before DuckDB read it, or a
 * table folder that was emptied meanwhile.
 */
const VANISHED = /Cannot open file|No files found that match/;

/**
 * The tables of the lake (pathlab's schema, `schema.ts`, and the bookkeeping `schema_migrations`
 * that a database has too).
 * @example LAKE_TABLES.includes("insights") // => true
 */
export const LAKE_TABLES: readonly string[] = [...TABLES, SCHEMA_MIGRATIONS_TABLE].map(
  (table) => table.name,
);

/**
 * The lake's tables whose name `sql` holds as a whole word, in any case: those a query may read.
 * A name inside a string or a comment counts too (its table is copied for nothing).
 * @example lakeTablesNamedIn("select count(*) from Insights") // => ["insights"]
 */
export function lakeTablesNamedIn(sql: string): string[] {
  return LAKE_TABLES.filter((table) => new RegExp(`\\b${table}\\b`, "i").test(sql));
}

/**
 * Writes into `snapshot` (a new DuckDB file) each table of `tables` as the lake at `root` holds
 * it: each unit's latest rows ({@link latestRows}) with the schema's column types, or an empty
 * table where the lake has no file of it. Every other table of {@link LAKE_TABLES} is a view with
 * the table's columns that fails when read, naming the table, so that DESCRIBE and SHOW TABLES see
 * it and no query reads it as empty. All tables come from one transaction; when a compaction
 * removes a file between its listing and its reading, the transaction is rolled back and the
 * snapshot taken again, once. The writing instance may read and write under `root` and the
 * snapshot's folder only. DuckDB's errors pass through as they are.
 * @param root - the lake's folder, absolute.
 * @param snapshot - the database file to create; its folder exists.
 * @param tables - the tables to copy, of {@link LAKE_TABLES}.
 * @example await writeLakeSnapshot("/data/lake", "/tmp/pathlab-lake-x1/lake.duckdb", ["insights"]);
 */
export async function writeLakeSnapshot(
  root: string,
  snapshot: string,
  tables: readonly string[],
): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const folders = [root, dirname(snapshot)].map((folder) => sqlStringLiteral(`${folder}/`));
    await connection.run(`SET allowed_directories = [${folders.join(", ")}]`);
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
    await connection.run(`ATTACH ${sqlStringLiteral(snapshot)} AS ${SNAPSHOT_ALIAS}`);
    for (let attempt = 1; ; attempt++) {
      await connection.run("BEGIN TRANSACTION");
      try {
        await copyTables(connection, root, tables);
        await connection.run("COMMIT");
        break;
      } catch (error) {
        await connection.run("ROLLBACK");
        if (attempt > 1 || !VANISHED.test((error as Error).message)) throw error;
      }
    }
    await connection.run(`DETACH ${SNAPSHOT_ALIAS}`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Creates each table of the schema in the snapshot (see {@link writeLakeSnapshot}). */
async function copyTables(
  connection: DuckDBConnection,
  root: string,
  tables: readonly string[],
): Promise<void> {
  for (const { name: table, columns } of [...TABLES, SCHEMA_MIGRATIONS_TABLE]) {
    const target = `${SNAPSHOT_ALIAS}.${sqlIdentifier(table)}`;
    if (!tables.includes(table)) {
      const message = sqlStringLiteral(
        `table ${table} of the lake was not read for this query; name it in the SQL`,
      );
      const nulls = columns.map(
        ([name, type]) => `CAST(NULL AS ${type}) AS ${sqlIdentifier(name)}`,
      );
      await connection.run(
        `CREATE VIEW ${target} AS SELECT ${nulls.join(", ")}
         FROM (SELECT error(${message}) AS failure) WHERE failure IS NULL`,
      );
      continue;
    }
    const glob = sqlStringLiteral(lakeTableGlob(root, table));
    const listed = await connection.runAndReadAll(`SELECT count(*) FROM glob(${glob})`);
    if (Number(listed.getRowsJS()[0][0]) === 0) {
      const definitions = columns.map(([name, type]) => `${sqlIdentifier(name)} ${type}`);
      await connection.run(`CREATE TABLE ${target} (${definitions.join(", ")})`);
      continue;
    }
    const select = columns.map(
      ([name, type]) => `CAST(${sqlIdentifier(name)} AS ${type}) AS ${sqlIdentifier(name)}`,
    );
    await connection.run(
      `CREATE TABLE ${target} AS SELECT ${select.join(", ")} FROM (${latestRows(glob)})`,
    );
  }
}
