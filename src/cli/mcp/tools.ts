/**
 * The tools of `pathlab mcp`: each one a name, what it is for, the JSON Schema of its arguments,
 * and the read-only SQL it answers with, on the store the server was started on. Every tool reads
 * through `pathlab query`'s own path (a sealed read-only copy, DuckDB's refusals), so a tool can
 * neither write nor reach outside the store, and its rows are capped.
 */

/**
 * One tool: its description and arguments as an MCP client lists them, and the SQL it runs.
 * @example const edges = MCP_TOOLS.find((tool) => tool.name === "edges");
 */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of its arguments (an object). */
  readonly inputSchema: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, unknown>>;
    readonly required?: readonly string[];
  };
  /** The SQL for `args` (already checked against `inputSchema` by the server). */
  readonly sql: (args: Readonly<Record<string, unknown>>) => string;
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

/** ` AND column = 'value'` when `value` is given, else nothing. */
function where(column: string, value: unknown): string {
  return value === undefined ? "" : ` AND ${column} = ${literal(value)}`;
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
      "The store's tables and views with their columns and types, as the database holds them.",
    inputSchema: { type: "object", properties: {} },
    sql: () =>
      "SELECT table_name AS name, list(column_name || ' ' || data_type ORDER BY column_index) AS columns " +
      "FROM duckdb_columns() WHERE NOT internal AND table_name <> 'schema_migrations' " +
      "GROUP BY table_name ORDER BY table_name",
  },
  {
    name: "insight",
    description:
      "One asset's latest insight of one operation: the service's record beside pathlab's recompute from the same paths.",
    inputSchema: {
      type: "object",
      properties: {
        asset: { type: "string", description: "e.g. BTC" },
        operation: { type: "string", description: "e.g. /insights/liquidation" },
        horizon: { type: "string", enum: ["1h", "24h"] },
      },
      required: ["asset", "operation"],
    },
    sql: (args) =>
      "SELECT operation, asset, horizon, forecast_start_time, source, record FROM insights " +
      `WHERE asset = ${literal(args.asset)} AND operation = ${literal(args.operation)}${where("horizon", args.horizon)} ` +
      "QUALIFY forecast_start_time = max(forecast_start_time) OVER (PARTITION BY horizon) " +
      "ORDER BY horizon, source",
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
      "Miners ranked by smoothed score at the latest time a score run recomputed, beside the service's smoothed score and reward weight.",
    inputSchema: {
      type: "object",
      properties: {
        competition: { type: "string", description: "e.g. crypto-24h (default every one)" },
        limit: LIMIT,
      },
    },
    sql: (args) =>
      "SELECT competition, as_of, source, miner_uid, smoothed_score, reward_weight, service_smoothed_score, " +
      `service_reward_weight, verdict FROM smoothed_scores WHERE true${where("competition", args.competition)} ` +
      "QUALIFY as_of = max(as_of) OVER (PARTITION BY competition) " +
      "ORDER BY competition, reward_weight DESC NULLS LAST, miner_uid",
  },
];
