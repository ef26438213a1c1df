/**
 * `pathlab mcp`: a Model Context Protocol server on stdio over the store, for assistants. This
 * module only declares the command; the server (`mcp/server.ts`) and the MCP SDK, an optional peer
 * dependency, are loaded when it runs.
 */
import { Command } from "commander";
import { createRequire } from "node:module";
import { DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import { UsageError } from "../service/usageError.ts";
import type { ProgramIo } from "./io.ts";
import {
  addDeploymentOptions,
  addServiceOptions,
  deploymentOf,
  serviceRequest,
  type DeploymentCommandOptions,
  type ServiceCommandOptions,
} from "./serviceOptions.ts";

interface McpCommandOptions extends ServiceCommandOptions, DeploymentCommandOptions {
  db: string;
  lake?: string;
}

/** The SDK's package, an optional peer dependency of pathlab. */
const SDK = "@modelcontextprotocol/sdk";

/**
 * Builds the `mcp` command: serves the tools of `mcp/tools.ts` and `mcp/jobTools.ts` on stdin and
 * stdout until the client closes stdin or a signal comes. The job tools talk to the service the
 * usual options name (the embedded sandbox by default). Without the MCP SDK installed, a usage
 * error names the command that installs it.
 * @param io - where the command writes its notes (stderr; stdout carries the protocol).
 * @example program.addCommand(mcpCommand(io));
 */
export function mcpCommand(io: ProgramIo): Command {
  const command = addDeploymentOptions(
    addServiceOptions(
      new Command("mcp")
        .description("serve the store to assistants: a Model Context Protocol server on stdio")
        .option(
          "--db <path>",
          "the DuckDB file to read (score_candidate writes its run there)",
          DEFAULT_DATABASE,
        )
        .option("--lake <dir>", "read a Parquet lake instead of a DuckDB file"),
    ),
  );
  return command.action(async (options: McpCommandOptions) => {
    const manifest = createRequire(import.meta.url)("../../package.json") as {
      version: string;
      peerDependencies: Record<string, string>;
    };
    let server;
    try {
      server = await import("./mcp/server.ts");
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND";
      if (!missing || !String((error as Error).message).includes(SDK)) throw error;
      throw new UsageError(
        `mcp: needs the MCP SDK, an optional peer dependency of pathlab: npm install "${SDK}@${manifest.peerDependencies[SDK]}"`,
      );
    }
    const source = { db: options.db, ...(options.lake !== undefined && { lake: options.lake }) };
    const service = serviceRequest(command, options, io.stderr);
    const context = { source, service, ...deploymentOf(options) };
    const running = await server.startMcpServer(context, manifest.version);
    io.stderr(`pathlab mcp: serving ${options.lake ?? options.db} on stdio\n`);
    await new Promise<void>((resolve) => {
      process.stdin.once("end", resolve);
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await running.close();
  });
}
