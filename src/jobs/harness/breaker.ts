/** The breaker of a job: it stops the job once units fail the same way several times in a row. */

/**
 * How a unit failed, for the breaker to compare: the HTTP status its reason names (`HTTP 503`,
 * whatever the operation), else the reason with its numbers left out (a unit's deadline, a
 * timeout of a call, a body over its limit read the same for every unit).
 * @example failureKind("unit not stored: /insights/liquidation: HTTP 503 (server error): busy") // => "HTTP 503"
 * @example failureKind("unit not stored: not finished within 8 s (the unit's deadline, --unit-deadline)") // => "unit not stored: not finished within # s (the unit's deadline, --unit-deadline)"
 */
export function failureKind(reason: string): string {
  const status = /\bHTTP (\d{3})\b/.exec(reason);
  return status === null ? reason.replace(/\d+(\.\d+)?/g, "#") : `HTTP ${status[1]}`;
}

/**
 * Counts the units that fail the same way ({@link failureKind}) in a row, in the order they end:
 * a unit that succeeds, or fails another way, starts the count again. When `limit` units in a
 * row failed the same way, `onTrip` is called once, with their count and the last one's reason.
 * Units that neither succeeded nor failed (interrupted) are not told.
 * @example
 * const breaker = new Breaker(3, (count, reason) => stop.trip("breaker", `${count} units failed: ${reason}`));
 * breaker.failed("HTTP 503"); breaker.failed("HTTP 503"); breaker.failed("HTTP 503"); // trips
 */
export class Breaker {
  private kind: string | undefined;
  private count = 0;
  private tripped = false;

  constructor(
    readonly limit: number,
    private readonly onTrip: (count: number, reason: string) => void,
  ) {}

  /** A unit succeeded: the count starts again. */
  succeeded(): void {
    this.kind = undefined;
    this.count = 0;
  }

  /** A unit failed for `reason`. */
  failed(reason: string): void {
    const kind = failureKind(reason);
    this.count = kind === this.kind ? this.count + 1 : 1;
    this.kind = kind;
    if (this.count >= this.limit && !this.tripped) {
      this.tripped = true;
      this.onTrip(this.count, reason);
    }
  }
}
