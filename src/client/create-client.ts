/**
 * `createClient`: the typed HTTP client of every operation of the interface. One call is: check
 * the parameters (`encodeQuery`) and the key, then attempts (bounded by a semaphore shared by all
 * calls of the client) with retries as `shouldRetry` / `retryDelayMs` decide, then decoding with
 * the operation's decoder under the deployment's naming.
 * Over 300 lines: a call's steps (attempt, status error, decoding) share the client's closure (the
 * key, the semaphore, the quota state), which keeps the key out of every object.
 */
import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher } from "undici";
import { DecodeError } from "../domain/errors.ts";
import { wirePath } from "../domain/naming.ts";
import type { Operation } from "../domain/operation.ts";
import {
  operationByPath,
  operations,
  operationTable,
  type OperationPath,
} from "../domain/operations.ts";
import { encodeQuery } from "../domain/query.ts";
import {
  MissingApiKeyError,
  PathlabHttpError,
  ResponseDecodeError,
  TimeoutError,
  type DecodeFailureKind,
} from "./errors.ts";
import type { ClientEvent } from "./events.ts";
import { exchangeHeaders } from "./exchange.ts";
import { resolveClientOptions, type ClientOptions } from "./options.ts";
import type { PathlabClient } from "./pathlab-client.ts";
import {
  headerText,
  readCredits,
  readRateLimit,
  type CreditState,
  type RateLimitState,
} from "./quota-headers.ts";
import { redact, redactError, redactSecrets } from "./redact.ts";
import { parseRetryAfterMs, retryDelayMs, shouldRetry } from "./retry.ts";
import { createSemaphore } from "./semaphore.ts";
import { BodyConsumerError } from "./read-body.ts";
import type { AttemptResponse } from "./attempt.ts";
import { sendAttempt } from "./send-attempt.ts";
import { errorForStatus, truncateBody } from "./status-error.ts";
import { DecodeAsUsual, type StreamedDecoder, type StreamedDecoding } from "./streamed-decoder.ts";

type UntypedOperation = Operation<string, unknown, unknown>;

const utf8 = new TextDecoder("utf-8");

/**
 * Creates a client of one deployment. The API key is held in a closure only: the client object,
 * its errors and its events never show it.
 * @param options - the deployment (`baseUrl`), the API key, its naming, and the limits, timeouts
 *   and retries of every call.
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "sk-…", naming: liveNaming });
 * const record = await client.insights.liquidation({ asset: "BTC" });
 * const sets = await client.predictions.latest({
 *   asset: "BTC", time_increment: 300, time_length: 86400, miner: [1, 2],
 * });
 * await client.close();
 */
