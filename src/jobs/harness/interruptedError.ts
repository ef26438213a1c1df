/**
 * The errors a job throws when it stops before it could finish: its signal aborted (Ctrl-C in the
 * CLI; the run is recorded as `interrupted`), or its deadline or breaker stopped it (the run is
 * recorded as `failed`). What was stored before is kept, the open unit rolled back.
 */

/**
 * A job stopped by its signal; the CLI exits 130 for it.
 * @example new JobInterruptedError("score: interrupted after 12 prompts").name // => "JobInterruptedError"
 */
export class JobInterruptedError extends Error {
  /**
   * @param message - what was stopped and what was kept, e.g.
   *   `score: interrupted after 12 prompts`.
   * @param options - the signal's reason as `cause`, when there is one.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "JobInterruptedError";
  }
}

/**
 * A job stopped by its deadline (`--deadline`) or its breaker (units failing the same way in a
 * row); the CLI exits 1 for it, as for any failure.
 * @example new JobStoppedError("score: stopped at its deadline of 60 s (--deadline)").name // => "JobStoppedError"
 */
export class JobStoppedError extends Error {
  /**
   * @param message - what stopped the job and what was kept.
   * @param options - what the job's body threw when it stopped, as `cause`.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "JobStoppedError";
  }
}
