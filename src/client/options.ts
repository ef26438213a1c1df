/**
 * The options of `createClient`, their defaults, and their validation (one clear error per
 * misconfiguration, raised when the client is created rather than on the first request).
 */
import type { Dispatcher } from "undici";
import type { Naming } from "../domain/operation.ts";
import { neutralNaming } from "../domain/naming.ts";
import type { OperationPath } from "../domain/operations.ts";
import { defaultMaxBodyBytes } from "./body-limits.ts";
import type { ClientEvent } from "./events.ts";
import type { ClientExchange } from "./exchange.ts";

/**
 * How to reach and talk to a deployment of the service. Only `baseUrl` is required.
 * @example
 * const options: ClientOptions = {
 *   baseUrl: "https://api.example.com",
 *   apiKey: process.env.PATHLAB_API_KEY,
 *   naming: liveNaming,
 *   paths: { "/v2/meta-leaderboard/latest": "/v2/leaderboard/meta/latest" },
 * };
 */
export interface ClientOptions {
  /** Origin, optionally with a path prefix (`https://host/api`); no credentials, query or fragment. */
  readonly baseUrl: string;
  /**
   * Sent as `Authorization: Apikey <key>` on every request when set (the spec requires it on
   * insights and predictions and allows it elsewhere; one overview requires it everywhere). Without
   * a key, operations with `auth: true` throw `MissingApiKeyError` before sending. An empty string
   * counts as no key.
   */
  readonly apiKey?: string;
  /** Limit of one whole attempt (connect, headers and body). Default 60 000. */
  readonly timeoutMs?: number;
  /**
   * Limit for establishing a connection. Default 10 000. Applies through the client's own undici
   * Agent; with an injected `dispatcher`, that dispatcher's connect timeout applies instead (and
   * `timeoutMs` still bounds the attempt).
   */
  readonly connectTimeoutMs?: number;
  /**
   * Limit from sending to the complete response headers. Default `timeoutMs`. undici checks it
   * with a coarse timer (about one second of resolution); `timeoutMs` is precise.
   */
  readonly headersTimeoutMs?: number;
  /** Longest pause between two chunks of the body (same coarse timer). Default `timeoutMs`. */
  readonly bodyTimeoutMs?: number;
  /**
   * Overall limit of one call: every attempt and every wait between attempts, from the start of its
   * first attempt (a wait for a free slot before that is not counted). When it passes, the attempt
   * in flight is cancelled and the call fails with `TimeoutError` phase `deadline`, without
   * another retry; a retry whose wait would end past it is not started. Default 600 000 (10 min).
   */
  readonly deadlineMs?: number;
  /**
   * Largest response body read, in bytes: one number for every operation, or limits keyed by the
   * spec's path (operations left out keep their default). Defaults: 64 MiB for predictions, 256 MiB
   * for `/validation/scores/historical`, 64 MiB for other range operations, 8 MiB for the rest
   * (`defaultBodyLimits`). A larger `Content-Length` is refused unread; a body that grows past the
   * limit is cut off. Either fails with `ResponseTooLargeError`, not retried.
   */
  readonly maxBodyBytes?: number | Partial<Readonly<Record<OperationPath, number>>>;
  /** Retries after the first attempt (see `shouldRetry`). Default 2. */
  readonly maxRetries?: number;
  /** Backoff unit of `retryDelayMs`. Default 500; tests use a few ms. */
  readonly retryBaseMs?: number;
  /** Cap of every wait between attempts, `Retry-After` included. Default 30 000. */
  readonly retryMaxMs?: number;
  /** Jitter source of `retryDelayMs`, uniform in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** Attempts in flight at once across all calls of this client. Default 4. */
  readonly concurrency?: number;
  /** How the deployment names the venues and the model. Default `neutralNaming`. */
  readonly naming?: Naming;
  /**
   * Paths that replace an operation's default path, keyed by the spec's path, used verbatim
   * (`naming` is not applied to them). Mainly for operations whose path the spec does not show.
   */
  readonly paths?: Partial<Readonly<Record<OperationPath, string>>>;
  /**
   * Awaited before every attempt (retries included), once the attempt holds one of the
   * `concurrency` slots: a pacer that spaces requests to a rate, such as the one the workers of a
   * queue share (`pathlab worker --requests-per-second`). It receives the call's signal and may
   * reject with its reason. Default none.
   */
  readonly throttle?: (signal: AbortSignal) => Promise<void>;
  /** The undici dispatcher to send through. Default: an Agent the client owns and `close()` closes. */
  readonly dispatcher?: Dispatcher;
  /** `User-Agent` header. Default `pathlab (node <version>)`. */
  readonly userAgent?: string;
  /** Receives request, response, retry and failure events; never the key. Exceptions propagate. */
  readonly onEvent?: (event: ClientEvent) => void;
  /**
   * Receives every response that arrived complete (each attempt's, whatever its status): the
   * served path and query, the status, the headers that matter and the body text, never the key
   * (`ClientExchange`). For recording (`pathlab sync --record`). Exceptions propagate.
   */
  readonly onExchange?: (exchange: ClientExchange) => void;
  /**
   * Stops the client's work when it aborts: attempts in flight are cancelled, waits before a retry
   * end, and every call (in flight or later) rejects with the signal's reason, without retrying.
   */
  readonly signal?: AbortSignal;
}