export function createClient(options: ClientOptions): PathlabClient {
  const settings = resolveClientOptions(options, isOperationPath);
  const { apiKey, naming, maxRetries } = settings;
  const secrets: readonly string[] = apiKey === undefined ? [] : [apiKey];
  const ownedAgent =
    options.dispatcher === undefined
      ? new Agent({ connect: { timeout: settings.connectTimeoutMs } })
      : undefined;
  const dispatcher: Dispatcher = options.dispatcher ?? (ownedAgent as Agent);
  const semaphore = createSemaphore(settings.concurrency);
  const timeouts = {
    attemptMs: settings.timeoutMs,
    connectMs: settings.connectTimeoutMs,
    headersMs: settings.headersTimeoutMs,
    bodyMs: settings.bodyTimeoutMs,
    deadlineMs: settings.deadlineMs,
  };
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": settings.userAgent,
  };
  if (apiKey !== undefined) headers.authorization = `Apikey ${apiKey}`;
  let rateLimit: RateLimitState | undefined;
  let credits: CreditState | undefined;
  const emit: (event: ClientEvent) => void = options.onEvent ?? (() => {});
  // The caller's signal gets one listener, which stops the client's own: every attempt and retry
  // wait listens to that one (as many at once as calls in flight, hence no listener limit).
  const stopping = new AbortController();
  setMaxListeners(0, stopping.signal);
  const stop = () => stopping.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener("abort", stop, { once: true });

  /**
   * One call that stops when any of `signals` aborts: the client's own, and those of the views
   * (`withSignal`) it was made through. Each is linked for the call only, so that a view leaves
   * nothing behind on the client's signal.
   */
  async function call(
    path: string,
    params: unknown,
    signals: readonly AbortSignal[],
    decoder?: StreamedDecoder<unknown>,
  ): Promise<unknown> {
    if (signals.length === 1) return callUntil(path, params, signals[0], decoder);
    const linked = new AbortController();
    const unlink = signals.map((source) => {
      const abort = () => linked.abort(source.reason);
      if (source.aborted) abort();
      else source.addEventListener("abort", abort, { once: true });
      return () => source.removeEventListener("abort", abort);
    });
    try {
      return await callUntil(path, params, linked.signal, decoder);
    } finally {
      for (const remove of unlink) remove();
    }
  }

  async function callUntil(
    path: string,
    params: unknown,
    signal: AbortSignal,
    decoder: StreamedDecoder<unknown> | undefined,
  ): Promise<unknown> {
    const operation: UntypedOperation = operationByPath(path);
    const query = encodeQuery(operation, params).toString();
    if (operation.auth && apiKey === undefined) {
      throw new MissingApiKeyError(
        `${path}: requires an API key (Authorization: Apikey <key>), but the client has none; ` +
          "pass apiKey to createClient (the CLI reads PATHLAB_API_KEY)",
        { operation: path },
      );
    }
    const servedPath = settings.paths[path] ?? wirePath(path, naming);
    const url = `${settings.baseUrl}${servedPath}${query === "" ? "" : `?${query}`}`;
    // The overall deadline runs from the start of the first attempt (not from a wait for a slot).
    let deadlineAtMs = Number.POSITIVE_INFINITY;
    for (let attempt = 1; ; ++attempt) {
      signal.throwIfAborted();
      emit({ type: "request", operation: path, attempt });
      try {
        return await semaphore.run(async () => {
          await options.throttle?.(signal);
          if (attempt === 1) deadlineAtMs = performance.now() + settings.deadlineMs;
          const target = { url, path: servedPath, query };
          const remainingMs = deadlineAtMs - performance.now();
          return attemptOnce(operation, target, attempt, remainingMs, signal, decoder);
        });
      } catch (caught) {
        if (!(caught instanceof PathlabHttpError)) throw caught;
        let error: PathlabHttpError = caught;
        let retry = shouldRetry(error, attempt, maxRetries);
        const delayMs = !retry
          ? 0
          : retryDelayMs(attempt, {
              retryAfterMs: error.retryAfterMs,
              baseMs: settings.retryBaseMs,
              maxMs: settings.retryMaxMs,
              random: settings.random,
            });
        // A retry that could not even start before the deadline is not waited for.
        if (retry && delayMs >= deadlineAtMs - performance.now()) {
          error = deadlinePassed(path, error);
          retry = false;
        }
        const event = { operation: path, attempt, reason: error.name, message: error.message };
        const status = error.status === undefined ? {} : { status: error.status };
        if (!retry) {
          emit({ type: "failure", ...event, ...status });
          throw error;
        }
        emit({ type: "retry", ...event, ...status, delayMs });
        await sleep(delayMs, undefined, { signal }).catch(() => {
          throw signal.reason;
        });
      }
    }
  }

  /** The error of a call whose next retry would start after its deadline; the last failure is the cause. */
  function deadlinePassed(operation: string, last: PathlabHttpError): TimeoutError {
    const { deadlineMs } = settings;
    return new TimeoutError(
      `${operation}: timed out after ${deadlineMs} ms for the whole call, all attempts and waits ` +
        `(deadlineMs): no time left for another retry; last failure: ${last.message}`,
      { operation, phase: "deadline", timeoutMs: deadlineMs, status: last.status, cause: last },
    );
  }

  async function attemptOnce(
    operation: UntypedOperation,
    target: { url: string; path: string; query: string },
    attempt: number,
    remainingMs: number,
    signal: AbortSignal,
    decoder: StreamedDecoder<unknown> | undefined,
  ) {
    const started = performance.now();
    // A recording needs the whole body: then it is decoded after the exchange is reported.
    const streams = decoder !== undefined && options.onExchange === undefined;
    let decoding: StreamedDecoding<unknown> | undefined;
    let response: AttemptResponse;
    try {
      response = await sendAttempt({
        operation: operation.path,
        url: target.url,
        headers,
        dispatcher,
        timeouts: { ...timeouts, remainingMs },
        secrets,
        signal,
        maxBodyBytes: settings.maxBodyBytes(operation.path),
        ...(streams && {
          bodyConsumer: (status: number) =>
            status >= 200 && status <= 299 ? (decoding = decoder.start()) : undefined,
        }),
      });
    } catch (error) {
      if (!(error instanceof BodyConsumerError)) throw error;
      const { status, headers: responseHeaders, headText: bodyText, bytes } = error;
      const refused = { status, headers: responseHeaders, bodyText, bytes, streamed: true };
      responded(operation.path, refused, attempt, started);
      throw streamedFailure(operation.path, refused, error.cause);
    }
    const nowMs = responded(operation.path, response, attempt, started);
    const { status } = response;
    options.onExchange?.({
      operation: operation.path,
      method: "GET",
      path: target.path,
      query: target.query,
      status,
      headers: exchangeHeaders(response.headers, secrets),
      bodyText: response.bodyText,
    });
    if (status < 200 || status > 299) throw statusError(operation.path, response, nowMs);
    if (decoder === undefined) return decodeBody(operation, response);
    try {
      if (decoding === undefined) {
        decoding = decoder.start();
        decoding.push(Buffer.from(response.bodyText, "utf8"));
      }
      const result = decoding.finish();
      if (!(result instanceof DecodeAsUsual)) return result;
      const bodyText = redactSecrets(utf8.decode(result.body), secrets);
      return decodeBody(operation, { ...response, bodyText, streamed: false });
    } catch (error) {
      if (error instanceof ResponseDecodeError) throw error;
      throw streamedFailure(operation.path, response, error);
    }
  }

  /**
   * What every response that arrived does, decoded or not: the quota headers are read and the
   * `response` event is emitted. Returns the time it was read at (`Date.now()`).
   */
  function responded(
    operation: string,
    response: AttemptResponse,
    attempt: number,
    startedMs: number,
  ): number {
    const nowMs = Date.now();
    rateLimit = readRateLimit(response.headers, nowMs) ?? rateLimit;
    credits = readCredits(response.headers, nowMs) ?? credits;
    const { status, bytes } = response;
    const durationMs = performance.now() - startedMs;
    emit({ type: "response", operation, attempt, status, durationMs, bytes });
    return nowMs;
  }

  /**
   * The failure of a streamed decoding: a `SyntaxError` is a body that is not JSON. The decoder
   * saw the body unredacted, so its error is kept only if its message shows no secret.
   */
  function streamedFailure(operation: string, response: AttemptResponse, raised: unknown) {
    const shown = raised instanceof Error ? raised.message : String(raised);
    const error =
      raised instanceof Error && redact(shown, secrets) === shown
        ? raised
        : redactError(raised, secrets);
    const message = error.message;
    // By name: a consumer's error that showed the key arrives as a redacted copy.
    return error instanceof Error && error.name === "SyntaxError"
      ? decodeFailure(operation, response, "json", `body is not valid JSON (${message})`, error)
      : decodeFailure(
          operation,
          response,
          "shape",
          `body does not make the record: ${message}`,
          error,
        );
  }

  function statusError(operation: string, response: AttemptResponse, nowMs: number) {
    // `retry-after-ms` (milliseconds, sent by some gateways) wins over `retry-after`.
    const milliseconds = Number(headerText(response.headers, ["retry-after-ms"]) ?? Number.NaN);
    const retryAfterMs =
      Number.isFinite(milliseconds) && milliseconds >= 0
        ? milliseconds
        : parseRetryAfterMs(headerText(response.headers, ["retry-after"]), nowMs);
    const location = headerText(response.headers, ["location"]);
    return errorForStatus({
      operation,
      status: response.status,
      bodyText: response.bodyText,
      retryAfterMs,
      location: location === undefined ? undefined : redact(location, secrets),
    });
  }

  function decodeBody(operation: UntypedOperation, response: AttemptResponse): unknown {
    let json: unknown;
    try {
      json = JSON.parse(response.bodyText);
    } catch (error) {
      const reason = `body is not valid JSON (${response.bytes} bytes: ${(error as Error).message})`;
      throw decodeFailure(operation.path, response, "json", reason, error);
    }
    try {
      return operation.decode(json, { naming });
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      const reason =
        `body does not match the record at ${error.jsonPath}: ` +
        `expected ${error.expected}, got ${error.got}`;
      throw decodeFailure(operation.path, response, "shape", reason, error);
    }
  }

  function decodeFailure(
    operation: string,
    response: AttemptResponse,
    kind: DecodeFailureKind,
    reason: string,
    error: unknown,
  ): ResponseDecodeError {
    const bodyText = truncateBody(response.bodyText);
    return new ResponseDecodeError(
      redact(
        `${operation}: HTTP ${response.status}: ${reason}; body starts ${JSON.stringify(bodyText)}`,
        secrets,
      ),
      {
        operation,
        status: response.status,
        bodyText,
        kind,
        // Kept as it is (callers may test `cause instanceof DecodeError`): the body was redacted
        // before parsing, so neither the parser's nor the decoder's message can hold the key.
        cause: error,
      },
    );
  }

  /** The client's methods, each call stopping when any of `signals` aborts. */
  function view(signals: readonly AbortSignal[]): PathlabClient {
    const sections = Object.fromEntries(
      Object.entries(operationTable).map(([section, methods]) => [
        section,
        Object.freeze(
          Object.fromEntries(
            Object.entries(methods).map(([method, operation]) => [
              method,
              (params?: unknown) => call((operation as UntypedOperation).path, params, signals),
            ]),
          ),
        ),
      ]),
    );
    const client = {
      ...sections,
      request: (path: OperationPath, params?: unknown) => call(path, params, signals),
      requestStreamed: (path: OperationPath, params: unknown, decoder: StreamedDecoder<unknown>) =>
        call(path, params, signals, decoder),
      withSignal: (more: AbortSignal) => {
        // one listener per call in flight through the view
        setMaxListeners(0, more);
        return view([...signals, more]);
      },
      get rateLimit() {
        return rateLimit;
      },
      get credits() {
        return credits;
      },
      baseUrl: settings.baseUrl,
      naming,
      close: async () => {
        options.signal?.removeEventListener("abort", stop);
        if (ownedAgent !== undefined) await ownedAgent.close();
      },
    };
    return Object.freeze(client) as unknown as PathlabClient;
  }
  return view([stopping.signal]);
}

function isOperationPath(path: string): boolean {
  return operations.some((operation) => operation.path === path);
}
