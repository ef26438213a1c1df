/**
 * The `pathlab` command line: builds the commander program, runs it, maps failures to exit codes
 * (0 ok, 1 failures in some units, 2 bad usage) and prints one clear line per error.
 */
import { Command, CommanderError } from "commander";
import { operationsCommand } from "./operations.ts";
import { serveCommand } from "./serve.ts";
import { EXIT_OK, EXIT_USAGE, formatError } from "./errors.ts";

const ROADMAP = `
Coming next (see the README's roadmap):
  sync      pull path sets from the service (default: the embedded sandbox), recompute and
            cross-check every insight, store everything in ./pathlab.duckdb
  query     run SQL against the database
  export    write tables as hive-partitioned Parquet
  score     score miners exactly as the network's validator does, and rank your own model`;

/** Streams the program writes to; tests pass their own. */
export interface ProgramIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: ProgramIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Builds the program. */
export function buildProgram(io: ProgramIo = processIo): Command {
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
  program.addCommand(operationsCommand(io));
  program.addCommand(serveCommand(io));
  for (const command of program.commands) {
    command.configureOutput({ writeOut: io.stdout, writeErr: io.stderr }).showHelpAfterError();
  }
  return program;
}

/** Runs the command line on `argv` (without the node and script entries) and returns the exit code. */
export async function runCli(argv: readonly string[], io: ProgramIo = processIo): Promise<number> {
  const program = buildProgram(io).exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT_OK;
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
