/**
 * The versioned schema: an ordered list of named migrations, and `migrate`, which applies the ones a
 * database has not seen yet (each in its own transaction, recorded in `schema_migrations`).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import {
  CREATE_CALIBRATION,
  CREATE_CROSSCHECKS,
  CREATE_INSIGHTS,
  CREATE_INSIGHT_VALUES,
  CREATE_LEADERBOARD_ROWS,
  CREATE_MINER_SCORES,
  CREATE_PATH_POINTS_VIEW,
  CREATE_PATH_SETS,
  CREATE_PATH_VALUES,
  CREATE_PROMPTS,
  CREATE_REALIZED_PRICES,
  CREATE_RUNS,
  CREATE_SERVICE_SCORES,
  CREATE_SMOOTHED_SCORES,
  CREATE_VENUE_COMPARISONS,
} from "./schema.ts";
import { StoreError } from "./storeError.ts";
import { CREATE_AUDIT_FINDINGS } from "./auditFindings.ts";
import { VENUE_COMPARISONS_V7 } from "./venueComparisons.ts";
import { RUNS_V5, SCORING_V4 } from "./scoringSchemaV4.ts";

/**
 * One step of the schema: a version (1, 2, …, in order, never reused), a name, and its SQL
 * statements. A migration is applied once, in one transaction with its `schema_migrations` row.
 * @example const migration: Migration = { version: 2, name: "add prompts", statements: [CREATE_PROMPTS] };
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
  /**
   * Whether a database without this migration reads the same (it only loosens a constraint), so
   * that read-only opens (`query`, `export`, notebooks) take it as it is.
   */
  readonly readsAlike?: boolean;
}

/** The table that records which migrations a database has applied. */
const CREATE_SCHEMA_MIGRATIONS = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  applied_at TIMESTAMP NOT NULL
)`;

const SELECT_APPLIED_VERSIONS = `SELECT version, name FROM schema_migrations ORDER BY version`;

const INSERT_APPLIED_VERSION = `
INSERT INTO schema_migrations (version, name, applied_at)
VALUES ($version, $name, CAST(now() AS TIMESTAMP))`;

const SELECT_MIGRATIONS_TABLE = `
SELECT count(*) AS present FROM duckdb_tables()
WHERE database_name = current_database() AND table_name = 'schema_migrations'`;

/**
 * Migration 3: `runs.status` may also be `interrupted` (a job stopped by Ctrl-C). DuckDB cannot
 * change a CHECK constraint in place, so the table is rebuilt under its own name through a
 * temporary copy, keeping every row, its id and the id sequence.
 * @example for (const statement of RUNS_ALLOW_INTERRUPTED) await connection.run(statement);
 */
export const RUNS_ALLOW_INTERRUPTED: readonly string[] = [
  "CREATE TEMP TABLE runs_before_v3 AS SELECT * FROM runs",
  "DROP TABLE runs",
  `CREATE TABLE runs (
  id BIGINT PRIMARY KEY DEFAULT nextval('run_ids'),
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  command VARCHAR NOT NULL,
  args JSON NOT NULL,
  status VARCHAR NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed', 'interrupted')),
  failures JSON NOT NULL
)`,
  "INSERT INTO runs SELECT * FROM runs_before_v3",
  "DROP TABLE runs_before_v3",
];

/**
 * Every migration of pathlab's schema, in order. Version 1 creates the tables of DESIGN.md §4 that
 * the sync job writes (runs, path sets and their values, insights and their numeric leaves,
 * cross-checks, leaderboard rows, venue comparisons); version 2 the tables the score job writes
 * (prompts, realized prices, the service's and pathlab's scores, smoothed scores, calibration). Add
 * a migration for a new table; never edit one that has shipped. Version 3 lets a run end
 * `interrupted`; version 4 adds the service's CRPS as a score source, hotkeys and rank history;
 * version 5 lets a run end `abandoned` and records its process (`scoringSchemaV4.ts`); version 6
 * adds the findings of `audit` (`auditFindings.ts`); version 7 marks venue comparisons decided or
 * tradable (`VENUE_COMPARISONS_V7`).
 * @example MIGRATIONS.map((migration) => migration.name) // => ["initial schema", "scoring", "interrupted runs", "score sources and rank history", "abandoned runs", "audit findings", "tradable venue comparisons"]
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial schema",
    statements: [
      CREATE_RUNS,
      CREATE_PATH_SETS,
      CREATE_PATH_VALUES,
      CREATE_PATH_POINTS_VIEW,
      CREATE_INSIGHTS,
      CREATE_INSIGHT_VALUES,
      CREATE_CROSSCHECKS,
      CREATE_LEADERBOARD_ROWS,
      CREATE_VENUE_COMPARISONS,
    ],
  },
  {
    version: 2,
    name: "scoring",
    statements: [
      CREATE_PROMPTS,
      CREATE_REALIZED_PRICES,
      CREATE_SERVICE_SCORES,
      CREATE_MINER_SCORES,
      CREATE_SMOOTHED_SCORES,
      CREATE_CALIBRATION,
    ],
  },
  {
    version: 3,
    name: "interrupted runs",
    statements: RUNS_ALLOW_INTERRUPTED,
    readsAlike: true,
  },
  { version: 4, name: "score sources and rank history", statements: SCORING_V4 },
  { version: 5, name: "abandoned runs", statements: RUNS_V5, readsAlike: true },
  { version: 6, name: "audit findings", statements: [CREATE_AUDIT_FINDINGS], readsAlike: true },
  { version: 7, name: "tradable venue comparisons", statements: VENUE_COMPARISONS_V7 },
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
 * Applies the migrations of `migrations` that the database has not applied yet, in version order,
 * each in its own transaction together with its `schema_migrations` row; returns those applied
 * (none when the schema is current, so running it again changes nothing). Throws a
 * {@link StoreError} when the database has a version this list does not know (made by a newer
 * pathlab) or when a migration fails (its transaction is rolled back).
 * @example
 * const applied = await migrate(connection, "./pathlab.duckdb"); // [] when up to date
 */
export async function migrate(
  connection: DuckDBConnection,
  databasePath: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<Migration[]> {
  checkOrder(migrations);
  await connection.run(CREATE_SCHEMA_MIGRATIONS);
  const applied = await appliedMigrations(connection);
  const known = new Set(migrations.map((migration) => migration.version));
  for (const { version, name } of applied) {
    if (!known.has(version)) {
      throw new StoreError(
        "migrate",
        databasePath,
        `the database has schema version ${version} ("${name}"), which this pathlab does not know (its latest is ${migrations.at(-1)?.version ?? 0}); use a newer pathlab`,
      );
    }
  }
  const done = new Set(applied.map((migration) => migration.version));
  const pending = migrations.filter((migration) => !done.has(migration.version));
  for (const migration of pending) {
    await connection.run("BEGIN TRANSACTION");
    try {
      for (const statement of migration.statements) await connection.run(statement);
      await connection.run(INSERT_APPLIED_VERSION, {
        version: migration.version,
        name: migration.name,
      });
      await connection.run("COMMIT");
    } catch (error) {
      await connection.run("ROLLBACK");
      throw new StoreError(
        "migrate",
        databasePath,
        `migration ${migration.version} ("${migration.name}") failed and was rolled back: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return pending;
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
