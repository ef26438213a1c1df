/**
 * Migration 3, "interrupted runs", as it shipped. Frozen: a shipped migration is never edited. The
 * current shape of every table is `schema.ts`'s; test/store/schema.test.ts checks that the
 * migrations end there.
 */

import type { Migration } from "./migration.ts";
import { createRunsTable } from "./rebuiltTables.ts";

/**
 * Migration 3: `runs.status` may also be `interrupted` (a job stopped by Ctrl-C). DuckDB cannot
 * change a CHECK constraint in place, so the table is rebuilt under its own name through a
 * temporary copy, keeping every row, its id and the id sequence. A database without it reads alike.
 * @example INTERRUPTED_RUNS_MIGRATION.readsAlike // => true
 */
export const INTERRUPTED_RUNS_MIGRATION: Migration = {
  version: 3,
  name: "interrupted runs",
  statements: [
    "CREATE TEMP TABLE runs_before_v3 AS SELECT * FROM runs",
    "DROP TABLE runs",
    createRunsTable(["running", "ok", "partial", "failed", "interrupted"]),
    "INSERT INTO runs SELECT * FROM runs_before_v3",
    "DROP TABLE runs_before_v3",
  ],
  readsAlike: true,
};
