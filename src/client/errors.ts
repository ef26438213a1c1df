/**
 * The client's typed errors. Every failure of a request is a {@link PathlabHttpError} that names
 * the operation (the spec's path) and, when a response arrived, its HTTP status and the start of
 * its body. The client builds them from redacted text and redacted causes only (`redact.ts`), so
 * `message`, `stack`, `cause`, `JSON.stringify` and `util.inspect` never show the API key.
 */

/**
 * What every client error carries.
 * @example
 * const details: PathlabHttpErrorDetails = { operation: "/insights/liquidation", status: 503 };
 */
export interface PathlabHttpErrorDetails {
  /** The spec's path of the operation, e.g. `/insights/liquidation`. */
  readonly operation: string;
  /** HTTP status of the response, when one arrived. */
  readonly status?: number;
  /** The response body's text, truncated (about 500 characters) and redacted. */
  readonly bodyText?: string;
  /** The wait the service asked for with `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;
  /** The underlying failure (a redacted copy for transport errors). */
  readonly cause?: unknown;
}

/**
 * Base class of every error the client throws for a request that was attempted or refused.
 * Also used as is for statuses outside the classes below (1xx, 3xx: redirects are not followed).
 * @example
 * try {
 *   await client.insights.liquidation({ asset: "BTC" });
 * } catch (error) {
 *   if (error instanceof PathlabHttpError) console.error(error.operation, error.status, error.message);
 * }
 */
export class PathlabHttpError extends Error {
  readonly operation: string;
  readonly status: number | undefined;
  readonly bodyText: string | undefined;
  readonly retryAfterMs: number | undefined;

  /**
   * @param message - the error's message, already redacted.
   * @param details - the operation, and the status, body text, wait and cause when there are some.
   */
  constructor(message: string, details: PathlabHttpErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    // Non-enumerable like Error's own `name`, so it does not repeat in util.inspect.
    Object.defineProperty(this, "name", { value: new.target.name, configurable: true });
    this.operation = details.operation;
    this.status = details.status;
    this.bodyText = details.bodyText;
    this.retryAfterMs = details.retryAfterMs;
  }

  /**
   * A plain, key-free description for `JSON.stringify` (an Error's message is not enumerable).
   * @example
   * JSON.stringify(error) // => '{"name":"ServerError","message":"…","operation":"/insights/liquidation","status":503,…}'
   */
  toJSON(): Record<string, unknown> {
    const cause = this.cause;
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      status: this.status,
      bodyText: this.bodyText,
      retryAfterMs: this.retryAfterMs,
      cause:
        cause instanceof Error
          ? { name: cause.name, message: cause.message, code: (cause as { code?: unknown }).code }
          : cause,
    };
  }
}

/**
 * A 4xx response other than 401, 402, 403 and 429 (400, 404, 422, …): the request is wrong and
 * is not retried.
 * @example
 * new BadRequestError('/insights/liquidation: HTTP 400: "unknown asset"', { operation: "/insights/liquidation", status: 400 });
 */
export class BadRequestError extends PathlabHttpError {}

/**
 * A 401 or 403 response: the API key is missing, wrong or not allowed for the operation.
 * @example
 * error instanceof AuthenticationError && error.status === 401
 */
export class AuthenticationError extends PathlabHttpError {}

/**
 * Whether `error` is an {@link AuthenticationError}, here or as a worker thread gave it back (by
 * name: a thread's errors lose their class on the way).
 * @param error - what was thrown or rejected, of any type.
 * @example isAuthenticationError(error) // => true for a 401 or a 403, on any thread
 */
export function isAuthenticationError(error: unknown): boolean {
  return (
    error instanceof AuthenticationError ||
    (error instanceof Error && ["AuthenticationError", "MissingApiKeyError"].includes(error.name))
  );
}

/**
 * Thrown before sending, without any request going out, when an operation that requires the
 * `Authorization` header is called on a client created without an API key.
 * @example
 * await createClient({ baseUrl }).insights.liquidation({}); // throws MissingApiKeyError
 */
export class MissingApiKeyError extends AuthenticationError {}

/**
 * A 402 response: the account has no credits left for a credit-consuming (insights) operation.
 * @example
 * error instanceof PaymentRequiredError && error.status === 402
 */
export class PaymentRequiredError extends PathlabHttpError {}

/**
 * A 429 response: rate limited. `retryAfterMs` holds the service's `Retry-After`, when sent.
 * @example
 * if (error instanceof RateLimitError) console.log(`retry in ${error.retryAfterMs} ms`);
 */
export class RateLimitError extends PathlabHttpError {}

/**
 * A 5xx response (`retryAfterMs` is set when a 503 sends `Retry-After`).
 * @example
 * error instanceof ServerError && error.status === 503
 */
