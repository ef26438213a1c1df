/**
 * The error a job throws when its signal aborted before it could finish (Ctrl-C in the CLI): the
 * run is recorded as `interrupted`, what was stored before is kept, the open unit rolled back.
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
