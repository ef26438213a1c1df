import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  MissingApiKeyError,
  PaymentRequiredError,
  RateLimitError,
  ResponseDecodeError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from "../../src/client/errors.ts";
import { parseRetryAfterMs, retryDelayMs, shouldRetry } from "../../src/client/retry.ts";

const operation = "/insights/liquidation";

describe("shouldRetry", () => {
  it("shouldRetry retries 429 and every 5xx status, and no other status", () => {
    expect(shouldRetry(429, 1, 2)).toBe(true);
    for (const status of [500, 502, 503, 504, 599]) expect(shouldRetry(status, 1, 2)).toBe(true);
    for (const status of [200, 301, 400, 401, 402, 403, 404, 408, 409, 422, 600]) {
      expect(shouldRetry(status, 1, 2)).toBe(false);
    }
  });

  it("shouldRetry stops once maxRetries retries have followed the first attempt", () => {
    expect(shouldRetry(503, 1, 2)).toBe(true);
    expect(shouldRetry(503, 2, 2)).toBe(true);
    expect(shouldRetry(503, 3, 2)).toBe(false);
    expect(shouldRetry(503, 1, 0)).toBe(false);
  });

  it("shouldRetry retries rate limits, server errors, connection errors and timeouts", () => {
    expect(shouldRetry(new RateLimitError("x", { operation, status: 429 }), 1, 1)).toBe(true);
    expect(shouldRetry(new ServerError("x", { operation, status: 500 }), 1, 1)).toBe(true);
    expect(shouldRetry(new ConnectionError("x", { operation, code: "ECONNRESET" }), 1, 1)).toBe(
      true,
    );
    const timeout = new TimeoutError("x", { operation, phase: "headers", timeoutMs: 10 });
    expect(shouldRetry(timeout, 1, 1)).toBe(true);
  });

  it("shouldRetry never retries client errors, credential errors or foreign errors", () => {
    const failures = [
      new BadRequestError("x", { operation, status: 400 }),
      new AuthenticationError("x", { operation, status: 401 }),
      new MissingApiKeyError("x", { operation }),
      new PaymentRequiredError("x", { operation, status: 402 }),
      new TypeError("a bug"),
      "text",
    ];
    for (const failure of failures) expect(shouldRetry(failure, 1, 5)).toBe(false);
  });

  it("shouldRetry retries a malformed JSON body on any attempt within the budget, a wrong shape never", () => {
    const malformed = new ResponseDecodeError("x", { operation, status: 200, kind: "json" });
    const wrongShape = new ResponseDecodeError("x", { operation, status: 200, kind: "shape" });
    expect(shouldRetry(malformed, 1, 5)).toBe(true);
    expect(shouldRetry(malformed, 2, 5)).toBe(true);
    expect(shouldRetry(malformed, 5, 5)).toBe(true);
    expect(shouldRetry(malformed, 6, 5)).toBe(false);
    expect(shouldRetry(malformed, 1, 0)).toBe(false);
    expect(shouldRetry(wrongShape, 1, 5)).toBe(false);
  });

  it("shouldRetry never retries an oversized body or the overall deadline", () => {
    const tooLarge = new ResponseTooLargeError("x", { operation, status: 200, limitBytes: 10 });
    const deadline = new TimeoutError("x", { operation, phase: "deadline", timeoutMs: 10 });
    expect(shouldRetry(tooLarge, 1, 5)).toBe(false);
    expect(shouldRetry(deadline, 1, 5)).toBe(false);
  });
});

