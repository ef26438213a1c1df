/** Exit codes of the pathlab command line. */
export const EXIT_OK = 0;
/** Some units of work failed; the rest were stored. */
export const EXIT_PARTIAL = 1;
/** Bad usage: unknown option, invalid parameter. */
export const EXIT_USAGE = 2;
/** Stopped by SIGINT (128 + 2, as shells report it); the run is recorded as interrupted. */
export const EXIT_INTERRUPTED = 130;

/**
 * One clear line for an error, with its cause chain under `--verbose`, and the exit code it maps to.
 * Errors named `InvalidParamsError` or `ConfigFileError` are usage mistakes (exit 2), a `JobInterruptedError` exits 130,
 * everything else exits 1.
 */
export function formatError(error: unknown, verbose: boolean): { line: string; exitCode: number } {
  const name = error instanceof Error ? error.name : "";
  const exitCode =
    name === "InvalidParamsError" || name === "ConfigFileError"
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
