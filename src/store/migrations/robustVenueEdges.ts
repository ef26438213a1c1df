/**
 * Migration 8, "robust venue edges", as it shipped. Frozen: a shipped migration is never edited.
 * The current shape of every table is `schema.ts`'s; test/store/schema.test.ts checks that the
 * migrations end there.
 */

import type { Migration } from "./migration.ts";

/**
 * Migration 8: with each venue comparison, the between-miner standard error of the recomputed
 * probability, and whether its edge is tradable (live, and beyond two standard errors). Rows stored
 * before it have nulls: not judged.
 * @example ROBUST_VENUE_EDGES_MIGRATION.statements.length // => 2
 */
export const ROBUST_VENUE_EDGES_MIGRATION: Migration = {
  version: 8,
  name: "robust venue edges",
  statements: [
    "ALTER TABLE venue_comparisons ADD COLUMN between_miner_standard_error DOUBLE",
    "ALTER TABLE venue_comparisons ADD COLUMN tradable BOOLEAN",
  ],
};
