/**
 * Access control of the sandbox server: API keys (401), per-key rate limits (429 with
 * `Retry-After`) and credits per insights request (402), with the headers pathlab's client reads
 * (`src/client/quota-headers.ts`): `x-ratelimit-{limit,remaining,reset}` and
 * `x-credits-{limit,remaining,used}`.
 */
import { createLruCache } from "./lruCache.ts";

/**
 * A fixed-window rate limit per key: at most `requests` in each window of `windowMs`, the window
 * starting at a key's first request. Anonymous requests (public operations without a valid key)
 * share one window per remote address.
 * @example const limit: RateLimit = { requests: 100, windowMs: 1000 };
 */
export interface RateLimit {
  readonly requests: number;
  readonly windowMs: number;
}

/**
 * The access rules of a sandbox.
 * @example const options: AccessOptions = { apiKeys: ["sk-sandbox"], credits: 50, rateLimit: { requests: 10, windowMs: 1000 } };
 */
export interface AccessOptions {
  /** Keys accepted in `Authorization: Apikey <key>` (at least one), with elevated access. */
  readonly apiKeys: readonly string[];
  /**
   * Keys accepted with basic access, as the live service's default tier: every operation but the
   * raw prediction paths (`/v2/prediction/*`), which answer 401. Default none.
   */
  readonly basicKeys?: readonly string[];
  /**
   * Credits of each key, one consumed per successful request of a credit-consuming operation
   * (the insights and venue operations): one number for every key, or a number per key (keys
   * not listed get {@link DEFAULT_CREDITS}). Default {@link DEFAULT_CREDITS}.
   */
  readonly credits?: number | Readonly<Record<string, number>>;
  /** Default {@link DEFAULT_RATE_LIMIT}; `false` turns rate limiting off. */
  readonly rateLimit?: RateLimit | false;
}

/**
 * Credits of a key unless configured: plenty for long sessions, still finite so the headers mean
 * something.
 * @example DEFAULT_CREDITS // => 1000000
 */
export const DEFAULT_CREDITS = 1_000_000;

/**
 * The rate limit unless configured: 1,000 requests per second per key, far above what a client
 * of a local server needs, so only a deliberately small limit produces 429s.
 * @example DEFAULT_RATE_LIMIT.requests // => 1000
 */
export const DEFAULT_RATE_LIMIT: RateLimit = Object.freeze({ requests: 1000, windowMs: 1000 });

/**
 * What {@link AccessControl.admit} is told about a request.
 * @example const request: AccessRequest = { auth: true, credits: true, authorization: "Apikey sk-sandbox", remoteAddress: "127.0.0.1", nowMs: Date.now() };
 */
export interface AccessRequest {
  /** Whether the operation requires the key. */
  readonly auth: boolean;
  /** Whether the operation consumes credits. */
  readonly credits: boolean;
  /** Whether the operation needs elevated access (the raw prediction paths). */
  readonly elevated?: boolean;
  /** The `Authorization` header as received. */
  readonly authorization: string | undefined;
  readonly remoteAddress: string;
  /** Wall-clock time of the request (rate limits run on real time, not the sandbox's clock). */
  readonly nowMs: number;
}

/**
 * The verdict on a request: refused with a status and a plain-text reason, or admitted. Both carry
 * the headers to send. An admitted credit-consuming request holds one reserved credit: `settle(true)`
 * consumes it (and adds the credit headers), `settle(false)` gives it back (a 400 or 500 costs nothing).
 * @example
 * const verdict = access.admit(request);
 * if (verdict.status !== 200) respond(verdict.status, verdict.reason, verdict.headers);
 */
export type AccessVerdict =
  | {
      readonly status: 401 | 402 | 429;
      readonly reason: string;
      readonly headers: Record<string, string>;
    }
  | {
      readonly status: 200;
      readonly headers: Record<string, string>;
      readonly settle: (succeeded: boolean) => void;
    };

/**
 * The access state of one server: windows and credits per key.
 * @example
 * const access = createAccessControl({ apiKeys: ["sk-sandbox"], credits: 2 });
 */
export interface AccessControl {
  /** Checks the key, then the rate limit, then the credits, in that order. */
  admit(request: AccessRequest): AccessVerdict;
  /** Credits left for a key (`undefined` for an unknown key). */
  creditsRemaining(apiKey: string): number | undefined;
}

/**
 * Whether `key` can travel in `Authorization: Apikey <key>` as it is: visible ASCII, no spaces.
 * @example isSendableKey("sk-local-1") // => true
 */
