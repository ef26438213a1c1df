/**
 * `pathlab mcp`: a Model Context Protocol server on stdio (the official SDK's low-level `Server`).
 * Its SQL tools ({@link MCP_TOOLS}) and resources read the store it was started on, read-only; its
 * job tools ({@link MCP_JOB_TOOLS}) run the audit and the score job, with progress notifications
 * and cancellation. A tool that fails answers a tool error with the message the CLI would print,
 * and the server keeps serving. stdout carries the protocol alone.
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
import { migratedTables } from "../../store/schemaTables.ts";
import { secretsOf } from "../../service/resolveService.ts";
import { withoutSecrets } from "../../store/withoutSecrets.ts";
import { MCP_JOB_TOOLS, type McpCall, type McpContext } from "./jobTools.ts";
import { MCP_DEFAULT_ROWS, MCP_MAX_ROWS, MCP_TOOLS, type McpToolDeclaration } from "./tools.ts";
import { describeTables, tablesSql } from "../../store/storeQuestions.ts";

/**
 * Where the server reads: a database file, or a lake (which wins).
 * @example const source: McpSource = { db: "./pathlab.duckdb" };
 */
export type McpSource = McpContext["source"];

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
/** A table's resource is this prefix and its name. */
const TABLE_URI = "pathlab://tables/";

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
function argumentError(
  tool: McpToolDeclaration,
  args: Readonly<Record<string, unknown>>,
): string | undefined {
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

/** Every tool, in the order a client lists them. */
const ALL_TOOLS: readonly McpToolDeclaration[] = [...MCP_TOOLS, ...MCP_JOB_TOOLS];

/**
 * Answers one tool call: its rows or its object, or a tool error (never with the key in it).
 * @param context - the store to read, and the service the job tools talk to.
 * @param name - the tool's name.
 * @param args - its arguments.
 * @param call - the call's cancellation and progress (the job tools use them).
 * @example const result = await callTool({ source: { db }, service: {} }, "edges", { asset: "BTC" }, call);
 */
export async function callTool(
  context: McpContext,
  name: string,
  args: Readonly<Record<string, unknown>>,
  call: McpCall,
): Promise<CallToolResult> {
  const tool = ALL_TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined)
    return toolError(
      `no tool ${name}: pathlab mcp has ${ALL_TOOLS.map((known) => known.name).join(", ")}`,
    );
  const mistake = argumentError(tool, args);
  if (mistake !== undefined) return toolError(mistake);
  const secrets = secretsOf(context.service.apiKey);
  const job = MCP_JOB_TOOLS.find((candidate) => candidate.name === name);
  if (job !== undefined) {
    try {
      const answer = withoutSecrets(await job.run(context, args, call), secrets) as Record<
        string,
        unknown
      >;
      return {
        content: [{ type: "text", text: JSON.stringify(answer) }],
        structuredContent: answer,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return toolError(String(withoutSecrets(message, secrets)));
    }
  }
  const sqlTool = MCP_TOOLS.find((candidate) => candidate.name === name)!;
  const limit = typeof args.limit === "number" ? args.limit : MCP_DEFAULT_ROWS;
  try {
    const read = await readRows(context.source, sqlTool.sql(args), limit);
    const rows = sqlTool.rows?.(read.rows);
    const answer =
      rows === undefined
        ? read
        : { ...read, rows, columns: rows.length > 0 ? Object.keys(rows[0]) : read.columns };
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
 * Starts the server on stdin and stdout; resolves once the transport is open.
 * @param context - the store to read, and the service the job tools talk to.
 * @param version - pathlab's version, as the server names itself.
 * @example await startMcpServer({ source: { db: "./pathlab.duckdb" }, service: {} }, "0.1.0");
 */
export async function startMcpServer(context: McpContext, version: string): Promise<Server> {
  const { source } = context;
  const server = new Server(
    { name: "pathlab", version },
    { capabilities: { tools: {}, resources: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ALL_TOOLS.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const token = request.params._meta?.progressToken;
    const call: McpCall = {
      signal: extra.signal,
      progress: (progress, total, message) => {
        if (token === undefined) return;
        void extra
          .sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total, message },
          })
          .catch(() => {}); // a client gone: the call's signal ends the work
      },
    };
    return callTool(context, request.params.name, request.params.arguments ?? {}, call);
  });
  const tableUris = new Map(migratedTables().map((table) => [TABLE_URI + table.name, table]));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: SCHEMA_URI,
        name: "schema",
        description: "Every table and view of the store: what a row holds, its columns and types",
        mimeType: "application/json",
      },
      ...[...tableUris].map(([uri, table]) => ({
        uri,
        name: table.name,
        description: `The ${table.kind} ${table.name}: what a row holds, its columns and types`,
        mimeType: "application/json",
      })),
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const table = tableUris.get(uri);
    if (uri !== SCHEMA_URI && table === undefined) {
      throw new Error(`no resource ${uri}: pathlab mcp has ${SCHEMA_URI} and ${TABLE_URI}<table>`);
    }
    const rows = describeTables(
      (await readRows(source, tablesSql(table?.name), MCP_MAX_ROWS)).rows,
    );
    if (table !== undefined && rows.length === 0) {
      throw new Error(
        `${uri}: the store holds no ${table.kind} ${table.name} (a lake without it, or a database of another version)`,
      );
    }
    const text = JSON.stringify(table === undefined ? rows : rows[0]);
    return { contents: [{ uri, mimeType: "application/json", text }] };
  });
  await server.connect(new StdioServerTransport());
  return server;
}
