/**
 * The schema of the store: every table's current columns (name, type, constraints) and keys, and
 * the view over them. A new database is made from these (`SCHEMA_STATEMENTS`); a database of an
 * earlier version reaches the same shape through the migrations (`migrations.ts`), and
 * test/store/schema.test.ts checks both against this module, column by column.
 *
 * Times are `TIMESTAMP` in UTC. Natural keys are PRIMARY KEY or UNIQUE constraints on the tables
 * written row by row; the bulk child tables (`path_values`, `insight_values`, `crosschecks`) have no
 * index (DuckDB keeps ART indexes in memory, and these grow by thousands of rows per unit): their
 * writers delete the parent's rows and append the new ones in the same transaction, so a rewrite
 * replaces and never duplicates. There are no FOREIGN KEY constraints, because DuckDB executes an
 * upsert of a referenced parent row as delete + insert and would refuse it.
 *
 * Over 300 lines because it is one list with one entry per table, kept together so that the whole
 * schema reads in one place.
 */

import {
  tableStatements,
  viewStatement,
  type TableDefinition,
  type ViewDefinition,
} from "./tableDefinition.ts";

/** The columns of a prompt's natural key, first in every table keyed by prompt. */
const PROMPT_KEY = ["asset", "time_increment", "time_length", "start_time"] as const;

/**
 * Every table of pathlab's schema, in the order the schema creates them (the order `pathlab
 * export` writes them and `query --help` lists them).
 * @example TABLES.find((table) => table.name === "prompts")?.primaryKey // => ["asset", "time_increment", "time_length", "start_time"]
 */
