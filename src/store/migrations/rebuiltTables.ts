/**
 * Tables that migrations rebuild (DuckDB cannot change a CHECK constraint in place): the migration
 * that creates one and the ones that rebuild it with more allowed values and columns write it
 * through one function here. Frozen with the migrations: each call gives the SQL its migration
 * shipped with (test/store/schema.test.ts checks where the migrations end).
 */

/**
 * `CREATE TABLE <table> (…)`: `columns` (each a column definition), then the `PRIMARY KEY` of
 * `key` when given, one a line.
 */
function createTable(table: string, columns: readonly string[], key?: readonly string[]): string {
  const lines = key === undefined ? columns : [...columns, `PRIMARY KEY (${key.join(", ")})`];
  return `CREATE TABLE ${table} (\n  ${lines.join(",\n  ")}\n)`;
}

/** `values` as the list of a SQL `IN`: `'a', 'b'`. */
function quotedList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(", ");
}

/**
 * `CREATE TABLE runs (…)` with the columns of migration 1, `status` limited to `statuses`, then
 * `extraColumns` (each a column definition).
 * @example createRunsTable(["running", "ok"]).includes("CHECK (status IN ('running', 'ok'))") // => true
 */
export function createRunsTable(
  statuses: readonly string[],
  extraColumns: readonly string[] = [],
): string {
  return createTable("runs", [
    "id BIGINT PRIMARY KEY DEFAULT nextval('run_ids')",
    "started_at TIMESTAMP NOT NULL",
    "finished_at TIMESTAMP",
    "command VARCHAR NOT NULL",
    "args JSON NOT NULL",
    `status VARCHAR NOT NULL CHECK (status IN (${quotedList(statuses)}))`,
    "failures JSON NOT NULL",
    ...extraColumns,
  ]);
}

/**
 * `CREATE TABLE miner_scores (…)` with the columns of migration 2, `source` limited to `sources`,
 * then `extraColumns` (each a column definition), keyed by prompt, source and miner.
 * @example createMinerScoresTable(["network", "candidate"]).startsWith("CREATE TABLE miner_scores") // => true
 */
export function createMinerScoresTable(
  sources: readonly string[],
  extraColumns: readonly string[] = [],
): string {
  return createTable(
    "miner_scores",
    [
      "asset VARCHAR NOT NULL",
      "time_increment INTEGER NOT NULL",
      "time_length INTEGER NOT NULL",
      "start_time TIMESTAMP NOT NULL",
      `source VARCHAR NOT NULL CHECK (source IN (${quotedList(sources)}))`,
      "miner_uid INTEGER NOT NULL",
      "crps DOUBLE NOT NULL",
      "intervals JSON NOT NULL",
      "prompt_score DOUBLE",
      "invalid_reason VARCHAR",
      "service_crps DOUBLE",
      "service_prompt_score DOUBLE",
      "verdict VARCHAR NOT NULL",
      "run_id BIGINT",
      ...extraColumns,
    ],
    ["asset", "time_increment", "time_length", "start_time", "source", "miner_uid"],
  );
}
