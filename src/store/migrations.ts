/**
 * The versioned schema: the ordered list of named migrations that bring a database of any earlier
 * version to the schema of `schema.ts`, and `migrate`, which makes a new database from that schema
 * or applies the migrations a database has not seen yet (each in its own transaction, recorded in
 * `schema_migrations`).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { ABANDONED_RUNS_MIGRATION } from "./migrations/abandonedRuns.ts";
import { AUDIT_FINDINGS_MIGRATION } from "./migrations/auditFindings.ts";
import { INITIAL_SCHEMA_MIGRATION } from "./migrations/initialSchema.ts";
import { INTERRUPTED_RUNS_MIGRATION } from "./migrations/interruptedRuns.ts";
import type { Migration } from "./migrations/migration.ts";
import { ROBUST_VENUE_EDGES_MIGRATION } from "./migrations/robustVenueEdges.ts";
import { SCORE_SOURCES_MIGRATION } from "./migrations/scoreSourcesAndRankHistory.ts";
import { SCORING_MIGRATION } from "./migrations/scoring.ts";
import { TRADABLE_VENUE_COMPARISONS_MIGRATION } from "./migrations/tradableVenueComparisons.ts";
import { SCHEMA_MIGRATIONS_TABLE, SCHEMA_STATEMENTS } from "./schema.ts";
import { StoreError } from "./storeError.ts";
import { tableStatements } from "./tableDefinition.ts";

export type { Migration } from "./migrations/migration.ts";

const [CREATE_SCHEMA_MIGRATIONS] = tableStatements(SCHEMA_MIGRATIONS_TABLE, { ifNotExists: true });

const SELECT_APPLIED_VERSIONS = `SELECT version, name FROM schema_migrations ORDER BY version`;

const INSERT_APPLIED_VERSION = `
INSERT INTO schema_migrations (version, name, applied_at)
VALUES ($version, $name, CAST(now() AS TIMESTAMP))`;

const SELECT_MIGRATIONS_TABLE = `
SELECT count(*) AS present FROM duckdb_tables()
WHERE database_name = current_database() AND table_name = 'schema_migrations'`;

/**
 * Every migration of pathlab's schema, in order, each as it shipped (`migrations/`): version 1
 * creates the tables that the sync job writes; version 2 the tables the score job
 * writes; version 3 lets a run end `interrupted`; version 4 adds the service's CRPS as a score
 * source, hotkeys and rank history; version 5 lets a run end `abandoned` and records its process;
 * version 6 adds the findings of `audit`; version 7 marks venue comparisons decided or tradable.
 * To change the schema, change `schema.ts` and add a migration that brings the previous version
 * there; never edit one that has shipped.
 * @example MIGRATIONS.map((migration) => migration.name) // => ["initial schema", "scoring", "interrupted runs", "score sources and rank history", "abandoned runs", "audit findings", "tradable venue comparisons"]
 */
export const MIGRATIONS: readonly Migration[] = [
  INITIAL_SCHEMA_MIGRATION,
  SCORING_MIGRATION,
  INTERRUPTED_RUNS_MIGRATION,
  SCORE_SOURCES_MIGRATION,
  ABANDONED_RUNS_MIGRATION,
  AUDIT_FINDINGS_MIGRATION,
  TRADABLE_VENUE_COMPARISONS_MIGRATION,
  ROBUST_VENUE_EDGES_MIGRATION,
];

/**
 * The versions (and names) of the migrations `connection`'s database has applied, in order; empty
 * when it has no `schema_migrations` table.
 * @example await appliedMigrations(connection) // => [{ version: 1, name: "initial schema" }]
 */
export async function appliedMigrations(
  connection: DuckDBConnection,
): Promise<{ version: number; name: string }[]> {
  const present = await connection.runAndReadAll(SELECT_MIGRATIONS_TABLE);
  if (Number(present.getRowsJS()[0][0]) === 0) return [];
  const reader = await connection.runAndReadAll(SELECT_APPLIED_VERSIONS);
  return reader.getRowsJS().map(([version, name]) => ({
    version: Number(version),
    name: String(name),
  }));
}