describe("retryDelayMs", () => {
  it("retryDelayMs is full jitter over base × 2^(attempt−1)", () => {
    // Closed form: random × min(maxMs, baseMs · 2^(attempt−1)).
    const half = () => 0.5;
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, random: half })).toBe(50);
    expect(retryDelayMs(2, { baseMs: 100, maxMs: 10_000, random: half })).toBe(100);
    expect(retryDelayMs(5, { baseMs: 100, maxMs: 10_000, random: half })).toBe(800);
    expect(retryDelayMs(3, { baseMs: 100, maxMs: 10_000, random: () => 0 })).toBe(0);
    expect(retryDelayMs(3, { baseMs: 100, maxMs: 10_000, random: () => 0.999 })).toBeCloseTo(
      399.6,
      10,
    );
  });

  it("retryDelayMs caps the backoff at maxMs", () => {
    expect(retryDelayMs(20, { baseMs: 100, maxMs: 3000, random: () => 0.5 })).toBe(1500);
  });

  it("retryDelayMs draws delays uniformly below the ceiling with Math.random", () => {
    let sum = 0;
    const count = 4000;
    for (let i = 0; i < count; ++i) {
      const delay = retryDelayMs(3, { baseMs: 100 });
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(400);
      sum += delay;
    }
    // Mean of U(0, 400) is 200 with standard error 400/√12/√4000 ≈ 1.83; 6 σ ≈ 11.
    expect(Math.abs(sum / count - 200)).toBeLessThan(11);
  });

  it("retryDelayMs waits Retry-After plus up to 25 % (at least baseMs) of jitter, capped at maxMs", () => {
    // Closed form: min(maxMs, R + random × max(R / 4, baseMs)).
    expect(retryDelayMs(1, { retryAfterMs: 2000, random: () => 0 })).toBe(2000);
    expect(retryDelayMs(1, { retryAfterMs: 2000, random: () => 0.5 })).toBe(2250);
    expect(retryDelayMs(3, { retryAfterMs: 2000, random: () => 0.999 })).toBeCloseTo(2499.5, 10);
    // Retry-After: 0 still spreads over baseMs.
    expect(retryDelayMs(4, { retryAfterMs: 0, baseMs: 100, random: () => 0.25 })).toBe(25);
    // A Retry-After at or above maxMs waits maxMs.
    expect(retryDelayMs(1, { retryAfterMs: 120_000, maxMs: 5000, random: () => 0.9 })).toBe(5000);
    expect(retryDelayMs(1, { retryAfterMs: 4900, maxMs: 5000, random: () => 0.9 })).toBe(5000);
    const random = () => 0.25;
    // An unreadable Retry-After falls back to the backoff.
    expect(retryDelayMs(2, { retryAfterMs: Number.NaN, baseMs: 100, random })).toBe(50);
    expect(retryDelayMs(2, { retryAfterMs: -5, baseMs: 100, random })).toBe(50);
  });

  it("retryDelayMs spreads Retry-After waits uniformly over [R, 1.25 R) with Math.random", () => {
    const count = 4000;
    const delays = Array.from({ length: count }, () =>
      retryDelayMs(1, { retryAfterMs: 1000, baseMs: 100 }),
    );
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThan(1250);
    }
    // Mean of U(1000, 1250) is 1125, standard error 250/√12/√4000 ≈ 1.14; 6 σ ≈ 7.
    const mean = delays.reduce((sum, delay) => sum + delay, 0) / count;
    expect(Math.abs(mean - 1125)).toBeLessThan(7);
    // Spread, not lockstep: each quarter of the interval gets about a quarter of the waits.
    for (let quarter = 0; quarter < 4; ++quarter) {
      const low = 1000 + quarter * 62.5;
      const inQuarter = delays.filter((delay) => delay >= low && delay < low + 62.5).length;
      expect(inQuarter / count).toBeGreaterThan(0.2);
      expect(inQuarter / count).toBeLessThan(0.3);
    }
  });

  it("retryDelayMs rejects an attempt that is not an integer ≥ 1", () => {
    expect(() => retryDelayMs(0)).toThrow("retryDelayMs requires an integer attempt ≥ 1, got 0");
    expect(() => retryDelayMs(1.5)).toThrow(RangeError);
    expect(() => retryDelayMs(1, { baseMs: -1 })).toThrow("baseMs ≥ 0 and maxMs ≥ 0, got -1");
  });
});

describe("parseRetryAfterMs", () => {
  it("parseRetryAfterMs reads delay-seconds, fractions included", () => {
    expect(parseRetryAfterMs("2", 0)).toBe(2000);
    expect(parseRetryAfterMs(" 0.05 ", 0)).toBe(50);
    expect(parseRetryAfterMs("0", 0)).toBe(0);
  });

  it("parseRetryAfterMs reads the three HTTP date forms relative to now", () => {
    const now = Date.UTC(1994, 10, 6, 8, 49, 30);
    expect(parseRetryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", now)).toBe(7000);
    expect(parseRetryAfterMs("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(7000);
    expect(parseRetryAfterMs("Sun, 06 Nov 1994 08:49:00 GMT", now)).toBe(0);
  });

  it("parseRetryAfterMs returns undefined for an absent or unreadable header", () => {
    expect(parseRetryAfterMs(undefined, 0)).toBeUndefined();
    expect(parseRetryAfterMs("soon", 0)).toBeUndefined();
    expect(parseRetryAfterMs("-3", 0)).toBeUndefined();
    expect(parseRetryAfterMs("12 34", 0)).toBeUndefined();
  });
});
