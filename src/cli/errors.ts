/** Exit codes of the pathlab command line. */
export const EXIT_OK = 0;
/** Some units of work failed; the rest were stored. */
export const EXIT_PARTIAL = 1;
/** Bad usage: unknown option, invalid parameter. */
export const EXIT_USAGE = 2;
/** Stopped by SIGINT (128 + 2, as shells report it); the run is recorded as interrupted. */
export const EXIT_INTERRUPTED = 130;

/** The names of the errors that are usage mistakes (exit 2). */
const USAGE_ERRORS = new Set(["UsageError", "InvalidParamsError", "ConfigFileError", "SqlError"]);

/**
 * SQL that DuckDB rejects, a mistake in what the user wrote (it does not parse or bind, names a
 * table that is not there, or converts a value that does not convert): a usage error, exit code
 * 2. The message is DuckDB's; DuckDB's whole message is the cause.
 * @example throw new SqlError('query: Parser Error: syntax error at or near "selec"', { cause });
 */
export class SqlError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SqlError";
  }
}

/**
 * One clear line for an error, with its cause chain under `--verbose`, and the exit code it maps to.
 * Errors named `UsageError`, `InvalidParamsError`, `ConfigFileError` or `SqlError` are usage
 * mistakes (exit 2), a `JobInterruptedError` exits 130, everything else exits 1.
 * @example formatError(new Error("boom"), false) // => { line: "pathlab: boom", exitCode: 1 }
 */
export function formatError(error: unknown, verbose: boolean): { line: string; exitCode: number } {
  const name = error instanceof Error ? error.name : "";
  const exitCode = USAGE_ERRORS.has(name)
    ? EXIT_USAGE
    : name === "JobInterruptedError"
      ? EXIT_INTERRUPTED
      : EXIT_PARTIAL;
  let line = `pathlab: ${error instanceof Error ? error.message : String(error)}`;
  if (verbose) {
    let cause = error instanceof Error ? error.cause : undefined;
    while (cause !== undefined) {
      line += `\n  caused by: ${cause instanceof Error ? cause.message : String(cause)}`;
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return { line, exitCode };
}
