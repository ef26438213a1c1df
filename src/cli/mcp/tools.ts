/**
 * The tools of `pathlab mcp`: each one a name, what it is for, the JSON Schema of its arguments,
 * and the read-only SQL it answers with, on the store the server was started on. Every tool reads
 * through `pathlab query`'s own path (a sealed read-only copy, DuckDB's refusals), so a tool can
 * neither write nor reach outside the store, and its rows are capped.
 */

import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import { TABLES, VIEWS } from "../../store/schema.ts";

/**
 * A tool as an MCP client lists it: its name, what it is for, and its arguments.
 * @example const declaration: McpToolDeclaration = { name: "tables", description: "…", inputSchema: { type: "object", properties: {} } };
 */
export interface McpToolDeclaration {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of its arguments (an object). */
  readonly inputSchema: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, unknown>>;
    readonly required?: readonly string[];
  };
}

/**
 * One SQL tool: its declaration, and the SQL it runs.
 * @example const edges = MCP_TOOLS.find((tool) => tool.name === "edges");
 */
export interface McpTool extends McpToolDeclaration {
  /** The SQL for `args` (already checked against `inputSchema` by the server). */
  readonly sql: (args: Readonly<Record<string, unknown>>) => string;
  /** What the answer's rows become (default: as SQL gives them). */
  readonly rows?: (rows: readonly Record<string, unknown>[]) => Record<string, unknown>[];
}

/** How many rows a tool gives when the call names no `limit`, and the most a call may ask. */
export const MCP_DEFAULT_ROWS = 200;
export const MCP_MAX_ROWS = 10_000;

const LIMIT = {
  type: "integer",
  minimum: 1,
  maximum: MCP_MAX_ROWS,
  description: `rows at most (default ${MCP_DEFAULT_ROWS}); the result says how many were left out`,
} as const;

