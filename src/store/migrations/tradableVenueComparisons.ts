/**
 * Migration 7, "tradable venue comparisons", as it shipped. Frozen: a shipped migration is never
 * edited. The current shape of every table is `schema.ts`'s; test/store/schema.test.ts checks that
 * the migrations end there.
 */

import type { Migration } from "./migration.ts";

/**
 * Migration 7: with each venue comparison, whether the current price already settles the market
 * (`decided`), and the edge that survives the venue's spread, fee and rounding (`edge_side`,
 * `net_edge`). Rows stored before it have nulls: not judged.
 * @example TRADABLE_VENUE_COMPARISONS_MIGRATION.statements.length // => 3
 */
export const TRADABLE_VENUE_COMPARISONS_MIGRATION: Migration = {
  version: 7,
  name: "tradable venue comparisons",
  statements: [
    "ALTER TABLE venue_comparisons ADD COLUMN decided BOOLEAN",
    "ALTER TABLE venue_comparisons ADD COLUMN edge_side VARCHAR",
    "ALTER TABLE venue_comparisons ADD COLUMN net_edge DOUBLE",
  ],
};
