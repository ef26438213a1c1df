/**
 * What stops a whole job before its end: the caller's interruption (Ctrl-C), the job's deadline
 * (`--deadline`), or its breaker (units failing the same way in a row), as one signal.
 */

/**
 * Why a job stopped early: `interrupted` by its caller, past its `deadline`, or by its `breaker`.
 * @example const cause: JobStopCause = "deadline";
 */
export type JobStopCause = "interrupted" | "deadline" | "breaker";

/**
 * The job's stop: `signal` aborts when the caller's signal aborts, when `deadlineMs` has passed
 * since the stop was made, or when `trip` is called, whichever comes first; `cause` and `message`
 * then say which and why. `dispose` clears the deadline's timer and the caller's listener.
 * @example
 * const stop = new JobStop(options.signal, 3_600_000);
 * try { await work(stop.signal); } finally { stop.dispose(); }
 * stop.cause // => "deadline" when the hour passed first
 */
export class JobStop {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onInterrupt: () => void;
  private stoppedBy: { cause: JobStopCause; message: string } | undefined;

  constructor(
    private readonly interruption: AbortSignal | undefined,
    deadlineMs: number | undefined,
  ) {
    this.onInterrupt = () => {
      const reason: unknown = interruption?.reason;
      this.stop("interrupted", reason instanceof Error ? reason.message : "interrupted", reason);
    };
    if (interruption?.aborted === true) this.onInterrupt();
    else interruption?.addEventListener("abort", this.onInterrupt, { once: true });
    if (deadlineMs !== undefined) {
      this.timer = setTimeout(
        () =>
          this.trip("deadline", `stopped at its deadline of ${deadlineMs / 1000} s (--deadline)`),
        deadlineMs,
      );
    }
  }

  /** Aborts when the job stops (with the caller's reason when it interrupted the job). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the job stopped; `undefined` while it goes on. */
  get cause(): JobStopCause | undefined {
    return this.stoppedBy?.cause;
  }

  /** What stopped the job, in one line without the command (`stopped at its deadline of 60 s (--deadline)`); `undefined` while it goes on. */
  get message(): string | undefined {
    return this.stoppedBy?.message;
  }

  /** Whether the deadline or the breaker stopped the job (not its caller). */
  get stoppedEarly(): boolean {
    return this.cause === "deadline" || this.cause === "breaker";
  }

  /** Stops the job for `cause`, saying why in `message` (once; later calls do nothing). */
  trip(cause: Exclude<JobStopCause, "interrupted">, message: string): void {
    this.stop(cause, message, new Error(message));
  }

  /** Clears the deadline's timer and stops listening to the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.interruption?.removeEventListener("abort", this.onInterrupt);
  }

  private stop(cause: JobStopCause, message: string, reason: unknown): void {
    if (this.stoppedBy !== undefined) return;
    this.stoppedBy = { cause, message };
    clearTimeout(this.timer);
    this.controller.abort(reason);
  }
}