/** `value` as a SQL string literal. */
function literal(value: unknown): string {
  return `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * `value` (ISO 8601, any offset) as a SQL TIMESTAMP in UTC, the store's times; throws naming the
 * tool and argument when it is not a time.
 */
function utcTimestamp(tool: string, name: string, value: unknown): string {
  const ms = parseIsoTimeMs(String(value));
  if (!Number.isFinite(ms)) {
    throw new Error(
      `${tool}: ${name}: expected an ISO 8601 time such as 2026-11-21T08:00:00Z, got ${JSON.stringify(value)}`,
    );
  }
  return `TIMESTAMP '${isoSeconds(ms / 1000)}'`;
}

/** ` AND column = 'value'` when `value` is given, else nothing. */
function where(column: string, value: unknown): string {
  return value === undefined ? "" : ` AND ${column} = ${literal(value)}`;
}

/** Each table's and view's description, as `store/schema.ts` states it. */
const DESCRIPTIONS = new Map(
  [...TABLES, ...VIEWS].map((table) => [table.name, table.description ?? ""]),
);

/**
 * The SQL of the tables tool: every table and view with its columns, or only `name`'s. It names
 * no table but `name`, so that a lake copies none but that one to answer it.
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
 * The tools, in the order a client lists them.
 * @example MCP_TOOLS.map((tool) => tool.name) // => ["query", "tables", "insight", "crosschecks", "edges", "leaderboard"]
 */
export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: "query",
    description:
      "Read-only SQL (DuckDB) on the pathlab store: SELECT, WITH, DESCRIBE, SUMMARIZE, EXPLAIN. A write, an attach, a file or a setting is refused. Read the tables tool or the pathlab://schema resource first.",
    inputSchema: {
      type: "object",
      properties: { sql: { type: "string", description: "the SQL to run" }, limit: LIMIT },
      required: ["sql"],
    },
    sql: (args) => String(args.sql),
  },
  {
    name: "tables",
    description:
      "The store's tables and views: what a row of each holds, and its columns and types as the database holds them.",
    inputSchema: { type: "object", properties: {} },
    sql: () => tablesSql(),
    rows: describeTables,
  },
  {
    name: "insight",
    description:
      "One asset's latest insight of one operation: the service's record beside pathlab's recompute from the same paths, with the cross-check's verdicts counted (verdicts) and each leaf that is a mismatch or missing on one side (disagreements).",
    inputSchema: {
      type: "object",
      properties: {
        asset: { type: "string", description: "e.g. BTC" },
        operation: { type: "string", description: "e.g. /insights/liquidation" },
        horizon: { type: "string", enum: ["1h", "24h"] },
      },
      required: ["asset", "operation"],
    },
    sql: (args) => {
      const same =
        "c.operation = l.operation AND c.asset = l.asset AND c.horizon = l.horizon " +
        "AND c.forecast_start_time = l.forecast_start_time";
      return (
        "WITH l AS (SELECT operation, asset, horizon, forecast_start_time, source, record FROM insights " +
        `WHERE asset = ${literal(args.asset)} AND operation = ${literal(args.operation)}${where("horizon", args.horizon)} ` +
        "QUALIFY forecast_start_time = max(forecast_start_time) OVER (PARTITION BY horizon)) " +
        "SELECT l.*, " +
        `(SELECT to_json(histogram(c.verdict)) FROM crosschecks c WHERE ${same}) AS verdicts, ` +
        "(SELECT to_json(list({field: c.field, key: c.key, service_value: c.service_value, " +
        "recomputed_value: c.recomputed_value, tolerance: c.tolerance, verdict: c.verdict} ORDER BY c.field, c.key)) " +
        `FROM crosschecks c WHERE ${same} AND c.verdict IN ('mismatch', 'missing')) AS disagreements ` +
        "FROM l ORDER BY horizon, source"
      );
    },
  },
  {
    name: "crosschecks",
    description:
      "How pathlab's recompute agrees with the service: verdicts counted per operation, asset and horizon, with the largest difference.",
    inputSchema: {
      type: "object",
      properties: { asset: { type: "string", description: "only this asset" }, limit: LIMIT },
    },
    sql: (args) =>
      "SELECT operation, asset, horizon, verdict, count(*) AS n, max(abs(difference)) AS largest_difference " +
      `FROM crosschecks WHERE true${where("asset", args.asset)} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: "edges",
    description:
      "Venue markets not yet decided, tradable first, then by the net edge of the model's probability over the venue's (after fee, spread and rounding), with the standard errors of the model's probability (Monte-Carlo, and between the pool's miners). Tradable: the net edge exceeds twice both standard errors combined.",
    inputSchema: {
      type: "object",
      properties: { asset: { type: "string", description: "only this asset" }, limit: LIMIT },
    },
    sql: (args) =>
      "SELECT asset, horizon, market, kind, slug, recomputed_probability, recomputed_standard_error, " +
      "between_miner_standard_error, venue_probability, service_probability, edge_side, net_edge, tradable " +
      `FROM venue_comparisons WHERE NOT coalesce(decided, false)${where("asset", args.asset)} ` +
      "ORDER BY coalesce(tradable, false) DESC, net_edge DESC NULLS LAST",
  },
  {
    name: "leaderboard",
    description:
      "Miners ranked by reward weight (from their smoothed scores) at the latest time a score run recomputed them, or the latest at or before `at`, beside the service's smoothed score and reward weight and the verdict of their agreement.",
    inputSchema: {
      type: "object",
      properties: {
        competition: { type: "string", description: "e.g. crypto-24h (default every one)" },
        at: {
          type: "string",
          description: "ISO 8601: the ranking in force then (default the latest)",
        },
        limit: LIMIT,
      },
    },
    sql: (args) =>
      "SELECT competition, as_of, source, miner_uid, smoothed_score, reward_weight, service_smoothed_score, " +
      `service_reward_weight, verdict FROM smoothed_scores WHERE true${where("competition", args.competition)}` +
      `${args.at === undefined ? "" : ` AND as_of <= ${utcTimestamp("leaderboard", "at", args.at)}`} ` +
      "QUALIFY as_of = max(as_of) OVER (PARTITION BY competition) " +
      "ORDER BY competition, reward_weight DESC NULLS LAST, miner_uid",
  },
];
