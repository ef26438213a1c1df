/**
 * What the client reports to `onEvent` while it works, for progress bars and logs. Events carry the
 * operation (the spec's path), the attempt number and measurements, never a header or the key.
 */

/**
 * An attempt is about to be sent (after the parameters and the key were checked).
 * @example const event: RequestEvent = { type: "request", operation: "/insights/liquidation", attempt: 1 };
 */
export interface RequestEvent {
  readonly type: "request";
  readonly operation: string;
  /** 1-based attempt number. */
  readonly attempt: number;
}

/**
 * A response arrived and its body was read, whatever its status.
 * @example
 * const event: ResponseEvent = {
 *   type: "response", operation: "/insights/liquidation", attempt: 1, status: 200, durationMs: 84, bytes: 5120,
 * };
 */
export interface ResponseEvent {
  readonly type: "response";
  readonly operation: string;
  readonly attempt: number;
  readonly status: number;
  /** From sending the attempt to the end of the body. */
  readonly durationMs: number;
  /** Body size as received. */
  readonly bytes: number;
}

/**
 * An attempt failed and another follows after `delayMs`.
 * @example
 * const event: RetryEvent = {
 *   type: "retry", operation: "/insights/liquidation", attempt: 1, delayMs: 250,
 *   reason: "ServerError", status: 503, message: "/insights/liquidation: HTTP 503 (server error): empty body",
 * };
 */
export interface RetryEvent {
  readonly type: "retry";
  readonly operation: string;
  /** The attempt that failed. */
  readonly attempt: number;
  readonly delayMs: number;
  /** The error's class name, e.g. `RateLimitError`. */
  readonly reason: string;
  readonly status?: number;
  /** The error's message (redacted, like every client error). */
  readonly message: string;
}

/**
 * The call failed for good; the same error is thrown to the caller.
 * @example
 * const event: FailureEvent = {
 *   type: "failure", operation: "/insights/liquidation", attempt: 1,
 *   reason: "BadRequestError", status: 400, message: '/insights/liquidation: HTTP 400 (…): "bad asset"',
 * };
 */
export interface FailureEvent {
  readonly type: "failure";
  readonly operation: string;
  /** The last attempt made. */
  readonly attempt: number;
  readonly reason: string;
  readonly status?: number;
  readonly message: string;
}

/**
 * One event of a client call: `request` → (`response`) → `retry` → … → the result or `failure`.
 * @example
 * const client = createClient({
 *   baseUrl,
 *   onEvent: (event) => {
 *     if (event.type === "response") console.log(event.operation, event.status, event.bytes);
 *   },
 * });
 */
export type ClientEvent = RequestEvent | ResponseEvent | RetryEvent | FailureEvent;
