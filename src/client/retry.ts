/**
 * The retry policy, as pure functions: which failures are retried ({@link shouldRetry}), how long
 * to wait before the next attempt ({@link retryDelayMs}), and how to read `Retry-After`
 * ({@link parseRetryAfterMs}).
 */

import {
  ConnectionError,
  RateLimitError,
  ResponseDecodeError,
  ServerError,
  TimeoutError,
} from "./errors.ts";

/**
 * Whether a failed attempt is followed by another. `failure` is an HTTP status or a thrown error;
 * `attempt` is the 1-based number of the attempt that failed; at most `maxRetries` retries follow
 * the first attempt.
 *
 * Retried: 429, every 5xx, connection errors (refused, reset, a body cut short), timeouts of one
 * attempt, and a 2xx body that is not valid JSON (truncated or garbled, as a flaky proxy produces),
 * whatever the attempt that failed: all within the same `maxRetries` budget.
 * Not retried: other 4xx (the request is wrong or the key is), a missing key, a 2xx body that is
 * valid JSON but of the wrong shape (the service would send the same again), a body over its size
 * limit (`ResponseTooLargeError`) and the overall deadline (`TimeoutError` phase `deadline`).
 * @example
 * shouldRetry(503, 1, 2) // => true
 * shouldRetry(400, 1, 2) // => false
 * shouldRetry(429, 3, 2) // => false (retries used up)
 */
export function shouldRetry(failure: unknown, attempt: number, maxRetries: number): boolean {
  if (attempt > maxRetries) return false;
  if (typeof failure === "number") return failure === 429 || (failure >= 500 && failure <= 599);
  if (failure instanceof ResponseDecodeError) return failure.kind === "json";
  if (failure instanceof TimeoutError && failure.phase === "deadline") return false;
  return (
    failure instanceof RateLimitError ||
    failure instanceof ServerError ||
    failure instanceof ConnectionError ||
    failure instanceof TimeoutError
  );
}

/**
 * Inputs of {@link retryDelayMs} besides the attempt number.
 * @example const options: RetryDelayOptions = { baseMs: 100, maxMs: 5000, random: () => 0.5 };
 */
export interface RetryDelayOptions {
  /**
   * The service's `Retry-After`, in milliseconds, when it sent one; it wins over the backoff and
   * gets jitter above it (see {@link retryDelayMs}).
   */
  readonly retryAfterMs?: number;
  /** Backoff unit: the cap of the first wait. Default 500. */
  readonly baseMs?: number;
  /** Upper bound of every wait, `Retry-After` included. Default 30 000. */
  readonly maxMs?: number;
  /** Uniform [0, 1) source for the jitter. Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (1-based).
 *
 * With a `Retry-After` of R ms: never less than R, plus jitter so that the many clients a 429 sent
 * away do not all return in the same instant: `min(maxMs, R + random() × max(R / 4, baseMs))`,
 * i.e. uniform in [R, R + 25 %] (at least `baseMs` wide, so `Retry-After: 0` spreads too). An R at
 * or above `maxMs` waits exactly `maxMs`.
 *
 * Otherwise exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And
 * Jitter", 2015): `random() × min(maxMs, baseMs × 2^(attempt−1))`.
 * @example
 * retryDelayMs(3, { baseMs: 100, random: () => 0.5 }) // => 200 (0.5 × 100 × 2²)
 * retryDelayMs(1, { retryAfterMs: 2000, random: () => 0.5 }) // => 2250 (2000 + 0.5 × 500)
 * retryDelayMs(1, { retryAfterMs: 2000, random: () => 0 }) // => 2000
 */
export function retryDelayMs(attempt: number, options: RetryDelayOptions = {}): number {
  const { retryAfterMs, baseMs = 500, maxMs = 30_000, random = Math.random } = options;
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`retryDelayMs requires an integer attempt ≥ 1, got ${attempt}`);
  }
  if (!(baseMs >= 0) || !(maxMs >= 0)) {
    throw new RangeError(`retryDelayMs requires baseMs ≥ 0 and maxMs ≥ 0, got ${baseMs}, ${maxMs}`);
  }
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    const floorMs = Math.min(retryAfterMs, maxMs);
    const spreadMs = Math.max(floorMs * retryAfterJitterFraction, baseMs);
    return Math.min(maxMs, floorMs + random() * spreadMs);
  }
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return random() * ceiling;
}

/** Width of the jitter above a `Retry-After`, as a fraction of it. */
const retryAfterJitterFraction = 0.25;

/** Delay-seconds: digits, with an optional fraction (services and tests send `0.05`). */
const delaySecondsPattern = /^\d+(\.\d+)?$/;

/** The three HTTP date forms all start with a day name (`Sun, 06 Nov 1994 …`, `Sunday, …`, `Sun Nov  6 …`). */
const httpDatePattern = /^[A-Za-z]{3}/;

/**
 * Reads a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds, or an HTTP date, taken relative
 * to `nowMs`. Returns milliseconds (a past date gives 0), or `undefined` when the header is absent
 * or unreadable.
 * @example
 * parseRetryAfterMs("2", Date.now()) // => 2000
 * parseRetryAfterMs("Wed, 21 Oct 2015 07:28:05 GMT", Date.parse("2015-10-21T07:28:00Z")) // => 5000
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (delaySecondsPattern.test(text)) return Number(text) * 1000;
  const dateMs = httpDatePattern.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, dateMs - nowMs);
}
