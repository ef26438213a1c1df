import { describe, expect, it } from "vitest";
import { Breaker, failureKind } from "../../../src/jobs/harness/breaker.ts";
import { JobStop } from "../../../src/jobs/harness/jobStop.ts";

describe("Breaker", () => {
  const deadline =
    "unit not stored: not finished within 8 s (the unit's deadline, --unit-deadline)";
  const status = (code: number, operation: string) =>
    `unit not stored: ${operation}: HTTP ${code} (server error): busy`;

  it("failureKind reads the HTTP status whatever the operation, and a deadline without its number", () => {
    expect(failureKind(status(503, "/insights/liquidation"))).toBe("HTTP 503");
    expect(failureKind(status(503, "/v2/prediction/historical"))).toBe("HTTP 503");
    expect(failureKind(deadline)).toBe(
      "unit not stored: not finished within # s (the unit's deadline, --unit-deadline)",
    );
  });

  it("trips once, after `limit` units in a row fail the same way", () => {
    const trips: [number, string][] = [];
    const breaker = new Breaker(3, (count, reason) => trips.push([count, reason]));
    breaker.failed(status(503, "/insights/liquidation"));
    breaker.failed(status(503, "/insights/lp-bounds"));
    expect(trips).toEqual([]);
    breaker.failed(status(503, "/insights/liquidation"));
    breaker.failed(status(503, "/insights/liquidation"));
    expect(trips).toEqual([[3, status(503, "/insights/liquidation")]]);
  });

  it("a success or another kind of failure starts the count again", () => {
    const trips: number[] = [];
    const breaker = new Breaker(3, (count) => trips.push(count));
    breaker.failed(deadline);
    breaker.failed(deadline);
    breaker.succeeded();
    breaker.failed(deadline);
    breaker.failed(deadline);
    breaker.failed(status(502, "/insights/liquidation"));
    breaker.failed(deadline);
    breaker.failed(deadline);
    expect(trips).toEqual([]);
  });
});

describe("JobStop", () => {
  it("aborts at its deadline and says so", async () => {
    const stop = new JobStop(undefined, 5);
    await new Promise((resolve) => stop.signal.addEventListener("abort", resolve));
    expect(stop.cause).toBe("deadline");
    expect(stop.stoppedEarly).toBe(true);
    expect(stop.message).toBe("stopped at its deadline of 0.005 s (--deadline)");
    stop.dispose();
  });

  it("follows the caller's interruption, and the first cause stays", () => {
    const caller = new AbortController();
    const stop = new JobStop(caller.signal, 60_000);
    caller.abort(new Error("pathlab sync: interrupted (SIGINT)"));
    stop.trip("breaker", "stopped after 3 units in a row failed the same way: HTTP 503");
    expect(stop.signal.aborted).toBe(true);
    expect(stop.cause).toBe("interrupted");
    expect(stop.stoppedEarly).toBe(false);
    expect(stop.message).toBe("pathlab sync: interrupted (SIGINT)");
    stop.dispose();
  });

  it("a trip stops the job with its message; without one, nothing stops it", () => {
    const stop = new JobStop(undefined, undefined);
    expect(stop.signal.aborted).toBe(false);
    expect(stop.cause).toBeUndefined();
    stop.trip("breaker", "stopped after 3 prompts in a row failed the same way: HTTP 500");
    expect(stop.cause).toBe("breaker");
    expect((stop.signal.reason as Error).message).toBe(stop.message);
    stop.dispose();
  });
});
