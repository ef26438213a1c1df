/** A unit's deadline and the job's interruption, as one signal. */

/**
 * A unit's deadline and the job's interruption as one signal. The deadline runs from `start()`
 * (when the unit's work may really begin: after its turn in a fetch lane, or when a pool thread
 * takes it); when it passes, `signal` aborts with an `Error` of `message`, and `passed` says so.
 * When the job's signal aborts first, `signal` aborts with the job's reason and `interrupted`
 * says so. `stop()` ends it: the timer is cleared, the job's signal no longer listened to, and
 * `signal` aborts, so that whatever still runs for the unit stops.
 * @example
 * const deadline = new UnitDeadline(300_000, job.signal, "not finished within 300 s");
 * deadline.start(); try { await work(deadline.signal); } finally { deadline.stop(); }
 */
export class UnitDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timed = false;
  private readonly onJobAbort: () => void;

  constructor(
    private readonly deadlineMs: number | undefined,
    private readonly jobSignal: AbortSignal | undefined,
    readonly message: string,
  ) {
    this.onJobAbort = () => this.controller.abort(jobSignal?.reason);
    if (jobSignal?.aborted === true) this.onJobAbort();
    else jobSignal?.addEventListener("abort", this.onJobAbort, { once: true });
  }

  /** Aborts at the deadline or at the job's interruption, whichever comes first. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the deadline passed (before the job was interrupted). */
  get passed(): boolean {
    return this.timed;
  }

  /** Whether the job's signal aborted. */
  get interrupted(): boolean {
    return this.jobSignal?.aborted === true;
  }

  /** Starts the deadline's clock (once; later calls and a unit without a deadline do nothing). */
  start(): void {
    if (this.deadlineMs === undefined || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      if (this.controller.signal.aborted) return;
      this.timed = true;
      this.controller.abort(new Error(this.message));
    }, this.deadlineMs);
  }

  /** Ends the deadline: what still runs for the unit stops. */
  stop(): void {
    clearTimeout(this.timer);
    this.jobSignal?.removeEventListener("abort", this.onJobAbort);
    this.controller.abort(new Error("the unit's work is no longer wanted"));
  }
}

/**
 * The message of a unit that passed its deadline.
 * @example deadlineMessage("prompt", 300_000) // => "not finished within 300 s (the prompt's deadline, --unit-deadline)"
 */
export function deadlineMessage(unit: string, deadlineMs: number): string {
  return `not finished within ${deadlineMs / 1000} s (the ${unit}'s deadline, --unit-deadline)`;
}
