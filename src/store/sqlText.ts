/**
 * Names and strings written into SQL text, for the places DuckDB does not let a statement bind a
 * parameter (identifiers, ATTACH's file name, a view's `read_parquet` list, a setting's value).
 */

/**
 * `name` as a quoted SQL identifier (table and column names come from the catalog).
 * @example sqlIdentifier('miner "scores"') // => '"miner ""scores"""'
 */
export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `text` as a SQL string literal.
 * @example sqlStringLiteral("it's") // => "'it''s'"
 */
export function sqlStringLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
