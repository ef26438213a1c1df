/**
 * Migration 1, "initial schema": the tables that the sync job writes (runs, path
 * sets and their values, insights and their numeric leaves, cross-checks, leaderboard rows, venue
 * comparisons), as they shipped. Frozen: a shipped migration is never edited. The current shape
 * of every table is `schema.ts`'s; test/store/schema.test.ts checks that the migrations end there.
 */

import type { Migration } from "./migration.ts";
import { createRunsTable } from "./rebuiltTables.ts";

/**
 * Migration 1: the sync job's tables and the `path_points` view.
 * @example INITIAL_SCHEMA_MIGRATION.statements.length // => 9
 */
export const INITIAL_SCHEMA_MIGRATION: Migration = {
  version: 1,
  name: "initial schema",
  statements: [
    // runs
    `
CREATE SEQUENCE run_ids START 1;
${createRunsTable(["running", "ok", "partial", "failed"])}`,
    // path_sets
    `
CREATE SEQUENCE path_set_ids START 1;
CREATE TABLE path_sets (
  id BIGINT PRIMARY KEY DEFAULT nextval('path_set_ids'),
  asset VARCHAR NOT NULL,
  miner_uid INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  time_increment INTEGER NOT NULL CHECK (time_increment > 0),
  time_length INTEGER NOT NULL CHECK (time_length >= 0),
  n_paths INTEGER NOT NULL CHECK (n_paths >= 0),
  n_points INTEGER NOT NULL CHECK (n_points >= 1),
  source VARCHAR NOT NULL,
  fetched_at TIMESTAMP NOT NULL,
  run_id BIGINT,
  UNIQUE (asset, miner_uid, start_time, time_increment, time_length)
)`,
    // path_values
    `
CREATE TABLE path_values (
  path_set_id BIGINT NOT NULL,
  path INTEGER NOT NULL,
  prices DOUBLE[] NOT NULL
)`,
    // path_points
    `
CREATE VIEW path_points AS
SELECT
  s.id AS path_set_id, s.asset, s.miner_uid, s.start_time, s.time_increment, v.path,
  CAST(generate_subscripts(v.prices, 1) - 1 AS INTEGER) AS point,
  unnest(v.prices) AS price
FROM path_values v JOIN path_sets s ON s.id = v.path_set_id`,
    // insights
    `
CREATE SEQUENCE insight_ids START 1;
CREATE TABLE insights (
  id BIGINT PRIMARY KEY DEFAULT nextval('insight_ids'),
  operation VARCHAR NOT NULL,
  asset VARCHAR NOT NULL,
  horizon VARCHAR NOT NULL CHECK (horizon IN ('1h', '24h')),
  forecast_start_time TIMESTAMP NOT NULL,
  source VARCHAR NOT NULL CHECK (source IN ('service', 'recomputed')),
  record JSON NOT NULL,
  run_id BIGINT,
  UNIQUE (operation, asset, horizon, forecast_start_time, source)
)`,
    // insight_values
    `
CREATE TABLE insight_values (
  insight_id BIGINT NOT NULL,
  field VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  value DOUBLE
)`,
    // crosschecks
    `
CREATE TABLE crosschecks (
  operation VARCHAR NOT NULL,
  asset VARCHAR NOT NULL,
  horizon VARCHAR NOT NULL CHECK (horizon IN ('1h', '24h')),
  forecast_start_time TIMESTAMP NOT NULL,
  field VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  service_value DOUBLE,
  recomputed_value DOUBLE,
  difference DOUBLE,
  tolerance DOUBLE,
  verdict VARCHAR NOT NULL,
  detail VARCHAR,
  run_id BIGINT
)`,
    // leaderboard_rows
    `
CREATE TABLE leaderboard_rows (
  operation VARCHAR NOT NULL,
  prompt_name VARCHAR NOT NULL,
  days INTEGER NOT NULL,
  as_of TIMESTAMP NOT NULL,
  rank INTEGER NOT NULL,
  neuron_uid INTEGER NOT NULL,
  rewards DOUBLE NOT NULL,
  updated_at TIMESTAMP,
  coldkey VARCHAR,
  ip_address VARCHAR,
  run_id BIGINT,
  PRIMARY KEY (operation, prompt_name, days, as_of, neuron_uid)
)`,
    // venue_comparisons
    `
CREATE TABLE venue_comparisons (
  operation VARCHAR NOT NULL,
  asset VARCHAR NOT NULL,
  horizon VARCHAR NOT NULL CHECK (horizon IN ('1h', '24h')),
  forecast_start_time TIMESTAMP NOT NULL,
  slug VARCHAR NOT NULL,
  market VARCHAR NOT NULL,
  kind VARCHAR NOT NULL CHECK (kind IN ('up-down', 'range', 'above', 'hit', 'below')),
  ref_prices DOUBLE[],
  event_start_time TIMESTAMP,
  event_end_time TIMESTAMP NOT NULL,
  observed_at TIMESTAMP NOT NULL,
  current_price DOUBLE NOT NULL,
  start_price DOUBLE,
  service_probability DOUBLE NOT NULL,
  recomputed_probability DOUBLE,
  recomputed_standard_error DOUBLE,
  venue_probability DOUBLE,
  best_bid_price DOUBLE,
  best_bid_size DOUBLE,
  best_ask_price DOUBLE,
  best_ask_size DOUBLE,
  last_trade_price DOUBLE,
  record JSON NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (operation, asset, forecast_start_time, slug, market)
)`,
  ],
};
