/**
 * Migration 4, "score sources and rank history": what the score job stores once it benchmarks
 * miners as the live network does (DOMAIN.md §3b).
 * - `miner_scores.source` may be `service`: a miner whose path set was not available (not served,
 *   not readable, past retention, or `--own-only`) takes the service's CRPS. DuckDB cannot change a
 *   CHECK constraint in place, so the table is rebuilt through a temporary copy, keeping its rows.
 *   It gains `hotkey` (the uid's holder when the prompt was asked; NULL when held since before
 *   the holder history pathlab read) and the price and volatility parts of the CRPS.
 * - `smoothed_scores` gains `hotkey`.
 * - `rank_history`: every miner's and the candidate's smoothed score, reward weight and rank at
 *   every validator update of a scored range; `window_in_range` is false for an update whose
 *   window reaches before the range (its smoothed scores then pool only the range's prompts).
 */

/**
 * The statements of migration 4, in order.
 * @example for (const statement of SCORING_V4) await connection.run(statement);
 */
export const SCORING_V4: readonly string[] = [
  "CREATE TEMP TABLE miner_scores_before_v4 AS SELECT * FROM miner_scores",
  "DROP TABLE miner_scores",
  `CREATE TABLE miner_scores (
  asset VARCHAR NOT NULL,
  time_increment INTEGER NOT NULL,
  time_length INTEGER NOT NULL,
  start_time TIMESTAMP NOT NULL,
  source VARCHAR NOT NULL CHECK (source IN ('network', 'service', 'candidate')),
  miner_uid INTEGER NOT NULL,
  crps DOUBLE NOT NULL,
  intervals JSON NOT NULL,
  prompt_score DOUBLE,
  invalid_reason VARCHAR,
  service_crps DOUBLE,
  service_prompt_score DOUBLE,
  verdict VARCHAR NOT NULL,
  run_id BIGINT,
  hotkey VARCHAR,
  price_crps DOUBLE,
  volatility_crps DOUBLE,
  PRIMARY KEY (asset, time_increment, time_length, start_time, source, miner_uid)
)`,
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
];

/**
 * Migration 5, "abandoned runs": `runs.status` may be `abandoned` (a run whose process ended
 * without finishing it: SIGKILL, a crash, a power cut), and each run records the process (`pid`)
 * and machine (`host`) that ran it, so that a later job can tell a dead run from a live one. The
 * table is rebuilt as in migration 3, keeping every row, its id and the id sequence.
 * @example for (const statement of RUNS_V5) await connection.run(statement);
 */
export const RUNS_V5: readonly string[] = [
  "CREATE TEMP TABLE runs_before_v5 AS SELECT * FROM runs",
  "DROP TABLE runs",
  `CREATE TABLE runs (
  id BIGINT PRIMARY KEY DEFAULT nextval('run_ids'),
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  command VARCHAR NOT NULL,
  args JSON NOT NULL,
  status VARCHAR NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed', 'interrupted', 'abandoned')),
  failures JSON NOT NULL,
  pid INTEGER,
  host VARCHAR
)`,
  `INSERT INTO runs (id, started_at, finished_at, command, args, status, failures)
SELECT id, started_at, finished_at, command, args, status, failures FROM runs_before_v5`,
  "DROP TABLE runs_before_v5",
];
