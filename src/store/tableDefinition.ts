/**
 * How `schema.ts` states a table or a view, and the DDL made from that statement.
 */

/**
 * A column type, spelled as DuckDB's catalog (`duckdb_columns().data_type`) spells it.
 * @example const type: ColumnType = "DOUBLE[]";
 */
export type ColumnType =
  "BIGINT" | "INTEGER" | "DOUBLE" | "DOUBLE[]" | "VARCHAR" | "TIMESTAMP" | "JSON" | "BOOLEAN";

/**
 * One column: its name, its type, and the rest of its definition (NOT NULL, CHECK, DEFAULT).
 * @example const column: Column = ["time_increment", "INTEGER", "NOT NULL CHECK (time_increment > 0)"];
 */
export type Column = readonly [name: string, type: ColumnType, constraints?: string];

/**
 * One table: its columns in order, its keys, and the sequence its surrogate ids come from.
 * @example const table: TableDefinition = { name: "notes", columns: [["asset", "VARCHAR", "NOT NULL"]], primaryKey: ["asset"] };
 */
export interface TableDefinition {
  readonly name: string;
  /** What a row holds, for people and assistants (`pathlab mcp`'s resources); none for bookkeeping. */
  readonly description?: string;
  readonly columns: readonly Column[];
  /**
   * The primary key's columns. A key of one column is declared on that column, as DuckDB writes
   * it back in its catalog.
   */
  readonly primaryKey?: readonly string[];
  /** The natural key of a table whose primary key is a surrogate id. */
  readonly unique?: readonly string[];
  /** The sequence that the table's `id` column draws from, created before the table. */
  readonly sequence?: string;
}

/**
 * One view: its name and its query.
 * @example const view: ViewDefinition = { name: "assets", select: "SELECT DISTINCT asset FROM path_sets" };
 */
export interface ViewDefinition {
  readonly name: string;
  /** What a row holds. */
  readonly description: string;
  readonly select: string;
}

/**
 * The statements that create `table`: its sequence, if it has one, then the table.
 * @example tableStatements({ name: "notes", columns: [["asset", "VARCHAR", "NOT NULL"]], primaryKey: ["asset"] }) // => ["CREATE TABLE notes (\n  asset VARCHAR PRIMARY KEY NOT NULL\n)"]
 */
export function tableStatements(
  table: TableDefinition,
  options: { readonly ifNotExists?: boolean } = {},
): string[] {
  const keyColumn = table.primaryKey?.length === 1 ? table.primaryKey[0] : undefined;
  const lines = table.columns.map(([name, type, constraints]) =>
    [name, type, name === keyColumn ? "PRIMARY KEY" : "", constraints ?? ""]
      .filter((part) => part !== "")
      .join(" "),
  );
  if (table.primaryKey !== undefined && keyColumn === undefined) {
    lines.push(`PRIMARY KEY (${table.primaryKey.join(", ")})`);
  }
  if (table.unique !== undefined) lines.push(`UNIQUE (${table.unique.join(", ")})`);
  const create = options.ifNotExists === true ? "CREATE TABLE IF NOT EXISTS" : "CREATE TABLE";
  return [
    ...(table.sequence === undefined ? [] : [`CREATE SEQUENCE ${table.sequence} START 1`]),
    `${create} ${table.name} (\n  ${lines.join(",\n  ")}\n)`,
  ];
}

/**
 * The statement that creates `view`.
 * @example viewStatement({ name: "assets", select: "SELECT DISTINCT asset FROM path_sets" }) // => "CREATE VIEW assets AS SELECT DISTINCT asset FROM path_sets"
 */
export function viewStatement(view: ViewDefinition): string {
  return `CREATE VIEW ${view.name} AS ${view.select}`;
}