export const TABLES: readonly TableDefinition[] = [
  {
    name: "runs",
    description:
      "The runs of pathlab's jobs: arguments without secrets, status, failures (a JSON array), and the process and machine that ran each (so that a later job can tell a dead run from a live one).",
    sequence: "run_ids",
    columns: [
      ["id", "BIGINT", "DEFAULT nextval('run_ids')"],
      ["started_at", "TIMESTAMP", "NOT NULL"],
      ["finished_at", "TIMESTAMP"],
      ["command", "VARCHAR", "NOT NULL"],
      ["args", "JSON", "NOT NULL"],
      [
        "status",
        "VARCHAR",
        "NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed', 'interrupted', 'abandoned'))",
      ],
      ["failures", "JSON", "NOT NULL"],
      ["pid", "INTEGER"],
      ["host", "VARCHAR"],
    ],
    primaryKey: ["id"],
  },
  {
    name: "path_sets",
    description:
      "One miner's path set for one prompt, keyed by (asset, miner_uid, start_time, time_increment, time_length); its prices are in `path_values`.",
    sequence: "path_set_ids",
    columns: [
      ["id", "BIGINT", "DEFAULT nextval('path_set_ids')"],
      ["asset", "VARCHAR", "NOT NULL"],
      ["miner_uid", "INTEGER", "NOT NULL"],
      ["start_time", "TIMESTAMP", "NOT NULL"],
      ["time_increment", "INTEGER", "NOT NULL CHECK (time_increment > 0)"],
      ["time_length", "INTEGER", "NOT NULL CHECK (time_length >= 0)"],
      ["n_paths", "INTEGER", "NOT NULL CHECK (n_paths >= 0)"],
      ["n_points", "INTEGER", "NOT NULL CHECK (n_points >= 1)"],
      ["source", "VARCHAR", "NOT NULL"],
      ["fetched_at", "TIMESTAMP", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: ["id"],
    unique: ["asset", "miner_uid", "start_time", "time_increment", "time_length"],
  },
  {
    name: "path_values",
    description:
      "The prices of every path: one row per path, `prices[t + 1]` is point t (DuckDB lists are 1-based). DOUBLE is IEEE 754 binary64, so the values read back bit-identical.",
    columns: [
      ["path_set_id", "BIGINT", "NOT NULL"],
      ["path", "INTEGER", "NOT NULL"],
      ["prices", "DOUBLE[]", "NOT NULL"],
    ],
  },
  {
    name: "insights",
    description:
      "An insight record as the service reported it or as pathlab recomputed it, keyed by (operation, asset, horizon, forecast_start_time, source).",
    sequence: "insight_ids",
    columns: [
      ["id", "BIGINT", "DEFAULT nextval('insight_ids')"],
      ["operation", "VARCHAR", "NOT NULL"],
      ["asset", "VARCHAR", "NOT NULL"],
      ["horizon", "VARCHAR", "NOT NULL CHECK (horizon IN ('1h', '24h'))"],
      ["forecast_start_time", "TIMESTAMP", "NOT NULL"],
      ["source", "VARCHAR", "NOT NULL CHECK (source IN ('service', 'recomputed'))"],
      ["record", "JSON", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: ["id"],
    unique: ["operation", "asset", "horizon", "forecast_start_time", "source"],
  },
  {
    name: "insight_values",
    description:
      "The numeric leaves of each insight record, for SQL: `field` is the record's property path (`data.long_liquidation_probability`), `key` the coordinates within it (`5.0%/12`).",
    columns: [
      ["insight_id", "BIGINT", "NOT NULL"],
      ["field", "VARCHAR", "NOT NULL"],
      ["key", "VARCHAR", "NOT NULL"],
      ["value", "DOUBLE"],
    ],
  },
  {
    name: "crosschecks",
    description:
      "One row per number compared between the service's record and pathlab's recomputation, with the tolerance used and the verdict. Natural key (no index): (operation, asset, horizon, forecast_start_time, field, key).",
    columns: [
      ["operation", "VARCHAR", "NOT NULL"],
      ["asset", "VARCHAR", "NOT NULL"],
      ["horizon", "VARCHAR", "NOT NULL CHECK (horizon IN ('1h', '24h'))"],
      ["forecast_start_time", "TIMESTAMP", "NOT NULL"],
      ["field", "VARCHAR", "NOT NULL"],
      ["key", "VARCHAR", "NOT NULL"],
      ["service_value", "DOUBLE"],
      ["recomputed_value", "DOUBLE"],
      ["difference", "DOUBLE"],
      ["tolerance", "DOUBLE"],
      ["verdict", "VARCHAR", "NOT NULL"],
      ["detail", "VARCHAR"],
      ["run_id", "BIGINT"],
    ],
  },
  {
    name: "leaderboard_rows",
    description:
      "Rows of a leaderboard or meta-leaderboard as fetched for a time (`as_of`), ranked as returned; `days` is 0 for operations without.",
    columns: [
      ["operation", "VARCHAR", "NOT NULL"],
      ["prompt_name", "VARCHAR", "NOT NULL"],
      ["days", "INTEGER", "NOT NULL"],
      ["as_of", "TIMESTAMP", "NOT NULL"],
      ["rank", "INTEGER", "NOT NULL"],
      ["neuron_uid", "INTEGER", "NOT NULL"],
      ["rewards", "DOUBLE", "NOT NULL"],
      ["updated_at", "TIMESTAMP"],
      ["coldkey", "VARCHAR"],
      ["ip_address", "VARCHAR"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: ["operation", "prompt_name", "days", "as_of", "neuron_uid"],
  },
  {
    name: "venue_comparisons",
    description:
      "A venue market next to the service's model probability and pathlab's recomputed one: the venue's probability, its order book (best bid and ask), the event window, the service's record, whether the current price already settles the market (`decided`) and the edge that survives the venue's spread, fee and rounding (`edge_side` `buy` or `sell` YES, `net_edge`; nulls: none, or not judged). The recomputed probability's standard errors are the Monte-Carlo one and the one between the pool's miners; `tradable` holds for a live market whose net edge exceeds twice both combined. `market` tells apart the buckets of one range-family event (their title), else it is the slug.",
    columns: [
      ["operation", "VARCHAR", "NOT NULL"],
      ["asset", "VARCHAR", "NOT NULL"],
      ["horizon", "VARCHAR", "NOT NULL CHECK (horizon IN ('1h', '24h'))"],
      ["forecast_start_time", "TIMESTAMP", "NOT NULL"],
      ["slug", "VARCHAR", "NOT NULL"],
      ["market", "VARCHAR", "NOT NULL"],
      ["kind", "VARCHAR", "NOT NULL CHECK (kind IN ('up-down', 'range', 'above', 'hit', 'below'))"],
      ["ref_prices", "DOUBLE[]"],
      ["event_start_time", "TIMESTAMP"],
      ["event_end_time", "TIMESTAMP", "NOT NULL"],
      ["observed_at", "TIMESTAMP", "NOT NULL"],
      ["current_price", "DOUBLE", "NOT NULL"],
      ["start_price", "DOUBLE"],
      ["service_probability", "DOUBLE", "NOT NULL"],
      ["recomputed_probability", "DOUBLE"],
      ["recomputed_standard_error", "DOUBLE"],
      ["venue_probability", "DOUBLE"],
      ["best_bid_price", "DOUBLE"],
      ["best_bid_size", "DOUBLE"],
      ["best_ask_price", "DOUBLE"],
      ["best_ask_size", "DOUBLE"],
      ["last_trade_price", "DOUBLE"],
      ["record", "JSON", "NOT NULL"],
      ["run_id", "BIGINT"],
      ["decided", "BOOLEAN"],
      ["edge_side", "VARCHAR"],
      ["net_edge", "DOUBLE"],
      ["between_miner_standard_error", "DOUBLE"],
      ["tradable", "BOOLEAN"],
    ],
    primaryKey: ["operation", "asset", "forecast_start_time", "slug", "market"],
  },
  {
    name: "prompts",
    description:
      "The validator prompts a `score` run scored, with the competition that pools each, the time it was scored (start + length) and the validator's rule for its prompt scores.",
    columns: [
      ["asset", "VARCHAR", "NOT NULL"],
      ["time_increment", "INTEGER", "NOT NULL CHECK (time_increment > 0)"],
      ["time_length", "INTEGER", "NOT NULL CHECK (time_length > 0)"],
      ["start_time", "TIMESTAMP", "NOT NULL"],
      ["competition", "VARCHAR", "NOT NULL"],
      ["scored_time", "TIMESTAMP", "NOT NULL"],
      ["score_rule", "VARCHAR", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: PROMPT_KEY,
  },
  {
    name: "realized_prices",
    description:
      "The realized path of a prompt as the service returned it: `prices[t + 1]` is grid point t, NULL where the price is missing.",
    columns: [
      ["asset", "VARCHAR", "NOT NULL"],
      ["time_increment", "INTEGER", "NOT NULL"],
      ["time_length", "INTEGER", "NOT NULL"],
      ["start_time", "TIMESTAMP", "NOT NULL"],
      ["prices", "DOUBLE[]", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: PROMPT_KEY,
  },
  {
    name: "service_scores",
    description:
      "The service's own score rows of a prompt (historical scores): raw CRPS (−1 invalid) and prompt score per miner.",
    columns: [
      ["asset", "VARCHAR", "NOT NULL"],
      ["time_increment", "INTEGER", "NOT NULL"],
      ["time_length", "INTEGER", "NOT NULL"],
      ["start_time", "TIMESTAMP", "NOT NULL"],
      ["miner_uid", "INTEGER", "NOT NULL"],
      ["crps", "DOUBLE", "NOT NULL"],
      ["prompt_score", "DOUBLE", "NOT NULL"],
      ["scored_time", "TIMESTAMP", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: [...PROMPT_KEY, "miner_uid"],
  },
  {
    name: "miner_scores",
    description:
      "pathlab's scores of a prompt, per miner (`source` `network`: recomputed from its path set; `service`: its path set was not available and the CRPS is the service's) or candidate model (`candidate`, `miner_uid` −1): prompt CRPS (−1 invalid) and its price and volatility parts, the CRPS sum of each scoring interval (JSON object), prompt score, the reason a path set was rejected, the comparison with the service's row, and the uid's holder when the prompt was asked (`hotkey`; NULL when held since before the holder history pathlab read).",
    columns: [
      ["asset", "VARCHAR", "NOT NULL"],
      ["time_increment", "INTEGER", "NOT NULL"],
      ["time_length", "INTEGER", "NOT NULL"],
      ["start_time", "TIMESTAMP", "NOT NULL"],
      ["source", "VARCHAR", "NOT NULL CHECK (source IN ('network', 'service', 'candidate'))"],
      ["miner_uid", "INTEGER", "NOT NULL"],
      ["crps", "DOUBLE", "NOT NULL"],
      ["intervals", "JSON", "NOT NULL"],
      ["prompt_score", "DOUBLE"],
      ["invalid_reason", "VARCHAR"],
      ["service_crps", "DOUBLE"],
      ["service_prompt_score", "DOUBLE"],
      ["verdict", "VARCHAR", "NOT NULL"],
      ["run_id", "BIGINT"],
      ["hotkey", "VARCHAR"],
      ["price_crps", "DOUBLE"],
      ["volatility_crps", "DOUBLE"],
    ],
    primaryKey: [...PROMPT_KEY, "source", "miner_uid"],
  },
  {
    name: "smoothed_scores",
    description:
      "Smoothed scores and reward weights of a competition at one time (`as_of`), recomputed by pathlab next to the service's, with the verdict of each and the uid's holder at that time.",
    columns: [
      ["competition", "VARCHAR", "NOT NULL"],
      ["as_of", "TIMESTAMP", "NOT NULL"],
      ["source", "VARCHAR", "NOT NULL CHECK (source IN ('network', 'candidate'))"],
      ["miner_uid", "INTEGER", "NOT NULL"],
      ["smoothed_score", "DOUBLE"],
      ["reward_weight", "DOUBLE"],
      ["service_smoothed_score", "DOUBLE"],
      ["service_reward_weight", "DOUBLE"],
      ["verdict", "VARCHAR", "NOT NULL"],
      ["run_id", "BIGINT"],
      ["hotkey", "VARCHAR"],
    ],
    primaryKey: ["competition", "as_of", "source", "miner_uid"],
  },
  {
    name: "calibration",
    description:
      "Calibration of one path set on one prompt: PIT histogram counts, central-interval levels with covered counts and width sums, and CRPS per step (basis points).",
    columns: [
      ["asset", "VARCHAR", "NOT NULL"],
      ["time_increment", "INTEGER", "NOT NULL"],
      ["time_length", "INTEGER", "NOT NULL"],
      ["start_time", "TIMESTAMP", "NOT NULL"],
      ["source", "VARCHAR", "NOT NULL CHECK (source IN ('network', 'candidate'))"],
      ["miner_uid", "INTEGER", "NOT NULL"],
      ["horizon", "VARCHAR", "NOT NULL"],
      ["n_paths", "INTEGER", "NOT NULL"],
      ["observed_points", "INTEGER", "NOT NULL"],
      ["pit_counts", "DOUBLE[]", "NOT NULL"],
      ["levels", "DOUBLE[]", "NOT NULL"],
      ["covered_counts", "DOUBLE[]", "NOT NULL"],
      ["width_sums", "DOUBLE[]", "NOT NULL"],
      ["relative_width_sums_bps", "DOUBLE[]", "NOT NULL"],
      ["step_crps_bps", "DOUBLE[]", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: [...PROMPT_KEY, "source", "miner_uid"],
  },
  {
    name: "rank_history",
    description:
      "Every miner's and the candidate's smoothed score, reward weight and rank at every validator update of a scored range; `window_in_range` is false for an update whose window reaches before the range (its smoothed scores then pool only the range's prompts).",
    columns: [
      ["competition", "VARCHAR", "NOT NULL"],
      ["updated_at", "TIMESTAMP", "NOT NULL"],
      ["source", "VARCHAR", "NOT NULL CHECK (source IN ('network', 'candidate'))"],
      ["miner_uid", "INTEGER", "NOT NULL"],
      ["hotkey", "VARCHAR"],
      ["rank", "INTEGER", "NOT NULL"],
      ["of_miners", "INTEGER", "NOT NULL"],
      ["smoothed_score", "DOUBLE", "NOT NULL"],
      ["reward_weight", "DOUBLE", "NOT NULL"],
      ["window_in_range", "BOOLEAN", "NOT NULL"],
      ["run_id", "BIGINT"],
    ],
    primaryKey: ["competition", "updated_at", "source", "miner_uid"],
  },
  {
    name: "audit_findings",
    description:
      "Each violation `pathlab audit` found, with its run, asset and snapshot (its forecast start, when known).",
    columns: [
      ["run_id", "BIGINT", "NOT NULL"],
      ["asset", "VARCHAR", "NOT NULL"],
      ["forecast_start_time", "TIMESTAMP"],
      ["operation", "VARCHAR", "NOT NULL"],
      ["field", "VARCHAR", "NOT NULL"],
      ["check_name", "VARCHAR", "NOT NULL"],
      ["size", "DOUBLE", "NOT NULL"],
      ["tolerance", "DOUBLE", "NOT NULL"],
      ["detail", "VARCHAR", "NOT NULL"],
    ],
  },
];

/**
 * The views of pathlab's schema, made after its tables.
 * @example VIEWS.map((view) => view.name) // => ["path_points"]
 */
export const VIEWS: readonly ViewDefinition[] = [
  {
    name: "path_points",
    description: "Every price as a row, for SQL: (path set, path, point, time, price).",
    select: `
SELECT
  s.id AS path_set_id, s.asset, s.miner_uid, s.start_time, s.time_increment, v.path,
  CAST(generate_subscripts(v.prices, 1) - 1 AS INTEGER) AS point,
  unnest(v.prices) AS price
FROM path_values v JOIN path_sets s ON s.id = v.path_set_id`,
  },
];

/**
 * The table in which `migrate` records which migrations a database has applied: bookkeeping
 * beside the schema, not one of its {@link TABLES}.
 * @example SCHEMA_MIGRATIONS_TABLE.name // => "schema_migrations"
 */
export const SCHEMA_MIGRATIONS_TABLE: TableDefinition = {
  name: "schema_migrations",
  columns: [
    ["version", "INTEGER"],
    ["name", "VARCHAR", "NOT NULL"],
    ["applied_at", "TIMESTAMP", "NOT NULL"],
  ],
  primaryKey: ["version"],
};

/**
 * The statements that make the schema in a new database: each table (with its sequence), then
 * each view.
 * @example SCHEMA_STATEMENTS[0] // => "CREATE SEQUENCE run_ids START 1"
 */
export const SCHEMA_STATEMENTS: readonly string[] = [
  ...TABLES.flatMap((table) => tableStatements(table)),
  ...VIEWS.map(viewStatement),
];

/**
 * The definition of the table `name` (of {@link TABLES} or the bookkeeping table); throws a
 * RangeError naming the tables for any other name.
 * @example tableDefinition("prompts").columns.length // => 8
 */
export function tableDefinition(name: string): TableDefinition {
  const table = [...TABLES, SCHEMA_MIGRATIONS_TABLE].find((candidate) => candidate.name === name);
  if (table === undefined) {
    throw new RangeError(
      `tableDefinition requires a table of the schema (${TABLES.map((known) => known.name).join(", ")}), got ${JSON.stringify(name)}`,
    );
  }
  return table;
}
