/**
 * The shapes of one HTTP attempt: what it is asked (`AttemptRequest`), what it answers
 * (`AttemptResponse`), its time limits, and the consumer a streamed body goes to. `sendAttempt`
 * sends it, `read-body.ts` reads its body.
 */
import type { Dispatcher } from "undici";
import type { ResponseHeaders } from "./quota-headers.ts";

/**
 * Takes a response body chunk by chunk, as {@link AttemptRequest.bodyConsumer} hands it over. A
 * chunk is only valid during the call (undici may reuse its memory): copy what must outlive it.
 * A `push` that throws ends the attempt with a {@link BodyConsumerError}.
 * @example const consumer: BodyConsumer = { push: (chunk) => void (total += chunk.byteLength) };
 */
export interface BodyConsumer {
  push(chunk: Uint8Array): void;
}

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
  /** The call's overall deadline (all attempts), for the error's message. */
  readonly deadlineMs?: number;
  /** What is left of the deadline when this attempt starts; the attempt ends then at the latest. */
  readonly remainingMs?: number;
}

/**
 * What {@link sendAttempt} needs.
 * @example
 * const attempt: AttemptRequest = {
 *   operation: "/leaderboard/latest", url: "http://127.0.0.1:8080/leaderboard/latest",
 *   headers: { accept: "application/json" }, dispatcher: new Agent(), timeouts, secrets: [],
 *   maxBodyBytes: 8_388_608,
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
  /** Largest body read, in bytes; a larger one fails with {@link ResponseTooLargeError}. */
  readonly maxBodyBytes: number;
  /** Cancels the attempt; it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Called once the status is known: a consumer it returns takes the body chunk by chunk as it
   * arrives, and the body is not kept (the response's `bodyText` then holds only its first
   * `STREAMED_HEAD_BYTES` (`read-body.ts`) bytes, for error messages). `undefined` keeps the body as usual.
   */
  readonly bodyConsumer?: (status: number) => BodyConsumer | undefined;
}

/**
 * A response read to its end.
 * @example
 * const { status, bodyText, bytes }: AttemptResponse = await sendAttempt(attempt);
 */
export interface AttemptResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /**
   * The body as UTF-8 text, with every secret already replaced by `[REDACTED]`; only its first
   * bytes when it was `streamed`.
   */
  readonly bodyText: string;
  /** Size of the body as received, in bytes. */
  readonly bytes: number;
  /** Whether the body went to the attempt's {@link BodyConsumer} instead of `bodyText`. */
  readonly streamed: boolean;
}