/**
 * Brings the database's schema up to date and returns the migrations that this applied (none when
 * the schema is current, so running it again changes nothing). A database without any migration
 * applied is made at once from `schema.ts` (`SCHEMA_STATEMENTS`), with every migration recorded
 * as applied; any other gets the migrations it has not applied yet, in version order, each in its
 * own transaction together with its `schema_migrations` row. With `migrations` given (tests: a
 * database of an earlier version), a database is built and brought up to date by those
 * migrations alone, step by step. Throws a {@link StoreError} when the database has a version
 * this pathlab does not know (made by a newer pathlab) or when a step fails (its transaction is
 * rolled back).
 * @example
 * const applied = await migrate(connection, "./pathlab.duckdb"); // [] when up to date
 */
export async function migrate(
  connection: DuckDBConnection,
  databasePath: string,
  migrations?: readonly Migration[],
): Promise<Migration[]> {
  const steps = migrations ?? MIGRATIONS;
  checkOrder(steps);
  await connection.run(CREATE_SCHEMA_MIGRATIONS);
  const applied = await appliedMigrations(connection);
  const known = new Set(steps.map((migration) => migration.version));
  for (const { version, name } of applied) {
    if (!known.has(version)) {
      throw new StoreError(
        "migrate",
        databasePath,
        `the database has schema version ${version} ("${name}"), which this pathlab does not know (its latest is ${steps.at(-1)?.version ?? 0}); use a newer pathlab`,
      );
    }
  }
  if (migrations === undefined && applied.length === 0) {
    const what = `the schema (version ${MIGRATIONS.length}) was not created`;
    await applyInTransaction(connection, databasePath, what, SCHEMA_STATEMENTS, MIGRATIONS);
    return [...MIGRATIONS];
  }
  const done = new Set(applied.map((migration) => migration.version));
  const pending = steps.filter((migration) => !done.has(migration.version));
  for (const migration of pending) {
    const what = `migration ${migration.version} ("${migration.name}") failed`;
    await applyInTransaction(connection, databasePath, what, migration.statements, [migration]);
  }
  return pending;
}

/**
 * Runs `statements` and records `migrations` as applied, in one transaction; rolls it back and
 * throws a {@link StoreError} saying `what` happened when one fails.
 */
async function applyInTransaction(
  connection: DuckDBConnection,
  databasePath: string,
  what: string,
  statements: readonly string[],
  migrations: readonly Migration[],
): Promise<void> {
  await connection.run("BEGIN TRANSACTION");
  try {
    for (const statement of statements) await connection.run(statement);
    for (const { version, name } of migrations) {
      await connection.run(INSERT_APPLIED_VERSION, { version, name });
    }
    await connection.run("COMMIT");
  } catch (error) {
    await connection.run("ROLLBACK");
    throw new StoreError(
      "migrate",
      databasePath,
      `${what} and was rolled back: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * For a read-only open (`openStore`): the schema must be the latest of `migrations` (pathlab's own
 * by default), or lack only migrations that read alike (`Migration.readsAlike`). Throws a
 * {@link StoreError} of `openStore` saying what to do otherwise.
 * @example await checkSchemaReadable(connection, "./pathlab.duckdb");
 */
export async function checkSchemaReadable(
  connection: DuckDBConnection,
  databasePath: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<void> {
  const applied = await appliedMigrations(connection);
  const latest = migrations.at(-1)?.version ?? 0;
  const version = applied.at(-1)?.version ?? 0;
  const missing = migrations.filter((migration) => migration.version > version);
  const readable = version > 0 && missing.every((migration) => migration.readsAlike === true);
  if (version !== latest && !(version < latest && readable)) {
    const found = applied.length === 0 ? "no pathlab schema" : `schema version ${version}`;
    throw new StoreError(
      "openStore",
      databasePath,
      version < latest
        ? `expected schema version ${latest}, got ${found}; open it once for writing (e.g. \`npx pathlab sync\`) to migrate it`
        : `expected schema version ${latest}, got ${found}, made by a newer pathlab; use a newer pathlab`,
    );
  }
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new RangeError(
        `migrate requires migrations numbered 1, 2, … in order: expected version ${index + 1} at position ${index}, got ${migration.version} ("${migration.name}")`,
      );
    }
  });
}
