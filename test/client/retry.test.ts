import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  MissingApiKeyError,
  PaymentRequiredError,
  RateLimitError,
  ResponseDecodeError,
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

  it("shouldRetry retries a malformed JSON body once, and a body of the wrong shape never", () => {
    const malformed = new ResponseDecodeError("x", { operation, status: 200, kind: "json" });
    const wrongShape = new ResponseDecodeError("x", { operation, status: 200, kind: "shape" });
    expect(shouldRetry(malformed, 1, 5)).toBe(true);
    expect(shouldRetry(malformed, 2, 5)).toBe(false);
    expect(shouldRetry(malformed, 1, 0)).toBe(false);
    expect(shouldRetry(wrongShape, 1, 5)).toBe(false);
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

  it("retryDelayMs honours Retry-After exactly, without jitter, capped at maxMs", () => {
    const random = () => 0.25;
    expect(retryDelayMs(1, { retryAfterMs: 1234, random })).toBe(1234);
    expect(retryDelayMs(4, { retryAfterMs: 0, baseMs: 100, random })).toBe(0);
    expect(retryDelayMs(1, { retryAfterMs: 120_000, maxMs: 5000, random })).toBe(5000);
    // An unreadable Retry-After falls back to the backoff.
    expect(retryDelayMs(2, { retryAfterMs: Number.NaN, baseMs: 100, random })).toBe(50);
    expect(retryDelayMs(2, { retryAfterMs: -5, baseMs: 100, random })).toBe(50);
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