/**
 * {@link ClientOptions} checked, with every default filled in.
 * @example
 * resolveClientOptions({ baseUrl: "http://127.0.0.1:8080" }, () => true).maxRetries // => 2
 */
export interface ResolvedClientOptions {
  /** Origin plus path prefix, without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly deadlineMs: number;
  /** The body limit of an operation, by its spec path. */
  readonly maxBodyBytes: (operation: string) => number;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly random: () => number;
  readonly concurrency: number;
  readonly naming: Naming;
  readonly paths: Readonly<Record<string, string>>;
  readonly userAgent: string;
}

/** Visible ASCII only: a key with spaces or line breaks would corrupt the header. */
const apiKeyPattern = /^[\x21-\x7e]+$/;

/** A path segment of a venue name: no slash, no query or fragment characters. */
const segmentPattern = /^[^/?#\s]+$/;

/**
 * Checks `options` and fills in the defaults. `isOperationPath` tells which keys `paths` may use.
 * Errors name the option, what was expected and what was got (never the key's value).
 * @example
 * resolveClientOptions({ baseUrl: "http://127.0.0.1:8080/" }, () => true).baseUrl // => "http://127.0.0.1:8080"
 */
export function resolveClientOptions(
  options: ClientOptions,
  isOperationPath: (path: string) => boolean,
): ResolvedClientOptions {
  const timeoutMs = positive("timeoutMs", options.timeoutMs, 60_000);
  return {
    baseUrl: checkBaseUrl(options.baseUrl),
    apiKey: checkApiKey(options.apiKey),
    timeoutMs,
    connectTimeoutMs: positive("connectTimeoutMs", options.connectTimeoutMs, 10_000),
    headersTimeoutMs: positive("headersTimeoutMs", options.headersTimeoutMs, timeoutMs),
    bodyTimeoutMs: positive("bodyTimeoutMs", options.bodyTimeoutMs, timeoutMs),
    deadlineMs: positive("deadlineMs", options.deadlineMs, 600_000),
    maxBodyBytes: checkMaxBodyBytes(options.maxBodyBytes, isOperationPath),
    maxRetries: integer("maxRetries", options.maxRetries, 2, 0),
    retryBaseMs: nonNegative("retryBaseMs", options.retryBaseMs, 500),
    retryMaxMs: nonNegative("retryMaxMs", options.retryMaxMs, 30_000),
    random: options.random ?? Math.random,
    concurrency: integer("concurrency", options.concurrency, 4, 1),
    naming: checkNaming(options.naming ?? neutralNaming),
    paths: checkPaths(options.paths ?? {}, isOperationPath),
    userAgent: checkUserAgent(options.userAgent ?? `pathlab (node ${process.versions.node})`),
  };
}

function fail(option: string, expected: string, got: string): never {
  throw new TypeError(`createClient: option "${option}": expected ${expected}, got ${got}`);
}

/** Node's timers fire at once (with a warning) beyond this many milliseconds. */
const maximumTimerMs = 2_147_483_647;

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value > 0 && value <= maximumTimerMs)) {
    fail(option, `a number of milliseconds > 0 and ≤ ${maximumTimerMs}`, String(value));
  }
  return value;
}

