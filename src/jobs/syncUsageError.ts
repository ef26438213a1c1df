/** The error of a sync's options that cannot work (the command line's exit code 2). */

/**
 * Options of a sync that cannot work: an asset without path sets, an unknown horizon, a clock or
 * seed for a service that is not the embedded sandbox, a service without a key, a concurrency
 * below 1. The message names the option, what was expected and what was got.
 * @example new SyncUsageError("sync: horizon: expected 1h or 24h, got \"2h\"").name // => "SyncUsageError"
 */
export class SyncUsageError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = "SyncUsageError";
  }
}