export function isSendableKey(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

/** Rate-limit windows kept at most (the least recently used are forgotten). */
const MAX_WINDOWS = 10_000;

/**
 * Creates the access control of a server. Throws `RangeError` for no keys, a key that cannot
 * travel in a header (empty, spaces, control characters), negative or non-integer credits, or a
 * rate limit whose numbers are not positive.
 * @example
 * const access = createAccessControl({ apiKeys: ["sk-sandbox"], credits: { "sk-sandbox": 5 } });
 * access.creditsRemaining("sk-sandbox"); // => 5
 */
export function createAccessControl(options: AccessOptions): AccessControl {
  const { credits = DEFAULT_CREDITS, rateLimit = DEFAULT_RATE_LIMIT } = options;
  const basic = new Set(options.basicKeys ?? []);
  const apiKeys = [...options.apiKeys, ...basic];
  if (options.apiKeys.length === 0) {
    throw new RangeError("createAccessControl requires at least one API key in apiKeys, got none");
  }
  apiKeys.forEach((key, index) => {
    if (!isSendableKey(key)) {
      throw new RangeError(
        `createAccessControl: an API key must be visible ASCII without spaces, got key #${index + 1} (${key.length} characters; not shown)`,
      );
    }
  });
  if (rateLimit !== false) {
    const { requests, windowMs } = rateLimit;
    if (!Number.isInteger(requests) || requests < 1 || !(windowMs > 0)) {
      throw new RangeError(
        `createAccessControl: rateLimit needs an integer requests ≥ 1 and windowMs > 0, got ${requests} per ${windowMs} ms`,
      );
    }
  }
  const allowance = new Map<string, number>();
  for (const key of apiKeys) {
    const amount = typeof credits === "number" ? credits : (credits[key] ?? DEFAULT_CREDITS);
    if (!Number.isInteger(amount) || amount < 0) {
      throw new RangeError(
        `createAccessControl: credits must be whole numbers ≥ 0, got ${amount} for key #${apiKeys.indexOf(key) + 1}`,
      );
    }
    allowance.set(key, amount);
  }
  const remaining = new Map(allowance);
  const windows = createLruCache<string, { startMs: number; count: number }>({
    maxEntries: MAX_WINDOWS,
  });

  function rateHeaders(count: number, resetMs: number): Record<string, string> {
    if (rateLimit === false) return {};
    return {
      "x-ratelimit-limit": String(rateLimit.requests),
      "x-ratelimit-remaining": String(Math.max(0, rateLimit.requests - count)),
      // Seconds until the window resets (the IETF draft's form, which the client reads).
      "x-ratelimit-reset": String(Math.ceil(resetMs / 1000)),
    };
  }

  function admit(request: AccessRequest): AccessVerdict {
    const key = keyOf(request.authorization);
    const known = key !== undefined && allowance.has(key);
    if (request.auth && !known) {
      const reason =
        request.authorization === undefined || request.authorization.trim() === ""
          ? "missing API key: this operation requires the header Authorization: Apikey <key>"
          : key === undefined
            ? "malformed Authorization header: expected Authorization: Apikey <key>"
            : "invalid API key: the key sent is not one of this sandbox's keys " +
              "(pathlab serve prints the key to use)";
      return { status: 401, reason, headers: { "www-authenticate": "Apikey" } };
    }
    if (request.elevated === true && key !== undefined && basic.has(key)) {
      return {
        status: 401,
        reason:
          "this key has basic access: raw prediction paths (/v2/prediction/…) need an elevated key",
        headers: { "www-authenticate": "Apikey" },
      };
    }
    let headers: Record<string, string> = {};
    if (rateLimit !== false) {
      const bucket = known ? `key:${key}` : `address:${request.remoteAddress}`;
      let window = windows.get(bucket);
      if (window === undefined || request.nowMs - window.startMs >= rateLimit.windowMs) {
        window = { startMs: request.nowMs, count: 0 };
        windows.set(bucket, window);
      }
      window.count += 1;
      const resetMs = window.startMs + rateLimit.windowMs - request.nowMs;
      headers = rateHeaders(window.count, resetMs);
      if (window.count > rateLimit.requests) {
        return {
          status: 429,
          reason:
            `rate limit exceeded: at most ${rateLimit.requests} requests per ${rateLimit.windowMs} ms ` +
            `per key; retry in ${resetMs} ms`,
          headers: {
            ...headers,
            "retry-after": String(Math.ceil(resetMs / 1000)),
            "retry-after-ms": String(resetMs),
          },
        };
      }
    }
    if (!request.credits || !known) {
      return { status: 200, headers, settle: () => {} };
    }
    const left = remaining.get(key) as number;
    const limit = allowance.get(key) as number;
    if (left <= 0) {
      return {
        status: 402,
        reason: `out of credits: this key's ${limit} credits are used up (one per insights request)`,
        headers: { ...headers, "x-credits-limit": String(limit), "x-credits-remaining": "0" },
      };
    }
    remaining.set(key, left - 1);
    let settled = false;
    return {
      status: 200,
      headers,
      settle(succeeded) {
        if (settled) return;
        settled = true;
        const now = (remaining.get(key) as number) + (succeeded ? 0 : 1);
        remaining.set(key, now);
        if (succeeded) {
          headers["x-credits-limit"] = String(limit);
          headers["x-credits-remaining"] = String(now);
          headers["x-credits-used"] = "1";
        }
      },
    };
  }

  return {
    admit,
    creditsRemaining: (apiKey) => remaining.get(apiKey),
  };
}

/** The key of `Apikey <key>` (scheme case-insensitive), or undefined for any other form. */
function keyOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^\s*apikey\s+(\S+)\s*$/i.exec(authorization);
  return match === null ? undefined : match[1];
}
