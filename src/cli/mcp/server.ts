/**
 * `pathlab mcp`: a Model Context Protocol server on stdio (the official SDK's low-level `Server`),
 * whose tools ({@link MCP_TOOLS}) and resources read the store it was started on, read-only. A tool
 * that fails answers a tool error with the message `pathlab query` would print, and the server
 * keeps serving. stdout carries the protocol alone.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { streamRows } from "../../store/queryRows.ts";
import { openQuerySource, queryError } from "../queryRun.ts";
import { MCP_DEFAULT_ROWS, MCP_MAX_ROWS, MCP_TOOLS, type McpTool } from "./tools.ts";

/**
 * Where the server reads: a database file, or a lake (which wins).
 * @example const source: McpSource = { db: "./pathlab.duckdb" };
 */
export interface McpSource {
  readonly db: string;
  readonly lake?: string;
}

/**
 * What a tool answers: the columns, the rows (objects keyed by column), and how many rows the cap
 * left out.
 * @example const answer: McpRows = { columns: ["n"], rows: [{ n: 1 }], leftOut: 0 };
 */
export interface McpRows {
  readonly columns: readonly string[];
  readonly rows: readonly Record<string, unknown>[];
  readonly leftOut: number;
}

const SCHEMA_URI = "pathlab://schema";

/**
 * Runs `sql` on `source` through `pathlab query`'s path, and reads at most `limit` rows: the rest
 * are counted, not converted.
 * @param source - the store to read.
 * @param sql - the SQL (read-only statements only).
 * @param limit - the most rows to give.
 * @example const { rows, leftOut } = await readRows({ db }, "select * from runs", 100);
 */
export async function readRows(source: McpSource, sql: string, limit: number): Promise<McpRows> {
  let store;
  try {
    store = await openQuerySource(source, sql);
  } catch (error) {
    throw queryError(error);
  }
  try {
    return await streamRows(store, sql, async (stream) => {
      const rows: Record<string, unknown>[] = [];
      for (let chunk = await stream.nextRows(); chunk !== null; chunk = await stream.nextRows()) {
        const kept = chunk.slice(0, limit - rows.length);
        for (const row of kept) {
          rows.push(
            Object.fromEntries(stream.columns.map((column, index) => [column, row[index]])),
          );
        }
        if (kept.length < chunk.length) {
          const rest = chunk.length - kept.length + (await stream.skipRows());
          return { columns: stream.columns, rows, leftOut: rest };
        }
      }
      return { columns: stream.columns, rows, leftOut: 0 };
    });
  } catch (error) {
    throw queryError(error);
  } finally {
    await store.close();
  }
}

/** The arguments' mistakes against the tool's schema, as one line; undefined when there is none. */
function argumentError(tool: McpTool, args: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of tool.inputSchema.required ?? []) {
    if (typeof args[name] !== "string" || args[name] === "") {
      return `${tool.name}: ${name} must be a non-empty string`;
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const schema = tool.inputSchema.properties[name] as { type?: string } | undefined;
    if (schema === undefined) return `${tool.name}: no argument ${name}`;
    if (schema.type === "string" && typeof value !== "string") {
      return `${tool.name}: ${name} must be a string`;
    }
    if (
      name === "limit" &&
      !(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MCP_MAX_ROWS)
    ) {
      return `${tool.name}: limit must be a whole number from 1 to ${MCP_MAX_ROWS}, got ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

/** A tool's failure, as the client shows it: the message, and the server goes on. */
function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * Answers one tool call: its rows, or a tool error.
 * @param source - the store to read.
 * @param name - the tool's name.
 * @param args - its arguments.
 * @example const result = await callTool({ db }, "edges", { asset: "BTC" });
 */
export async function callTool(
  source: McpSource,
  name: string,
  args: Readonly<Record<string, unknown>>,
): Promise<CallToolResult> {
  const tool = MCP_TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined)
    return toolError(
      `no tool ${name}: pathlab mcp has ${MCP_TOOLS.map((known) => known.name).join(", ")}`,
    );
  const mistake = argumentError(tool, args);
  if (mistake !== undefined) return toolError(mistake);
  const limit = typeof args.limit === "number" ? args.limit : MCP_DEFAULT_ROWS;
  try {
    const answer = await readRows(source, tool.sql(args), limit);
    const note =
      answer.leftOut === 0 ? "" : `\n${answer.leftOut} more rows left out (limit ${limit})`;
    return {
      content: [{ type: "text", text: `${JSON.stringify(answer.rows)}${note}` }],
      structuredContent: { ...answer },
    };
  } catch (error) {
    return toolError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Starts the server on stdin and stdout, reading `source`; resolves once the transport is open.
 * @param source - the store to read.
 * @param version - pathlab's version, as the server names itself.
 * @example await startMcpServer({ db: "./pathlab.duckdb" }, "0.1.0");
 */
export async function startMcpServer(source: McpSource, version: string): Promise<Server> {
  const server = new Server(
    { name: "pathlab", version },
    { capabilities: { tools: {}, resources: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(source, request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: SCHEMA_URI,
        name: "schema",
        description: "Every table and view of the store with its columns and types",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== SCHEMA_URI) {
      throw new Error(`no resource ${request.params.uri}: pathlab mcp has ${SCHEMA_URI}`);
    }
    const tables = MCP_TOOLS.find((tool) => tool.name === "tables") as McpTool;
    const { rows } = await readRows(source, tables.sql({}), MCP_MAX_ROWS);
    return {
      contents: [{ uri: SCHEMA_URI, mimeType: "application/json", text: JSON.stringify(rows) }],
    };
  });
  await server.connect(new StdioServerTransport());
  return server;
}
