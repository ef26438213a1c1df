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
 * Retried: 429, every 5xx, connection errors (refused, reset, truncated body) and timeouts.
 * Not retried: other 4xx (the request is wrong or the key is), a missing key, and a 2xx body that
 * is valid JSON but of the wrong shape (the service would send the same again). A 2xx body that is
 * not valid JSON (as a flaky proxy produces) is retried once, only after the first attempt.
 * @example
 * shouldRetry(503, 1, 2) // => true
 * shouldRetry(400, 1, 2) // => false
 * shouldRetry(429, 3, 2) // => false (retries used up)
 */
export function shouldRetry(failure: unknown, attempt: number, maxRetries: number): boolean {
  if (attempt > maxRetries) return false;
  if (typeof failure === "number") return failure === 429 || (failure >= 500 && failure <= 599);
  if (failure instanceof ResponseDecodeError) return failure.kind === "json" && attempt === 1;
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
  /** The service's `Retry-After`, in milliseconds, when it sent one; it wins over the backoff. */
  readonly retryAfterMs?: number;
  /** Backoff unit: the cap of the first wait. Default 500. */
  readonly baseMs?: number;
  /** Upper bound of every wait, `Retry-After` included. Default 30 000. */
  readonly maxMs?: number;
  /** Uniform [0, 1) source for the jitter. Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (1-based). With a `Retry-After`, that
 * wait, capped at `maxMs` (no jitter: the service named the time). Otherwise exponential backoff
 * with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015):
 * `random() × min(maxMs, baseMs × 2^(attempt−1))`.
 * @example
 * retryDelayMs(3, { baseMs: 100, random: () => 0.5 }) // => 200 (0.5 × 100 × 2²)
 * retryDelayMs(1, { retryAfterMs: 2000 }) // => 2000
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
    return Math.min(retryAfterMs, maxMs);
  }
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return random() * ceiling;
}

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
