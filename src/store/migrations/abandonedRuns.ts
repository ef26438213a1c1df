/**
 * Migration 5, "abandoned runs", as it shipped. Frozen: a shipped migration is never edited. The
 * current shape of every table is `schema.ts`'s; test/store/schema.test.ts checks that the
 * migrations end there.
 */

import type { Migration } from "./migration.ts";
import { createRunsTable } from "./rebuiltTables.ts";

/**
 * Migration 5: `runs.status` may be `abandoned` (a run whose process ended without finishing it:
 * SIGKILL, a crash, a power cut), and each run records the process (`pid`) and machine (`host`)
 * that ran it, so that a later job can tell a dead run from a live one. The table is rebuilt as in
 * migration 3, keeping every row, its id and the id sequence. A database without it reads alike.
 * @example ABANDONED_RUNS_MIGRATION.statements.length // => 5
 */
export const ABANDONED_RUNS_MIGRATION: Migration = {
  version: 5,
  name: "abandoned runs",
  statements: [
    "CREATE TEMP TABLE runs_before_v5 AS SELECT * FROM runs",
    "DROP TABLE runs",
    createRunsTable(
      ["running", "ok", "partial", "failed", "interrupted", "abandoned"],
      ["pid INTEGER", "host VARCHAR"],
    ),
    `INSERT INTO runs (id, started_at, finished_at, command, args, status, failures)
SELECT id, started_at, finished_at, command, args, status, failures FROM runs_before_v5`,
    "DROP TABLE runs_before_v5",
  ],
  readsAlike: true,
};
