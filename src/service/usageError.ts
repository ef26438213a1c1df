/** The error of a job's options that cannot work (the command line's exit code 2). */

/**
 * Options of a job that cannot work, for every job and command: an asset without path sets, an
 * unknown horizon, a clock or seed for a service that is not the embedded sandbox, a service
 * without a key, a concurrency below 1. The message names the command and the option, what was
 * expected and what was got.
 * @example new UsageError("sync: horizon: expected 1h or 24h, got \"2h\"").name // => "UsageError"
 */
export class UsageError extends RangeError {
  /**
   * @param message - the one line the CLI prints, naming the option or file at fault.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
