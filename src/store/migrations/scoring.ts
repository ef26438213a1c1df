/**
 * Migration 2, "scoring": the tables the score job writes (prompts, realized prices, the service's
 * and pathlab's scores, smoothed scores, calibration), as they shipped. Frozen: a shipped
 * migration is never edited. The current shape of every table is `schema.ts`'s;
 * test/store/schema.test.ts checks that the migrations end there.
 */

import type { Migration } from "./migration.ts";
import { createMinerScoresTable } from "./rebuiltTables.ts";

/**
 * Migration 2: the score job's tables.
 * @example SCORING_MIGRATION.statements.length // => 6
 */
export const SCORING_MIGRATION: Migration = {
  version: 2,
  name: "scoring",
  statements: [
    // prompts
    `
CREATE TABLE prompts (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL CHECK (time_increment > 0),
  time_length INTEGER NOT NULL CHECK (time_length > 0),
  start_time TIMESTAMP NOT NULL,
  competition VARCHAR NOT NULL,
  scored_time TIMESTAMP NOT NULL,
  score_rule VARCHAR NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (asset, time_increment, time_length, start_time)
)`,
    // realized_prices
    `
CREATE TABLE realized_prices (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL,
  time_length INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  prices DOUBLE[] NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (asset, time_increment, time_length, start_time)
)`,
    // service_scores
    `
CREATE TABLE service_scores (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL,
  time_length INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  miner_uid INTEGER NOT NULL,
  crps DOUBLE NOT NULL,
  prompt_score DOUBLE NOT NULL,
  scored_time TIMESTAMP NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (asset, time_increment, time_length, start_time, miner_uid)
)`,
    // miner_scores
    `
${createMinerScoresTable(["network", "candidate"])}`,
    // smoothed_scores
    `
CREATE TABLE smoothed_scores (
  competition VARCHAR NOT NULL,
  as_of TIMESTAMP NOT NULL,
  source VARCHAR NOT NULL CHECK (source IN ('network', 'candidate')),
  miner_uid INTEGER NOT NULL,
  smoothed_score DOUBLE,
  reward_weight DOUBLE,
  service_smoothed_score DOUBLE,
  service_reward_weight DOUBLE,
  verdict VARCHAR NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (competition, as_of, source, miner_uid)
)`,
    // calibration
    `
CREATE TABLE calibration (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL,
  time_length INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  source VARCHAR NOT NULL CHECK (source IN ('network', 'candidate')),
  miner_uid INTEGER NOT NULL,
  horizon VARCHAR NOT NULL,
  n_paths INTEGER NOT NULL,
  observed_points INTEGER NOT NULL,
  pit_counts DOUBLE[] NOT NULL,
  levels DOUBLE[] NOT NULL,
  covered_counts DOUBLE[] NOT NULL,
  width_sums DOUBLE[] NOT NULL,
  relative_width_sums_bps DOUBLE[] NOT NULL,
  step_crps_bps DOUBLE[] NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (asset, time_increment, time_length, start_time, source, miner_uid)
)`,
  ],
};
