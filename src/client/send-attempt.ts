/**
 * One HTTP attempt over undici: send a GET, read the body up to the operation's size limit (whole,
 * or chunk by chunk into the attempt's `bodyConsumer`), and turn transport failures into
 * {@link TimeoutError} or {@link ConnectionError} (with a redacted `cause`), and an oversized body
 * into {@link ResponseTooLargeError}. Statuses are not judged here: any response that arrives
 * complete is returned.
 */
import { request } from "undici";
import {
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
  type TimeoutPhase,
} from "./errors.ts";
import { redact, redactError, redactSecrets } from "./redact.ts";
import type { AttemptRequest, AttemptResponse } from "./attempt.ts";
import { BodyConsumerError, readBounded, readStreamed, startConsumer } from "./read-body.ts";

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
  deadline: "for the whole call, all attempts and waits (deadlineMs)",
};

const utf8 = new TextDecoder("utf-8");

/**
 * Sends one GET and reads the body to its end, within the attempt's timeouts and `maxBodyBytes`.
 * A `Content-Length` over the limit is refused before reading; a body that grows past it is cut
 * off there (the connection is closed), so at most the limit is held. The body's text comes back
 * with the secrets redacted (see {@link AttemptResponse}).
 * @example
 * const response = await sendAttempt({
 *   operation: "/leaderboard/latest",
 *   url: "http://127.0.0.1:8080/leaderboard/latest",
 *   headers: { accept: "application/json" },
 *   dispatcher: new Agent(),
 *   timeouts: { attemptMs: 30_000, connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
 *   secrets: [],
 *   maxBodyBytes: 8_388_608,
 * });
 * response.status; // => 200
 */
export async function sendAttempt(attempt: AttemptRequest): Promise<AttemptResponse> {
  const controller = new AbortController();
  const { attemptMs, remainingMs = Number.POSITIVE_INFINITY } = attempt.timeouts;
  const limitPhase: TimeoutPhase = remainingMs < attemptMs ? "deadline" : "attempt";
  let timedOut: TimeoutPhase | undefined;
  const timer = setTimeout(
    () => {
      timedOut = limitPhase;
      controller.abort();
    },
    Math.max(0, Math.min(attemptMs, remainingMs)),
  );
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
    const consumer = startConsumer(attempt, response);
    if (consumer !== undefined) return await readStreamed(attempt, response, consumer);
    const body = await readBounded(attempt, response);
    return {
      status: response.statusCode,
      headers: response.headers,
      // Redacted at once, so that nothing derived from the body (an error's excerpt, a JSON
      // parser's message quoting part of it, a decoded record) can show an echoed key.
      bodyText: redactSecrets(utf8.decode(body), attempt.secrets),
      bytes: body.byteLength,
      streamed: false,
    };
  } catch (error) {
    if (attempt.signal?.aborted) throw attempt.signal.reason;
    if (error instanceof ResponseTooLargeError || error instanceof BodyConsumerError) throw error;
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

function transportError(
  attempt: AttemptRequest,
  error: unknown,
  timedOut: TimeoutPhase | undefined,
): Error {
  const { operation, secrets, timeouts } = attempt;
  const cause = redactError(error, secrets);
  const code = errorCode(error);
  const where = `GET ${redact(attempt.url, secrets)}`;
  const phase = timedOut ?? (code === undefined ? undefined : timeoutPhases.get(code));
  if (phase !== undefined) {
    const timeoutMs = {
      attempt: timeouts.attemptMs,
      connect: timeouts.connectMs,
      headers: timeouts.headersMs,
      body: timeouts.bodyMs,
      deadline: timeouts.deadlineMs ?? timeouts.attemptMs,
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
