/**
 * The read-only SQL of the questions asked of a store most often (`pathlab mcp` answers its tools
 * with them): its tables and columns, an asset's latest insight beside pathlab's recompute, the
 * cross-check's verdicts counted, the venue markets not yet decided, and the leaderboard at a time.
 * Each is one statement that only reads, so that it runs through `pathlab query`'s read-only path.
 */

import { isoSeconds } from "../domain/time.ts";
import { TABLES, VIEWS } from "./schema.ts";
import { sqlStringLiteral } from "./sqlText.ts";

/** ` AND column = 'value'` when `value` is given, else nothing. */
function where(column: string, value: string | undefined): string {
  return value === undefined ? "" : ` AND ${column} = ${sqlStringLiteral(value)}`;
}

/** Each table's and view's description, as `schema.ts` states it. */
const DESCRIPTIONS = new Map(
  [...TABLES, ...VIEWS].map((table) => [table.name, table.description ?? ""]),
);

/**
 * Every table and view with its columns, or only `name`'s. It names no table but `name`, so that a
 * lake copies none but that one to answer it.
 * @example tablesSql("runs") // one row: runs and its columns
 */
export function tablesSql(name?: string): string {
  return (
    "SELECT table_name AS name, list(column_name || ' ' || data_type ORDER BY column_index) AS columns " +
    `FROM duckdb_columns() WHERE NOT internal AND table_name <> 'schema_migrations'${where("table_name", name)} ` +
    "GROUP BY table_name ORDER BY table_name"
  );
}

/**
 * The rows of {@link tablesSql} with each table's description beside its name.
 * @example describeTables([{ name: "runs", columns: [] }])[0].description // => "The runs of pathlab's jobs: …"
 */
export function describeTables(
  rows: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  return rows.map(({ name, ...rest }) => ({
    name,
    description: DESCRIPTIONS.get(String(name)) ?? "",
    ...rest,
  }));
}

/**
 * One asset's latest record of one insight operation (each horizon's latest forecast start, or
 * only `horizon`'s), the service's and pathlab's, with the cross-check's verdicts counted and each
 * leaf that is a mismatch or missing on one side.
 * @example latestInsightSql({ asset: "BTC", operation: "/insights/liquidation", horizon: "24h" })
 */
export function latestInsightSql(question: {
  readonly asset: string;
  readonly operation: string;
  readonly horizon?: string;
}): string {
  const same =
    "c.operation = l.operation AND c.asset = l.asset AND c.horizon = l.horizon " +
    "AND c.forecast_start_time = l.forecast_start_time";
  return (
    "WITH l AS (SELECT operation, asset, horizon, forecast_start_time, source, record FROM insights " +
    `WHERE asset = ${sqlStringLiteral(question.asset)} AND operation = ${sqlStringLiteral(question.operation)}` +
    `${where("horizon", question.horizon)} ` +
    "QUALIFY forecast_start_time = max(forecast_start_time) OVER (PARTITION BY horizon)) " +
    "SELECT l.*, " +
    `(SELECT to_json(histogram(c.verdict)) FROM crosschecks c WHERE ${same}) AS verdicts, ` +
    "(SELECT to_json(list({field: c.field, key: c.key, service_value: c.service_value, " +
    "recomputed_value: c.recomputed_value, tolerance: c.tolerance, verdict: c.verdict} ORDER BY c.field, c.key)) " +
    `FROM crosschecks c WHERE ${same} AND c.verdict IN ('mismatch', 'missing')) AS disagreements ` +
    "FROM l ORDER BY horizon, source"
  );
}

/**
 * The cross-check's verdicts counted per operation, asset and horizon (of one asset when given),
 * with the largest difference.
 * @example verdictCountsSql({ asset: "ETH" })
 */
export function verdictCountsSql(question: { readonly asset?: string }): string {
  return (
    "SELECT operation, asset, horizon, verdict, count(*) AS n, max(abs(difference)) AS largest_difference " +
    `FROM crosschecks WHERE true${where("asset", question.asset)} GROUP BY ALL ORDER BY ALL`
  );
}

/**
 * The venue markets not yet decided (of one asset when given): tradable first, then by net edge.
 * @example openEdgesSql({})
 */
export function openEdgesSql(question: { readonly asset?: string }): string {
  return (
    "SELECT asset, horizon, market, kind, slug, recomputed_probability, recomputed_standard_error, " +
    "between_miner_standard_error, venue_probability, service_probability, edge_side, net_edge, tradable " +
    `FROM venue_comparisons WHERE NOT coalesce(decided, false)${where("asset", question.asset)} ` +
    "ORDER BY coalesce(tradable, false) DESC, net_edge DESC NULLS LAST"
  );
}

/**
 * Each competition's (or only `competition`'s) miners by reward weight at the latest time a score
 * run recomputed them, or the latest at or before `atUnix` (Unix seconds).
 * @example leaderboardSql({ competition: "crypto-24h", atUnix: 1772064000 })
 */
export function leaderboardSql(question: {
  readonly competition?: string;
  readonly atUnix?: number;
}): string {
  const at = question.atUnix;
  return (
    "SELECT competition, as_of, source, miner_uid, smoothed_score, reward_weight, service_smoothed_score, " +
    `service_reward_weight, verdict FROM smoothed_scores WHERE true${where("competition", question.competition)}` +
    `${at === undefined ? "" : ` AND as_of <= TIMESTAMP '${isoSeconds(at)}'`} ` +
    "QUALIFY as_of = max(as_of) OVER (PARTITION BY competition) " +
    "ORDER BY competition, reward_weight DESC NULLS LAST, miner_uid"
  );
}
