/**
 * Reads rate-limit and credit headers. The spec says requests are rate-limited and insights consume
 * credits but names no headers, so these readers are liberal: they accept the common conventions
 * listed on each function and keep the first one found.
 */

/**
 * Response headers as undici gives them: lower-case names, repeated headers as arrays.
 * @example const headers: ResponseHeaders = { "x-credits-remaining": "41", "set-cookie": ["a=1", "b=2"] };
 */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The last rate-limit values the service sent.
 * @example
 * const state: RateLimitState = { limit: 100, remaining: 99, resetAtMs: 1772063160000, observedAtMs: 1772063100000 };
 */
export interface RateLimitState {
  /** Requests allowed in the window. */
  readonly limit?: number;
  /** Requests left in the window. */
  readonly remaining?: number;
  /** When the window resets, Unix milliseconds. */
  readonly resetAtMs?: number;
  /** The raw policy header (`ratelimit-policy` / `x-ratelimit-policy`), if sent. */
  readonly policy?: string;
  /** When the response carrying these values arrived, Unix milliseconds. */
  readonly observedAtMs: number;
}

/**
 * The last credit values the service sent.
 * @example const state: CreditState = { remaining: 41, used: 1, observedAtMs: 1772063100000 };
 */
export interface CreditState {
  /** Credits left on the account. */
  readonly remaining?: number;
  /** The account's credit allowance. */
  readonly limit?: number;
  /** Credits the request that carried these headers consumed. */
  readonly used?: number;
  /** When the response carrying these values arrived, Unix milliseconds. */
  readonly observedAtMs: number;
}

/**
 * The trimmed value of the first of `names` present and not blank (the first element of a repeated
 * header).
 * @example
 * headerText({ "ratelimit-limit": " 100 " }, ["x-ratelimit-limit", "ratelimit-limit"]) // => "100"
 */
export function headerText(headers: ResponseHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value.trim() !== "") return value.trim();
  }
  return undefined;
}

function headerNumber(headers: ResponseHeaders, names: readonly string[]): number | undefined {
  const text = headerText(headers, names);
  if (text === undefined) return undefined;
  // "100, 1000;w=3600" lists several windows: the first is the current one.
  const value = Number.parseFloat(text.split(",")[0]);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * A reset value as Unix ms: Unix milliseconds (> 10¹²), Unix seconds (> 10⁹, as GitHub sends),
 * otherwise seconds from now (as the IETF draft sends); an HTTP date is also accepted.
 */
function resetAt(text: string | undefined, nowMs: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (Number.isFinite(value) && value >= 0) {
    if (value > 1e12) return value;
    if (value > 1e9) return value * 1000;
    return nowMs + value * 1000;
  }
  const dateMs = Date.parse(text);
  return Number.isNaN(dateMs) ? undefined : dateMs;
}

/**
 * Parameters of a structured `RateLimit` header: `limit=100, remaining=5, reset=30` (IETF draft
 * 07) or `"default";r=5;t=30` (draft 08 and later; `q` is the quota).
 */
function structuredParameters(text: string | undefined): Map<string, string> {
  const parameters = new Map<string, string>();
  if (text === undefined) return parameters;
  for (const item of text.split(/[,;]/)) {
    const separator = item.indexOf("=");
    if (separator < 0) continue;
    const key = item.slice(0, separator).trim().toLowerCase();
    if (!parameters.has(key)) parameters.set(key, item.slice(separator + 1).trim());
  }
  return parameters;
}

function finiteOrUndefined(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Reads rate-limit headers, or returns `undefined` when there are none. Accepted, first found wins:
 * `x-ratelimit-{limit,remaining,reset}`, `ratelimit-{limit,remaining,reset}`,
 * `x-rate-limit-{limit,remaining,reset}`, the structured `ratelimit` header (IETF drafts:
 * `limit=…, remaining=…, reset=…` or `r=…;t=…`, with `q=…` from `ratelimit-policy`), and the policy
 * text from `ratelimit-policy` / `x-ratelimit-policy`.
 * @example
 * readRateLimit({ "x-ratelimit-remaining": "7", "x-ratelimit-reset": "30" }, 0)
 * // => { remaining: 7, resetAtMs: 30000, observedAtMs: 0 }
 */
export function readRateLimit(headers: ResponseHeaders, nowMs: number): RateLimitState | undefined {
  const structured = structuredParameters(headerText(headers, ["ratelimit"]));
  const policy = headerText(headers, ["ratelimit-policy", "x-ratelimit-policy"]);
  const policyParameters = structuredParameters(policy);
  const limit =
    headerNumber(headers, ["x-ratelimit-limit", "ratelimit-limit", "x-rate-limit-limit"]) ??
    finiteOrUndefined(structured.get("limit")) ??
    finiteOrUndefined(policyParameters.get("q"));
  const remaining =
    headerNumber(headers, [
      "x-ratelimit-remaining",
      "ratelimit-remaining",
      "x-rate-limit-remaining",
    ]) ?? finiteOrUndefined(structured.get("remaining") ?? structured.get("r"));
  const resetAtMs = resetAt(
    headerText(headers, ["x-ratelimit-reset", "ratelimit-reset", "x-rate-limit-reset"]) ??
      structured.get("reset") ??
      structured.get("t"),
    nowMs,
  );
  if (
    limit === undefined &&
    remaining === undefined &&
    resetAtMs === undefined &&
    policy === undefined
  ) {
    return undefined;
  }
  return withoutUndefined({ limit, remaining, resetAtMs, policy, observedAtMs: nowMs });
}

/**
 * Reads credit headers, or returns `undefined` when there are none. Accepted, first found wins:
 * remaining from `x-credits-remaining`, `x-credit-remaining`, `credits-remaining`,
 * `x-remaining-credits`, `x-ratelimit-credits-remaining`; allowance from `x-credits-limit`,
 * `x-credit-limit`, `credits-limit`, `x-credits-total`; this request's cost from `x-credits-used`,
 * `x-credits-cost`, `x-credits-charged`, `x-credit-cost`, `credits-used`.
 * @example
 * readCredits({ "x-credits-remaining": "120", "x-credits-used": "1" }, 0)
 * // => { remaining: 120, used: 1, observedAtMs: 0 }
 */
export function readCredits(headers: ResponseHeaders, nowMs: number): CreditState | undefined {
  const remaining = headerNumber(headers, [
    "x-credits-remaining",
    "x-credit-remaining",
    "credits-remaining",
    "x-remaining-credits",
    "x-ratelimit-credits-remaining",
  ]);
  const limit = headerNumber(headers, [
    "x-credits-limit",
    "x-credit-limit",
    "credits-limit",
    "x-credits-total",
  ]);
  const used = headerNumber(headers, [
    "x-credits-used",
    "x-credits-cost",
    "x-credits-charged",
    "x-credit-cost",
    "credits-used",
  ]);
  if (remaining === undefined && limit === undefined && used === undefined) return undefined;
  return withoutUndefined({ remaining, limit, used, observedAtMs: nowMs });
}

/** Drops keys whose value is undefined, so the state prints and compares cleanly. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
