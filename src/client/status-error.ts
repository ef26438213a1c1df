/**
 * The typed error for a response whose status is not 2xx (statuses are described in
 * `errors.ts`; the spec itself lists only 400 and 500, both with a string body).
 */
import {
  AuthenticationError,
  BadRequestError,
  PathlabHttpError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
} from "./errors.ts";

/** How much of a response body an error keeps, in characters. @example bodyExcerptLength // => 500 */
export const bodyExcerptLength = 500;

/**
 * The first `maximumLength` characters of a body (default {@link bodyExcerptLength}), with a note
 * of how many were cut.
 * @example
 * truncateBody("abcdef", 4) // => "abcd… (2 more characters)"
 */
export function truncateBody(text: string, maximumLength: number = bodyExcerptLength): string {
  if (text.length <= maximumLength) return text;
  const cut = text.length - maximumLength;
  return `${text.slice(0, maximumLength)}… (${cut} more character${cut === 1 ? "" : "s"})`;
}

/**
 * What {@link errorForStatus} needs; `bodyText` must already be redacted.
 * @example const input: StatusErrorInput = { operation: "/insights/liquidation", status: 402, bodyText: "no credits" };
 */
export interface StatusErrorInput {
  readonly operation: string;
  readonly status: number;
  readonly bodyText: string;
  readonly retryAfterMs?: number;
  /** The `Location` header of a redirect, which the client does not follow. */
  readonly location?: string;
}

/**
 * The error class and message for a non-2xx response: 401/403 {@link AuthenticationError}, 402
 * {@link PaymentRequiredError}, 429 {@link RateLimitError}, other 4xx {@link BadRequestError}, 5xx
 * {@link ServerError}, anything else (1xx, 3xx) {@link PathlabHttpError}.
 * @example
 * errorForStatus({ operation: "/insights/liquidation", status: 400, bodyText: "unknown asset" }).message
 * // => '/insights/liquidation: HTTP 400 (the service rejected the request): "unknown asset"'
 */
export function errorForStatus(input: StatusErrorInput): PathlabHttpError {
  const { operation, status, retryAfterMs, location } = input;
  const bodyText = truncateBody(input.bodyText);
  const details = { operation, status, bodyText, retryAfterMs };
  const body = bodyText === "" ? "empty body" : JSON.stringify(bodyText);
  const wait = retryAfterMs === undefined ? "" : `, Retry-After ${retryAfterMs} ms`;
  const message = (meaning: string) => `${operation}: HTTP ${status} (${meaning}${wait}): ${body}`;
  if (status === 401 || status === 403) {
    return new AuthenticationError(message("the API key was refused"), details);
  }
  if (status === 402) {
    return new PaymentRequiredError(message("payment required: no credits left"), details);
  }
  if (status === 429) return new RateLimitError(message("rate limited"), details);
  if (status >= 400 && status <= 499) {
    return new BadRequestError(message("the service rejected the request"), details);
  }
  if (status >= 500 && status <= 599) return new ServerError(message("server error"), details);
  const redirect =
    location === undefined ? "" : `; redirected to ${location}, which the client does not follow`;
  return new PathlabHttpError(message(`unexpected status${redirect}`), details);
}
