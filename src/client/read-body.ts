/**
 * Reading a response body within the operation's size limit: whole (`readBounded`), or chunk by
 * chunk into a {@link BodyConsumer} that decodes it as it arrives (`readStreamed`).
 */
import type { request } from "undici";
import { formatBytes } from "./body-limits.ts";
import { ResponseTooLargeError } from "./errors.ts";
import type { ResponseHeaders } from "./quota-headers.ts";
import { redact, redactError, redactSecrets } from "./redact.ts";
import type { AttemptRequest, AttemptResponse, BodyConsumer } from "./attempt.ts";

const utf8 = new TextDecoder("utf-8");

/**
 * Bytes of a streamed body kept for error messages.
 * @example STREAMED_HEAD_BYTES // => 512
 */
export const STREAMED_HEAD_BYTES = 512;

/**
 * A {@link BodyConsumer} that threw: the body was left unread from there (the connection is
 * closed). Carries the response's status, the consumer's error and the first bytes of the body
 * (redacted), for the caller to report as a decoding failure.
 * @example if (error instanceof BodyConsumerError) console.error(error.status, error.cause);
 */
export class BodyConsumerError extends Error {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The first bytes of the body as text, redacted. */
  readonly headText: string;
  /** Bytes received up to and including the chunk the consumer refused. */
  readonly bytes: number;
  constructor(
    cause: unknown,
    details: { status: number; headers: ResponseHeaders; headText: string; bytes: number },
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.status = details.status;
    this.headers = details.headers;
    this.headText = details.headText;
    this.bytes = details.bytes;
  }
}

/** A response as undici's `request` resolves it. */
export type UndiciResponse = Awaited<ReturnType<typeof request>>;

/**
 * Reads the body into one buffer, never more than `attempt.maxBodyBytes` of it: the declared
 * length is checked first, then the running total after each chunk. With a declared length the
 * chunks are copied into one buffer of that size as they come (one copy of the body in memory);
 * without one they are kept and joined at the end.
 */
export async function readBounded(
  attempt: AttemptRequest,
  response: UndiciResponse,
): Promise<Buffer> {
  const declaredBytes = refuseDeclaredOverLimit(attempt, response);
  let whole = Number.isSafeInteger(declaredBytes) ? Buffer.allocUnsafe(declaredBytes) : undefined;
  const chunks: Buffer[] = [];
  let receivedBytes = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    const endBytes = receivedBytes + chunk.byteLength;
    refuseReceivedOverLimit(attempt, response, endBytes);
    if (whole !== undefined && endBytes > whole.byteLength) {
      // More than declared (undici normally fails such a body first): go on with chunks.
      chunks.push(whole.subarray(0, receivedBytes));
      whole = undefined;
    }
    if (whole === undefined) chunks.push(chunk);
    else whole.set(chunk, receivedBytes);
    receivedBytes = endBytes;
  }
  if (whole !== undefined) return whole.subarray(0, receivedBytes);
  return Buffer.concat(chunks, receivedBytes);
}

/**
 * Hands the body to `consumer` chunk by chunk within `attempt.maxBodyBytes` (checked as in
 * {@link readBounded}), keeping only its first {@link STREAMED_HEAD_BYTES} bytes.
 */
export async function readStreamed(
  attempt: AttemptRequest,
  response: UndiciResponse,
  consumer: BodyConsumer,
): Promise<AttemptResponse> {
  refuseDeclaredOverLimit(attempt, response);
  // Room for a secret (or its URL-encoded form) that starts inside the excerpt and ends past it.
  const longestSecret = Math.max(0, ...attempt.secrets.map((secret) => 3 * secret.length));
  const head = Buffer.allocUnsafe(STREAMED_HEAD_BYTES + longestSecret);
  let headBytes = 0;
  let receivedBytes = 0;
  const headText = () => excerpt(head.subarray(0, headBytes), attempt.secrets);
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    receivedBytes += chunk.byteLength;
    refuseReceivedOverLimit(attempt, response, receivedBytes);
    if (headBytes < head.byteLength) {
      headBytes += chunk.copy(head, headBytes, 0, head.byteLength - headBytes);
    }
    try {
      consumer.push(chunk);
    } catch (error) {
      throw consumerFailure(attempt, response, error, headText(), receivedBytes);
    }
  }
  return {
    status: response.statusCode,
    headers: response.headers,
    bodyText: headText(),
    bytes: receivedBytes,
    streamed: true,
  };
}

