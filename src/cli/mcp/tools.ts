/**
 * The tools of `pathlab mcp`: each one a name, what it is for, the JSON Schema of its arguments,
 * and the read-only SQL it answers with (`store/storeQuestions.ts`; `query` runs the caller's), on
 * the store the server was started on. Every tool reads through `pathlab query`'s own path (a
 * sealed read-only copy, DuckDB's refusals), so a tool can neither write nor reach outside the
 * store, and its rows are capped.
 */

import { parseIsoTimeMs } from "../../domain/time.ts";
import {
  describeTables,
  latestInsightSql,
  leaderboardSql,
  openEdgesSql,
  tablesSql,
  verdictCountsSql,
} from "../../store/storeQuestions.ts";

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

/** The string argument `name` of a call, when given (the server checked its type). */
function text(args: Readonly<Record<string, unknown>>, name: string): string | undefined {
  return args[name] === undefined ? undefined : String(args[name]);
}

/**
 * `value` (ISO 8601, any offset) as Unix seconds; throws naming the tool and argument when it is
 * not a time.
 */
function unixSeconds(tool: string, name: string, value: unknown): number {
  const ms = parseIsoTimeMs(String(value));
  if (!Number.isFinite(ms)) {
    throw new Error(
      `${tool}: ${name}: expected an ISO 8601 time such as 2026-11-21T08:00:00Z, got ${JSON.stringify(value)}`,
    );
  }
  return ms / 1000;
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
    sql: (args) =>
      latestInsightSql({
        asset: String(args.asset),
        operation: String(args.operation),
        horizon: text(args, "horizon"),
      }),
  },
  {
    name: "crosschecks",
    description:
      "How pathlab's recompute agrees with the service: verdicts counted per operation, asset and horizon, with the largest difference.",
    inputSchema: {
      type: "object",
      properties: { asset: { type: "string", description: "only this asset" }, limit: LIMIT },
    },
    sql: (args) => verdictCountsSql({ asset: text(args, "asset") }),
  },
  {
    name: "edges",
    description:
      "Venue markets not yet decided, tradable first, then by the net edge of the model's probability over the venue's (after fee, spread and rounding), with the standard errors of the model's probability (Monte-Carlo, and between the pool's miners). Tradable: the net edge exceeds twice both standard errors combined.",
    inputSchema: {
      type: "object",
      properties: { asset: { type: "string", description: "only this asset" }, limit: LIMIT },
    },
    sql: (args) => openEdgesSql({ asset: text(args, "asset") }),
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
      leaderboardSql({
        competition: text(args, "competition"),
        atUnix: args.at === undefined ? undefined : unixSeconds("leaderboard", "at", args.at),
      }),
  },
];
