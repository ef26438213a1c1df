/**
 * The shape of one step of the schema's history, which `migrate` applies to a database that has
 * not seen it yet.
 */

/**
 * One step of the schema: a version (1, 2, …, in order, never reused), a name, and its SQL
 * statements. A migration is applied once, in one transaction with its `schema_migrations` row.
 * @example const migration: Migration = { version: 8, name: "add notes", statements: ["CREATE TABLE notes (x INTEGER)"] };
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
  /**
   * Whether a database without this migration reads the same (it only loosens a constraint, or
   * adds a table no reader needs), so that read-only opens (`query`, `export`, notebooks) take it
   * as it is.
   */
  readonly readsAlike?: boolean;
}
