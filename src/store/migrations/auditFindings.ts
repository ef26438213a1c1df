/**
 * Migration 6, "audit findings", as it shipped. Frozen: a shipped migration is never edited. The
 * current shape of every table is `schema.ts`'s; test/store/schema.test.ts checks that the
 * migrations end there.
 */

import type { Migration } from "./migration.ts";

/**
 * Migration 6: the table of the violations `pathlab audit` found. A database without it reads
 * alike.
 * @example AUDIT_FINDINGS_MIGRATION.version // => 6
 */
export const AUDIT_FINDINGS_MIGRATION: Migration = {
  version: 6,
  name: "audit findings",
  statements: [
    `
CREATE TABLE audit_findings (
  run_id BIGINT NOT NULL,
  asset VARCHAR NOT NULL,
  forecast_start_time TIMESTAMP,
  operation VARCHAR NOT NULL,
  field VARCHAR NOT NULL,
  check_name VARCHAR NOT NULL,
  size DOUBLE NOT NULL,
  tolerance DOUBLE NOT NULL,
  detail VARCHAR NOT NULL
)`,
  ],
  readsAlike: true,
};