/**
 * The consumer `attempt.bodyConsumer` gives for the response, if any; when making it throws, the
 * body is left unread (the connection is closed) and a {@link BodyConsumerError} says why.
 */
export function startConsumer(
  attempt: AttemptRequest,
  response: UndiciResponse,
): BodyConsumer | undefined {
  try {
    return attempt.bodyConsumer?.(response.statusCode);
  } catch (error) {
    throw consumerFailure(attempt, response, error, "", 0);
  }
}

/**
 * The {@link BodyConsumerError} of a consumer that threw, the body left unread: the consumer's
 * error is kept as it is unless its message shows a secret.
 */
function consumerFailure(
  attempt: AttemptRequest,
  response: UndiciResponse,
  error: unknown,
  headText: string,
  bytes: number,
): BodyConsumerError {
  discard(response);
  const safe =
    error instanceof Error && redact(error.message, attempt.secrets) === error.message
      ? error
      : redactError(error, attempt.secrets);
  return new BodyConsumerError(safe, {
    status: response.statusCode,
    headers: response.headers,
    headText,
    bytes,
  });
}

/**
 * The first {@link STREAMED_HEAD_BYTES} characters of `bytes` as text, with the secrets redacted
 * and the start of a secret that the end cuts off dropped.
 */
function excerpt(bytes: Uint8Array, secrets: readonly string[]): string {
  let text = redactSecrets(utf8.decode(bytes), secrets).slice(0, STREAMED_HEAD_BYTES);
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length > 0; length--) {
      if (text.endsWith(secret.slice(0, length))) {
        text = text.slice(0, -length);
        break;
      }
    }
  }
  return text;
}

/**
 * The body's declared length (`Content-Length`, NaN without one); throws a
 * `ResponseTooLargeError` without reading when it is over the limit.
 */
function refuseDeclaredOverLimit(attempt: AttemptRequest, response: UndiciResponse): number {
  const declared = response.headers["content-length"];
  const declaredBytes = typeof declared === "string" ? Number(declared) : Number.NaN;
  if (declaredBytes > attempt.maxBodyBytes) {
    // Destroying the unread body closes the connection: nothing more is received.
    discard(response);
    throw tooLarge(attempt, response.statusCode, `Content-Length ${declaredBytes} refused unread`, {
      limitBytes: attempt.maxBodyBytes,
      declaredBytes,
    });
  }
  return declaredBytes;
}

/**
 * Throws a `ResponseTooLargeError`, the rest of the body left unread, once `receivedBytes` is over
 * the limit.
 */
function refuseReceivedOverLimit(
  attempt: AttemptRequest,
  response: UndiciResponse,
  receivedBytes: number,
): void {
  if (receivedBytes <= attempt.maxBodyBytes) return;
  discard(response);
  throw tooLarge(attempt, response.statusCode, `cut off after ${receivedBytes} bytes`, {
    limitBytes: attempt.maxBodyBytes,
    receivedBytes,
  });
}

/** Closes the connection of a body left unread (undici reports that as an abort, ignored here). */
function discard(response: UndiciResponse): void {
  response.body.on("error", () => {});
  response.body.destroy();
}

function tooLarge(
  attempt: AttemptRequest,
  status: number,
  what: string,
  sizes: { limitBytes: number; declaredBytes?: number; receivedBytes?: number },
): ResponseTooLargeError {
  const { operation } = attempt;
  return new ResponseTooLargeError(
    `${operation}: HTTP ${status}: response body over the limit of ${formatBytes(sizes.limitBytes)} ` +
      `for this operation (maxBodyBytes): ${what}: GET ${redact(attempt.url, attempt.secrets)}`,
    { operation, status, ...sizes },
  );
}