export class ServerError extends PathlabHttpError {}

/**
 * Which limit a {@link TimeoutError} hit: one of an attempt's (`connect`, `headers`, `body`,
 * `attempt`, all retried) or the overall `deadline` of the call across its attempts and the waits
 * between them (not retried).
 * @example const phase: TimeoutPhase = "headers";
 */
export type TimeoutPhase = "connect" | "headers" | "body" | "attempt" | "deadline";

/**
 * A connect, headers, body or whole-attempt timeout, or the call's overall deadline (`deadlineMs`).
 * @example
 * if (error instanceof TimeoutError) console.log(error.phase, error.timeoutMs);
 */
export class TimeoutError extends PathlabHttpError {
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  /**
   * @param message - the error's message, already redacted.
   * @param details - what every client error carries, with the phase that timed out and its limit
   *   in milliseconds.
   */
  constructor(
    message: string,
    details: PathlabHttpErrorDetails & { phase: TimeoutPhase; timeoutMs: number },
  ) {
    super(message, details);
    this.phase = details.phase;
    this.timeoutMs = details.timeoutMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), phase: this.phase, timeoutMs: this.timeoutMs };
  }
}

/**
 * The connection failed before or while the response was read: refused, reset, closed early
 * (including a body shorter than its `Content-Length`), DNS or TLS failure. `code` is the
 * transport's code, such as `ECONNREFUSED` or `UND_ERR_SOCKET`.
 * @example
 * if (error instanceof ConnectionError) console.log(error.code);
 */
export class ConnectionError extends PathlabHttpError {
  readonly code: string | undefined;

  /**
   * @param message - the error's message, already redacted.
   * @param details - what every client error carries, with the transport's code (`ECONNREFUSED`)
   *   when it has one.
   */
  constructor(message: string, details: PathlabHttpErrorDetails & { code?: string }) {
    super(message, details);
    this.code = details.code;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), code: this.code };
  }
}

/**
 * What was wrong with a 2xx body: `json` (not valid JSON, as from a flaky proxy) or `shape`
 * (valid JSON that the spec's decoder rejected; its `DecodeError` is the `cause`).
 * @example const kind: DecodeFailureKind = "shape";
 */
export type DecodeFailureKind = "json" | "shape";

/**
 * A 2xx response whose body could not be decoded into the operation's record.
 * @example
 * if (error instanceof ResponseDecodeError && error.kind === "shape") console.log(error.cause);
 */
export class ResponseDecodeError extends PathlabHttpError {
  readonly kind: DecodeFailureKind;

  /**
   * @param message - the error's message, already redacted.
   * @param details - what every client error carries, with what failed: `"json"` (not JSON) or
   *   `"shape"` (not the operation's record).
   */
  constructor(message: string, details: PathlabHttpErrorDetails & { kind: DecodeFailureKind }) {
    super(message, details);
    this.kind = details.kind;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), kind: this.kind };
  }
}

/**
 * What {@link ResponseTooLargeError} adds to {@link PathlabHttpErrorDetails}.
 * @example
 * const details: ResponseTooLargeDetails = {
 *   operation: "/v2/prediction/latest", status: 200, limitBytes: 67_108_864, declaredBytes: 2 ** 31,
 * };
 */
export interface ResponseTooLargeDetails extends PathlabHttpErrorDetails {
  /** The operation's body limit (`maxBodyBytes`), in bytes. */
  readonly limitBytes: number;
  /** The response's `Content-Length`, when it declared one over the limit (nothing was read). */
  readonly declaredBytes?: number;
  /** Bytes read before the body was cut off, when it grew past the limit. */
  readonly receivedBytes?: number;
}

/**
 * A response body larger than the operation's limit (`maxBodyBytes`): refused from its
 * `Content-Length` before any of it is read, or cut off (the connection closed) once it grows past
 * the limit. Not retried: the service would send the same again.
 * @example
 * if (error instanceof ResponseTooLargeError) console.log(error.operation, error.limitBytes);
 */
export class ResponseTooLargeError extends PathlabHttpError {
  readonly limitBytes: number;
  readonly declaredBytes: number | undefined;
  readonly receivedBytes: number | undefined;

  /**
   * @param message - the error's message, already redacted.
   * @param details - what every client error carries, with the body limit and the bytes declared or
   *   read.
   */
  constructor(message: string, details: ResponseTooLargeDetails) {
    super(message, details);
    this.limitBytes = details.limitBytes;
    this.declaredBytes = details.declaredBytes;
    this.receivedBytes = details.receivedBytes;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      limitBytes: this.limitBytes,
      declaredBytes: this.declaredBytes,
      receivedBytes: this.receivedBytes,
    };
  }
}
