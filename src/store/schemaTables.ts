/**
 * The tables and views of pathlab's schema: as the migrations create them (no database needed, for
 * help texts) and as a database holds them (for `pathlab export` and `pathlab query`).
 */

import { MIGRATIONS, type Migration } from "./migrations.ts";
import type { Store } from "./openStore.ts";
import { StoreError } from "./storeError.ts";

/**
 * A table or view of the schema.
 * @example const table: SchemaTable = { name: "path_points", kind: "view" };
 */
export interface SchemaTable {
  readonly name: string;
  readonly kind: "table" | "view";
}

/** The bookkeeping table `migrate` keeps beside the schema (which migrations were applied). */
const BOOKKEEPING_TABLES = ["schema_migrations"];

/**
 * `CREATE [OR REPLACE] TABLE|VIEW [IF NOT EXISTS] name` and `DROP TABLE|VIEW [IF EXISTS] name`
 * (`CREATE TEMP TABLE`, a migration's scratch table, does not match).
 */
const SCHEMA_STATEMENT =
  /\b(CREATE(?:\s+OR\s+REPLACE)?|DROP)\s+(TABLE|VIEW)\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?"?(\w+)"?/gi;

/**
 * The tables and views that `migrations` leave behind, in the order they are created, read from
 * their SQL (`CREATE TABLE`/`CREATE VIEW`, less what a later `DROP` removes for good; a table
 * rebuilt by `DROP` and `CREATE` keeps its place). `schema_migrations`, which `migrate` keeps for
 * itself, is not among them.
 * @example migratedTables().find((table) => table.kind === "view") // => { name: "path_points", kind: "view" }
 */
export function migratedTables(migrations: readonly Migration[] = MIGRATIONS): SchemaTable[] {
  // a table dropped and created again (a rebuild) keeps its place: Map.set keeps a key's position
  const tables = new Map<string, SchemaTable | undefined>();
  for (const migration of migrations) {
    for (const statement of migration.statements) {
      for (const [, verb, kind, name] of statement.matchAll(SCHEMA_STATEMENT)) {
        const key = name.toLowerCase();
        const created = verb.toUpperCase() !== "DROP";
        tables.set(
          key,
          created ? { name: key, kind: kind.toLowerCase() as SchemaTable["kind"] } : undefined,
        );
      }
    }
  }
  return [...tables.values()].filter((table) => table !== undefined);
}

const SELECT_SCHEMA_TABLES = `
SELECT table_name AS name, 'table' AS kind FROM duckdb_tables()
WHERE database_name = current_database() AND schema_name = current_schema()
  AND NOT internal AND NOT temporary
UNION ALL
SELECT view_name, 'view' FROM duckdb_views()
WHERE database_name = current_database() AND schema_name = current_schema()
  AND NOT internal AND NOT temporary`;

/**
 * The tables and views `store`'s database holds, read from its catalog (`duckdb_tables()`,
 * `duckdb_views()`): every table any job writes, whether or not it has rows, without DuckDB's
 * internal ones and without `schema_migrations`. In migration order ({@link migratedTables}), then
 * any other by name.
 * @example (await schemaTables(store)).filter((table) => table.kind === "table").length // => 14
 */
export async function schemaTables(store: Store): Promise<SchemaTable[]> {
  const rows = await store.withConnection(async (connection) => {
    try {
      return (await connection.runAndReadAll(SELECT_SCHEMA_TABLES)).getRowsJS();
    } catch (error) {
      throw new StoreError("schemaTables", store.path, (error as Error).message, { cause: error });
    }
  });
  const order = new Map(migratedTables().map((table, index) => [table.name, index]));
  return rows
    .map(([name, kind]) => ({ name: String(name), kind: kind as SchemaTable["kind"] }))
    .filter((table) => !BOOKKEEPING_TABLES.includes(table.name))
    .sort(
      (a, b) =>
        (order.get(a.name) ?? order.size) - (order.get(b.name) ?? order.size) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
}

/**
 * The names of the tables of `store`'s database, views left out, in {@link schemaTables}' order:
 * what `exportParquet` writes and `--tables` may name.
 * @example (await tableNames(store)).includes("miner_scores") // => true
 */
export async function tableNames(store: Store): Promise<string[]> {
  return (await schemaTables(store))
    .filter((table) => table.kind === "table")
    .map((table) => table.name);
}
