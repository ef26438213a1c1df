/**
 * The `pathlab` command line: builds the commander program, runs it, maps failures to exit codes
 * (0 ok, 1 failures in some units, 2 bad usage) and prints one clear line per error.
 */
import { Command, CommanderError } from "commander";
import { exportCommand } from "./export.ts";
import { operationsCommand } from "./operations.ts";
import { queryCommand } from "./query.ts";
import { scoreCommand } from "./score.ts";
import { serveCommand } from "./serve.ts";
import { syncCommand } from "./sync.ts";
import { EXIT_OK, EXIT_USAGE, formatError } from "./errors.ts";

const ROADMAP = `
Start with \`pathlab sync\` (what \`npm start\` runs), then \`pathlab query "select …"\`.
Benchmark miners with \`pathlab score --from <ISO> --to <ISO>\`.`;

/** Streams the program writes to; tests pass their own. */
export interface ProgramIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The terminal stderr is, if it is one: progress bars are drawn on it (else plain lines). */
  readonly stderrTerminal?: NodeJS.WriteStream;
  /** Whether stdout is a terminal (tables get colored heads). */
  readonly stdoutTerminal?: boolean;
}

/**
 * What a command's action reports besides printing: the exit code when it is not 0 although the
 * command ran to its end (a sync with failures in some units exits 1).
 * @example const status: ProgramStatus = { exitCode: 0 };
 */
export interface ProgramStatus {
  exitCode: number;
}

const processIo: ProgramIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  ...(process.stderr.isTTY && { stderrTerminal: process.stderr }),
  stdoutTerminal: process.stdout.isTTY === true,
};

/** Builds the program; actions set `status.exitCode` when they end with one other than 0. */
export function buildProgram(
  io: ProgramIo = processIo,
  status: ProgramStatus = { exitCode: EXIT_OK },
): Command {
  const program = new Command("pathlab")
    .description(
      "Local-first analytics for probabilistic price forecasts of the Market Forecast Service.",
    )
    .version("0.1.0")
    .option("--verbose", "print the cause of an error")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError()
    .addHelpText("after", ROADMAP)
    .action(() => {
      program.outputHelp();
    });
  program.addCommand(syncCommand(io, status));
  program.addCommand(scoreCommand(io, status));
  program.addCommand(queryCommand(io));
  program.addCommand(exportCommand(io));
  program.addCommand(operationsCommand(io));
  program.addCommand(serveCommand(io));
  for (const command of program.commands) {
    command.configureOutput({ writeOut: io.stdout, writeErr: io.stderr }).showHelpAfterError();
  }
  return program;
}

/** Runs the command line on `argv` (without the node and script entries) and returns the exit code. */
export async function runCli(argv: readonly string[], io: ProgramIo = processIo): Promise<number> {
  const status: ProgramStatus = { exitCode: EXIT_OK };
  const program = buildProgram(io, status).exitOverride();
  for (const command of program.commands) command.exitOverride();
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
    return exitCode;
  }
}