function nonNegative(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value >= 0 && value <= maximumTimerMs)) {
    fail(option, `a number of milliseconds ≥ 0 and ≤ ${maximumTimerMs}`, String(value));
  }
  return value;
}

function integer(option: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= min))
    fail(option, `an integer ≥ ${min}`, String(value));
  return value;
}

function checkMaxBodyBytes(
  limits: ClientOptions["maxBodyBytes"],
  isOperationPath: (path: string) => boolean,
): (operation: string) => number {
  if (limits === undefined) return defaultMaxBodyBytes;
  if (typeof limits === "number") {
    const bytes = byteCount("maxBodyBytes", limits);
    return () => bytes;
  }
  if (typeof limits !== "object" || limits === null) {
    fail("maxBodyBytes", "a number of bytes or limits keyed by spec path", String(limits));
  }
  const checked = new Map<string, number>();
  for (const [operation, bytes] of Object.entries(limits)) {
    if (bytes === undefined) continue;
    if (!isOperationPath(operation)) {
      fail("maxBodyBytes", "keys that are spec paths of operations", JSON.stringify(operation));
    }
    checked.set(operation, byteCount(`maxBodyBytes["${operation}"]`, bytes));
  }
  return (operation) => checked.get(operation) ?? defaultMaxBodyBytes(operation);
}

function byteCount(option: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    fail(option, "an integer number of bytes ≥ 0", String(value));
  }
  return value;
}

function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    fail("baseUrl", "an absolute http(s) URL", JSON.stringify(baseUrl));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail("baseUrl", "an http: or https: URL", JSON.stringify(url.protocol));
  }
  if (url.username !== "" || url.password !== "") {
    // Never echo the URL here: its credentials are the point of the error.
    fail("baseUrl", "a URL without credentials (pass the key as apiKey)", "a URL with user info");
  }
  if (url.search !== "" || url.hash !== "") {
    fail("baseUrl", "a URL without query or fragment", JSON.stringify(baseUrl));
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function checkApiKey(apiKey: string | undefined): string | undefined {
  if (apiKey === undefined || apiKey === "") return undefined;
  if (typeof apiKey !== "string" || !apiKeyPattern.test(apiKey)) {
    fail("apiKey", "visible ASCII characters without spaces", `a value of ${describeKey(apiKey)}`);
  }
  return apiKey;
}

/** Describes a bad key without showing it. */
function describeKey(apiKey: unknown): string {
  return typeof apiKey === "string" ? `${apiKey.length} characters` : `type ${typeof apiKey}`;
}

function checkNaming(naming: Naming): Naming {
  for (const key of ["venueA", "venueB", "model"] as const) {
    const value: unknown = naming?.[key];
    if (typeof value !== "string" || !segmentPattern.test(value)) {
      fail(`naming.${key}`, "a path segment (no slash, space, ? or #)", JSON.stringify(value));
    }
  }
  return naming;
}

function checkPaths(
  paths: Partial<Readonly<Record<string, string>>>,
  isOperationPath: (path: string) => boolean,
): Readonly<Record<string, string>> {
  const checked: Record<string, string> = {};
  for (const [operation, path] of Object.entries(paths)) {
    if (path === undefined) continue;
    if (!isOperationPath(operation)) {
      fail("paths", "keys that are spec paths of operations", JSON.stringify(operation));
    }
    if (typeof path !== "string" || !path.startsWith("/") || /[?#\s]/.test(path)) {
      fail(`paths["${operation}"]`, "a path starting with / (no query)", JSON.stringify(path));
    }
    checked[operation] = path;
  }
  return Object.freeze(checked);
}

function checkUserAgent(userAgent: string): string {
  if (typeof userAgent !== "string" || !/^[\x20-\x7e]+$/.test(userAgent)) {
    fail("userAgent", "printable ASCII", JSON.stringify(userAgent));
  }
  return userAgent;
}
