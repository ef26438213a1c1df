/**
 * The tables and views of pathlab's schema: as `schema.ts` states them (no database needed, for
 * help texts) and as a database holds them (for `pathlab export` and `pathlab query`).
 */

import type { Store } from "./openStore.ts";
import { SCHEMA_MIGRATIONS_TABLE, TABLES, VIEWS } from "./schema.ts";
import { StoreError } from "./storeError.ts";

/**
 * A table or view of the schema.
 * @example const table: SchemaTable = { name: "path_points", kind: "view" };
 */
export interface SchemaTable {
  readonly name: string;
  readonly kind: "table" | "view";
}

/**
 * The tables and views that a migrated database holds, as `schema.ts` states them: its tables in
 * order, then its views. `schema_migrations`, which `migrate` keeps for itself, is not among them.
 * @example migratedTables().find((table) => table.kind === "view") // => { name: "path_points", kind: "view" }
 */
export function migratedTables(): SchemaTable[] {
  return [
    ...TABLES.map((table) => ({ name: table.name, kind: "table" as const })),
    ...VIEWS.map((view) => ({ name: view.name, kind: "view" as const })),
  ];
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
 * internal ones and without `schema_migrations`. In the schema's order ({@link migratedTables}),
 * then any other by name.
 * @param store - the store whose catalog to read.
 * @example (await schemaTables(store)).filter((table) => table.kind === "table").length // => 16
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
    .filter((table) => table.name !== SCHEMA_MIGRATIONS_TABLE.name)
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
