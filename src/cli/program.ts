/**
 * The `pathlab` command line: builds the commander program, runs it, maps failures to exit codes
 * (0 ok, 1 failures in some units, 2 bad usage, 130 interrupted) and prints one clear line per
 * error. Building the program loads commander, the option parsers and small modules of constants
 * only: each command loads what it works with (DuckDB, the client, the jobs) when it runs, so that
 * `pathlab --help` and `pathlab <command> --help` answer at once.
 */
import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { auditCommand } from "./audit.ts";
import { backtestCommand } from "./backtest.ts";
import { baselineCommand } from "./baseline.ts";
import { exportCommand } from "./export.ts";
import { operationsCommand } from "./operations.ts";
import { queryCommand } from "./query.ts";
import { mcpCommand } from "./mcp.ts";
import { lakeCommand } from "./lake.ts";
import { enqueueCommand } from "./queue.ts";
import { workerCommand } from "./worker.ts";
import { queueCommand } from "./queueAdmin.ts";
import { scoreCommand } from "./score.ts";
import { serveCommand } from "./serve.ts";
import { syncCommand } from "./sync.ts";
import { validateCommand } from "./validate.ts";
import { EXIT_OK, EXIT_USAGE, formatError } from "./errors.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";

export type { ProgramIo, ProgramStatus } from "./io.ts";

const ROADMAP = `
Start with \`npx pathlab sync\` (what \`npm start\` runs), then \`npx pathlab query "select …"\`.
Benchmark miners with \`npx pathlab score --from <ISO> --to <ISO>\`.
Check a miner's response before deploying it with \`npx pathlab validate FILE…\`.
Check the service's insights against themselves with \`npx pathlab audit\`.`;

const processIo: ProgramIo = {
  // Skipped once the reader has gone away (main.ts): the command then ends as it would have.
  stdout: (text) => void (process.stdout.destroyed || process.stdout.write(text)),
  stderr: (text) => void (process.stderr.destroyed || process.stderr.write(text)),
  ...(process.stderr.isTTY && { stderrTerminal: process.stderr }),
  stdoutColors: colorsWanted(process.stdout.isTTY === true, process.env),
  stdoutStream: process.stdout,
};

/**
 * Whether output should be colored (https://no-color.org, and `FORCE_COLOR` as Node and most
 * tools read it): `NO_COLOR` set to anything but the empty string turns colors off, `FORCE_COLOR`
 * other than `0` or `false` turns them on, otherwise a terminal gets them.
 * @example colorsWanted(true, { NO_COLOR: "1" }) // => false
 */
export function colorsWanted(terminal: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return terminal;
}

/** The version in pathlab's package.json (two folders up, from `src/cli/` as from `dist/cli/`). */
function packageVersion(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** Builds the program; actions set `status.exitCode` when they end with one other than 0. */
export function buildProgram(
  io: ProgramIo = processIo,
  status: ProgramStatus = { exitCode: EXIT_OK },
): Command {
  // Usage errors read as pathlab's other errors do: `pathlab: <what is wrong>`.
  const output = {
    writeOut: io.stdout,
    writeErr: io.stderr,
    outputError: (text: string, write: (text: string) => void) =>
      write(text.replace(/^error: /, "pathlab: ")),
  };
  const program = new Command("pathlab")
    .description(
      "Local-first analytics for probabilistic price forecasts of the Market Forecast Service.",
    )
    .version(packageVersion())
    .option("--verbose", "print the cause of an error")
    .configureOutput(output)
    .showHelpAfterError("(run 'npx pathlab --help' for usage)")
    .addHelpText("after", ROADMAP)
    .allowExcessArguments()
    .action((_options, command: Command) => {
      const [unknown] = command.args;
      if (unknown === undefined) {
        program.outputHelp();
        return;
      }
      program.error(`error: unknown command '${unknown}'`, {
        exitCode: EXIT_USAGE,
        code: "commander.unknownCommand",
      });
    });
  program.addCommand(syncCommand(io, status));
  program.addCommand(scoreCommand(io, status));
  program.addCommand(baselineCommand(io, status));
  program.addCommand(backtestCommand(io, status));
  program.addCommand(validateCommand(io, status));
  program.addCommand(auditCommand(io, status));
  program.addCommand(queryCommand(io));
  program.addCommand(exportCommand(io));
  program.addCommand(mcpCommand(io));
  program.addCommand(enqueueCommand(io));
  program.addCommand(workerCommand(io));
  program.addCommand(queueCommand(io));
  program.addCommand(lakeCommand(io, status));
  program.addCommand(operationsCommand(io));
  program.addCommand(serveCommand(io));
  // Every command, and the subcommands of `enqueue`, `queue` and `lake`, reads as pathlab's.
  const configure = (command: Command, path: string) => {
    command
      .configureOutput(output)
      .showHelpAfterError(`(run 'npx pathlab ${path} --help' for usage)`);
    for (const sub of command.commands) configure(sub, `${path} ${sub.name()}`);
  };
  for (const command of program.commands) configure(command, command.name());
  // The project's settings (pathlab.config.json) fill in what neither the command line nor the
  // environment set, and the deployment's paths are checked against the spec's operations.
  program.hook("preAction", async (_program, action) => {
    const settings = new Set(["baseUrl", "naming", "paths"]);
    if (!action.options.some((option) => settings.has(option.attributeName()))) return;
    const { applyProjectSettings } = await import("./config.ts");
    applyProjectSettings(action, process.cwd(), io.stderr);
  });
  return program;
}

/** Runs the command line on `argv` (without the node and script entries) and returns the exit code. */
export async function runCli(argv: readonly string[], io: ProgramIo = processIo): Promise<number> {
  const status: ProgramStatus = { exitCode: EXIT_OK };
  const program = buildProgram(io, status).exitOverride();
  const override = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return status.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage mistakes were printed by commander.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    const { line, exitCode } = formatError(error, argv.includes("--verbose"));
    io.stderr(`${line}\n`);
    if (exitCode === EXIT_USAGE) {
      const named = argv.find((argument) => !argument.startsWith("-"));
      const command = program.commands.find((candidate) => candidate.name() === named);
      io.stderr(
        `(run 'npx pathlab${command === undefined ? "" : ` ${command.name()}`} --help' for usage)\n`,
      );
    }
    return exitCode;
  }
}
