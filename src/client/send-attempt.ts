/**
 * One HTTP attempt over undici: send a GET, read the whole body, and turn transport failures into
 * {@link TimeoutError} or {@link ConnectionError} (with a redacted `cause`). Statuses are not judged
 * here: any response that arrives complete is returned.
 */
import { request, type Dispatcher } from "undici";
import { ConnectionError, TimeoutError, type TimeoutPhase } from "./errors.ts";
import { redact, redactError, redactSecrets } from "./redact.ts";
import type { ResponseHeaders } from "./quota-headers.ts";

/**
 * The explicit time limits of one attempt, in milliseconds.
 * @example const timeouts: AttemptTimeouts = { attemptMs: 60_000, connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };
 */
export interface AttemptTimeouts {
  /** The whole attempt: connect, headers and body together (an AbortSignal timer). */
  readonly attemptMs: number;
  /** Establishing the connection; applies through the client's own Agent (see `createClient`). */
  readonly connectMs: number;
  /** From sending the request to the complete response headers (undici `headersTimeout`). */
  readonly headersMs: number;
  /** Longest pause between two chunks of the body (undici `bodyTimeout`). */
  readonly bodyMs: number;
}

/**
 * What {@link sendAttempt} needs.
 * @example
 * const attempt: AttemptRequest = {
 *   operation: "/leaderboard/latest", url: "http://127.0.0.1:8080/leaderboard/latest",
 *   headers: { accept: "application/json" }, dispatcher: new Agent(), timeouts, secrets: [],
 * };
 */
export interface AttemptRequest {
  /** The spec's path, for error messages. */
  readonly operation: string;
  /** Full URL with query string. It carries no secret: the key travels in a header. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly dispatcher: Dispatcher;
  readonly timeouts: AttemptTimeouts;
  /** Secrets to redact from anything a failure reports (the API key). */
  readonly secrets: readonly string[];
  /** Cancels the attempt; it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * A response read to its end.
 * @example
 * const { status, bodyText, bytes }: AttemptResponse = await sendAttempt(attempt);
 */
export interface AttemptResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The body as UTF-8 text, with every secret already replaced by `[REDACTED]`. */
  readonly bodyText: string;
  /** Size of the body as received, in bytes. */
  readonly bytes: number;
}

/** undici's timeout codes and the phase each one means. */
const timeoutPhases: ReadonlyMap<string, TimeoutPhase> = new Map([
  ["UND_ERR_CONNECT_TIMEOUT", "connect"],
  ["UND_ERR_HEADERS_TIMEOUT", "headers"],
  ["UND_ERR_BODY_TIMEOUT", "body"],
]);

const phaseWords: Readonly<Record<TimeoutPhase, string>> = {
  connect: "connecting (connectTimeoutMs)",
  headers: "waiting for the response headers (headersTimeoutMs)",
  body: "waiting for more of the response body (bodyTimeoutMs)",
  attempt: "for the whole attempt (timeoutMs)",
};

const utf8 = new TextDecoder("utf-8");

/**
 * Sends one GET and reads the body to its end, within the attempt's timeouts. The body's text comes
 * back with the secrets redacted (see {@link AttemptResponse}).
 * @example
 * const response = await sendAttempt({
 *   operation: "/leaderboard/latest",
 *   url: "http://127.0.0.1:8080/leaderboard/latest",
 *   headers: { accept: "application/json" },
 *   dispatcher: new Agent(),
 *   timeouts: { attemptMs: 30_000, connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
 *   secrets: [],
 * });
 * response.status; // => 200
 */
export async function sendAttempt(attempt: AttemptRequest): Promise<AttemptResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, attempt.timeouts.attemptMs);
  const cancel = () => controller.abort();
  attempt.signal?.addEventListener("abort", cancel, { once: true });
  try {
    attempt.signal?.throwIfAborted();
    const response = await request(attempt.url, {
      method: "GET",
      headers: attempt.headers,
      dispatcher: attempt.dispatcher,
      headersTimeout: attempt.timeouts.headersMs,
      bodyTimeout: attempt.timeouts.bodyMs,
      signal: controller.signal,
    });
    const body = new Uint8Array(await response.body.arrayBuffer());
    return {
      status: response.statusCode,
      headers: response.headers,
      // Redacted at once, so that nothing derived from the body (an error's excerpt, a JSON
      // parser's message quoting part of it, a decoded record) can show an echoed key.
      bodyText: redactSecrets(utf8.decode(body), attempt.secrets),
      bytes: body.byteLength,
    };
  } catch (error) {
    if (attempt.signal?.aborted) throw attempt.signal.reason;
    throw transportError(attempt, error, timedOut);
  } finally {
    clearTimeout(timer);
    attempt.signal?.removeEventListener("abort", cancel);
  }
}

/** The code of an error or of the first cause that has one (`ECONNREFUSED` hides in a cause). */
function errorCode(error: unknown): string | undefined {
  for (
    let link = error, depth = 0;
    link instanceof Error && depth < 8;
    link = link.cause, ++depth
  ) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

function transportError(attempt: AttemptRequest, error: unknown, timedOut: boolean): Error {
  const { operation, secrets, timeouts } = attempt;
  const cause = redactError(error, secrets);
  const code = errorCode(error);
  const where = `GET ${redact(attempt.url, secrets)}`;
  const phase = timedOut ? "attempt" : code === undefined ? undefined : timeoutPhases.get(code);
  if (phase !== undefined) {
    const timeoutMs = {
      attempt: timeouts.attemptMs,
      connect: timeouts.connectMs,
      headers: timeouts.headersMs,
      body: timeouts.bodyMs,
    }[phase];
    return new TimeoutError(
      `${operation}: timed out after ${timeoutMs} ms ${phaseWords[phase]}: ${where}`,
      { operation, phase, timeoutMs, cause },
    );
  }
  return new ConnectionError(
    `${operation}: connection failed (${code ?? cause.name}: ${cause.message}): ${where}`,
    { operation, code, cause },
  );
}
