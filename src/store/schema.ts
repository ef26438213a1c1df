/**
 * The tables of the store, one named SQL constant each (migration 1 runs them in this order).
 * Times are `TIMESTAMP` in UTC. Natural keys are PRIMARY KEY or UNIQUE constraints on the tables
 * written row by row; the bulk child tables (`path_values`, `insight_values`, `crosschecks`) have no
 * index (DuckDB keeps ART indexes in memory, and these grow by thousands of rows per unit): their
 * writers delete the parent's rows and append the new ones in the same transaction, so a rewrite
 * replaces and never duplicates. There are no FOREIGN KEY constraints, because DuckDB executes an
 * upsert of a referenced parent row as delete + insert and would refuse it.
 *
 * Over 300 lines: one constant per table, kept together so that the whole schema reads in one place.
 */

/**
 * The runs of pathlab's jobs: arguments without secrets, status, failures (a JSON array).
 * @example await connection.run(CREATE_RUNS);
 */
export const CREATE_RUNS = `
CREATE SEQUENCE run_ids START 1;
CREATE TABLE runs (
  id BIGINT PRIMARY KEY DEFAULT nextval('run_ids'),
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  command VARCHAR NOT NULL,
  args JSON NOT NULL,
  status VARCHAR NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed')),
  failures JSON NOT NULL
)`;

/**
 * One miner's path set for one prompt, keyed by (asset, miner_uid, start_time, time_increment,
 * time_length); its prices are in {@link CREATE_PATH_VALUES}.
 * @example await connection.run(CREATE_PATH_SETS);
 */
export const CREATE_PATH_SETS = `
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
)`;

/**
 * The prices of every path: one row per path, `prices[t + 1]` is point t (DuckDB lists are 1-based).
 * DOUBLE is IEEE 754 binary64, so the values read back bit-identical.
 * @example await connection.run(CREATE_PATH_VALUES);
 */
export const CREATE_PATH_VALUES = `
CREATE TABLE path_values (
  path_set_id BIGINT NOT NULL,
  path INTEGER NOT NULL,
  prices DOUBLE[] NOT NULL
)`;

/**
 * Every price as a row, for SQL: (path set, path, point, time, price).
 * @example await connection.run(CREATE_PATH_POINTS_VIEW);
 */
export const CREATE_PATH_POINTS_VIEW = `
CREATE VIEW path_points AS
SELECT
  s.id AS path_set_id, s.asset, s.miner_uid, s.start_time, s.time_increment, v.path,
  CAST(generate_subscripts(v.prices, 1) - 1 AS INTEGER) AS point,
  unnest(v.prices) AS price
FROM path_values v JOIN path_sets s ON s.id = v.path_set_id`;

/**
 * An insight record as the service reported it or as pathlab recomputed it, keyed by (operation,
 * asset, horizon, forecast_start_time, source).
 * @example await connection.run(CREATE_INSIGHTS);
 */
export const CREATE_INSIGHTS = `
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
)`;

/**
 * The numeric leaves of each insight record, for SQL: `field` is the record's property path
 * (`data.long_liquidation_probability`), `key` the coordinates within it (`5.0%/12`).
 * @example await connection.run(CREATE_INSIGHT_VALUES);
 */
export const CREATE_INSIGHT_VALUES = `
CREATE TABLE insight_values (
  insight_id BIGINT NOT NULL,
  field VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  value DOUBLE
)`;

/**
 * One row per number compared between the service's record and pathlab's recomputation, with the
 * tolerance used and the verdict. Natural key: (operation, asset, horizon, forecast_start_time,
 * field, key).
 * @example await connection.run(CREATE_CROSSCHECKS);
 */
export const CREATE_CROSSCHECKS = `
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
)`;

/**
 * Rows of a leaderboard or meta-leaderboard as fetched for a time (`as_of`), ranked as returned.
 * Natural key: (operation, prompt_name, days, as_of, neuron_uid); `days` is 0 for operations without.
 * @example await connection.run(CREATE_LEADERBOARD_ROWS);
 */
export const CREATE_LEADERBOARD_ROWS = `
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
)`;

/**
 * A venue market next to the service's model probability and pathlab's recomputed one: the venue's
 * probability, its order book (best bid and ask), the event window and the service's record.
 * Natural key: (operation, asset, forecast_start_time, slug, market); `market` tells apart the
 * buckets of one range-family event (their title), else it is the slug.
 * @example await connection.run(CREATE_VENUE_COMPARISONS);
 */
export const CREATE_VENUE_COMPARISONS = `
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
)`;

/**
 * The validator prompts a `score` run scored: one row per (asset, time_increment, time_length,
 * start_time), with the competition that pools it and the time it was scored (start + length).
 * @example await connection.run(CREATE_PROMPTS);
 */
export const CREATE_PROMPTS = `
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
)`;

/**
 * The realized path of a prompt as the service returned it: `prices[t + 1]` is grid point t, NULL
 * where the price is missing. Natural key: the prompt's.
 * @example await connection.run(CREATE_REALIZED_PRICES);
 */
export const CREATE_REALIZED_PRICES = `
CREATE TABLE realized_prices (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL,
  time_length INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  prices DOUBLE[] NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (asset, time_increment, time_length, start_time)
)`;

/**
 * The service's own score rows of a prompt (historical scores): raw CRPS (−1 invalid) and prompt
 * score per miner. Natural key: the prompt's and `miner_uid`.
 * @example await connection.run(CREATE_SERVICE_SCORES);
 */
export const CREATE_SERVICE_SCORES = `
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
)`;

/**
 * pathlab's scores of a prompt, per miner (`source` `network`) or candidate model (`source`
 * `candidate`, `miner_uid` −1): prompt CRPS (−1 invalid), the CRPS sum of each scoring interval
 * (JSON object), prompt score, the reason a path set was rejected, and the comparison with the
 * service's row. Natural key: the prompt's, `source` and `miner_uid`.
 * @example await connection.run(CREATE_MINER_SCORES);
 */
export const CREATE_MINER_SCORES = `
CREATE TABLE miner_scores (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL,
  time_length INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  source VARCHAR NOT NULL CHECK (source IN ('network', 'candidate')),
  miner_uid INTEGER NOT NULL,
  crps DOUBLE NOT NULL,
  intervals JSON NOT NULL,
  prompt_score DOUBLE,
  invalid_reason VARCHAR,
  service_crps DOUBLE,
  service_prompt_score DOUBLE,
  verdict VARCHAR NOT NULL,
  run_id BIGINT,
  PRIMARY KEY (asset, time_increment, time_length, start_time, source, miner_uid)
)`;

/**
 * Smoothed scores and reward weights of a competition at one time (`as_of`), recomputed by pathlab
 * next to the service's, with the verdict of each. Natural key: (competition, as_of, source,
 * miner_uid).
 * @example await connection.run(CREATE_SMOOTHED_SCORES);
 */
export const CREATE_SMOOTHED_SCORES = `
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
)`;

/**
 * Calibration of one path set on one prompt (see `promptCalibration`): PIT histogram counts,
 * central-interval levels with covered counts and width sums, and CRPS per step (basis points).
 * Natural key: the prompt's, `source` and `miner_uid`.
 * @example await connection.run(CREATE_CALIBRATION);
 */
export const CREATE_CALIBRATION = `
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
)`;
