/**
 * Migration 4, "score sources and rank history", as it shipped: what the score job stores once it
 * benchmarks miners as the live network does (the validator's dated rules). Frozen: a shipped migration is never
 * edited. The current shape of every table is `schema.ts`'s; test/store/schema.test.ts checks that
 * the migrations end there.
 */

import type { Migration } from "./migration.ts";
import { createMinerScoresTable } from "./rebuiltTables.ts";

/**
 * Migration 4:
 * - `miner_scores.source` may be `service` (the miner's path set was not available and the CRPS is
 *   the service's). DuckDB cannot change a CHECK constraint in place, so the table is rebuilt
 *   through a temporary copy, keeping its rows by column name. It gains `hotkey` and the price
 *   and volatility parts of the CRPS.
 * - `smoothed_scores` gains `hotkey`.
 * - `rank_history` is created.
 * @example SCORE_SOURCES_MIGRATION.name // => "score sources and rank history"
 */
export const SCORE_SOURCES_MIGRATION: Migration = {
  version: 4,
  name: "score sources and rank history",
  statements: [
    "CREATE TEMP TABLE miner_scores_before_v4 AS SELECT * FROM miner_scores",
    "DROP TABLE miner_scores",
    createMinerScoresTable(
      ["network", "service", "candidate"],
      ["hotkey VARCHAR", "price_crps DOUBLE", "volatility_crps DOUBLE"],
    ),
    `INSERT INTO miner_scores (asset, time_increment, time_length, start_time, source, miner_uid,
  crps, intervals, prompt_score, invalid_reason, service_crps, service_prompt_score, verdict, run_id)
SELECT asset, time_increment, time_length, start_time, source, miner_uid, crps, intervals,
  prompt_score, invalid_reason, service_crps, service_prompt_score, verdict, run_id
FROM miner_scores_before_v4`,
    "DROP TABLE miner_scores_before_v4",
    "ALTER TABLE smoothed_scores ADD COLUMN hotkey VARCHAR",
    `CREATE TABLE rank_history (
  competition VARCHAR NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  source VARCHAR NOT NULL CHECK (source IN ('network', 'candidate')),
  miner_uid INTEGER NOT NULL,
  hotkey VARCHAR,
  rank INTEGER NOT NULL,
  of_miners INTEGER NOT NULL,
  smoothed_score DOUBLE NOT NULL,
  reward_weight DOUBLE NOT NULL,
  window_in_range BOOLEAN NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (competition, updated_at, source, miner_uid)
)`,
  ],
};
