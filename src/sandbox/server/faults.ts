/**
 * Fault injection of the sandbox server: which faults exist ({@link FaultRule}), and which ones a
 * given request suffers ({@link createFaultPlan}), deterministically from the sandbox's seed.
 */

/**
 * When a fault fires among the requests a rule matches: a probability in [0, 1] (a deterministic
 * draw from the seed, the rule, the fault and the request's number), or `{ every: n }` (the n-th,
 * 2n-th, … matching request).
 * @example const sometimes: FaultTrigger = 0.2; const third: FaultTrigger = { every: 3 };
 */
export type FaultTrigger = number | { readonly every: number };

/**
 * A burst of consecutive 429 responses: the first `length` of every `every` matching requests
 * (so the very first matching request starts a burst), each with a `Retry-After`.
 * @example const burst: RateLimitBurst = { length: 3, every: 20, retryAfterMs: 50 };
 */
export interface RateLimitBurst {
  /** 429s in a row (≥ 1). */
  readonly length: number;
  /** Matching requests per cycle (≥ `length`); default `max(20, 2 × length)`. */
  readonly every?: number;
  /**
   * The wait announced: `Retry-After` in whole seconds (rounded up) and `Retry-After-Ms` exactly
   * (read first by pathlab's client). Default 1000.
   */
  readonly retryAfterMs?: number;
}

/**
 * The faults of the requests whose path matches `path`. Every field is optional; a rule with only
 * `path` does nothing. Several rules may match one request: latencies add up, and of the other
 * faults the first that fires wins, in this order: 429 burst, 5xx, truncated body, malformed JSON,
 * short paths, missing field, NaN price.
 * @example
 * const rule: FaultRule = { path: "/v2/prediction/*", serverError: 0.2, latencyMs: 50 };
 */
export interface FaultRule {
  /**
   * Which requests: a glob (`*` matches any run of characters, `/` included; `?` one character)
   * matched against the whole request path as served (e.g. `/insights/polymarket/range`) and
   * against the spec's neutral path (`/insights/venuea/range`), or a RegExp tested on both.
   * Default: every path, unknown paths included.
   */
  readonly path?: string | RegExp;
  /** Added before the response, on every matching request. */
  readonly latencyMs?: number;
  /** A 500, 502 or 503 (drawn from the seed) with a plain string body. */
  readonly serverError?: FaultTrigger;
  /** Bursts of 429 with `Retry-After`. */
  readonly rateLimitBurst?: RateLimitBurst;
  /** Declare a longer `Content-Length`, send half the body, then destroy the socket. */
  readonly truncate?: FaultTrigger;
  /** A complete 200 response whose body is not valid JSON (its last character is cut off). */
  readonly malformedJson?: FaultTrigger;
  /** Prediction sets whose paths lack their last point (288 of 289, 60 of 61); other bodies unchanged. */
  readonly shortPaths?: FaultTrigger;
  /** The body's first record (the body itself, or its first element) lacks its first field. */
  readonly missingField?: FaultTrigger;
  /**
   * One price written as the literal `NaN` (not JSON): the second point of the first path of a
   * prediction set, otherwise the first number of the body in document order.
   */
  readonly nanPrice?: FaultTrigger;
}

/**
 * The faults of a sandbox: its rules, applied in order.
 * @example const faults: SandboxFaults = [{ path: "/insights/*", latencyMs: 20 }, { truncate: 0.05 }];
 */
export type SandboxFaults = readonly FaultRule[];

/**
 * What a request suffers. `status` replaces the response; `body` and `shape` alter a 200 body.
 * @example const decision: FaultDecision = { latencyMs: 50, status: { code: 503 } };
 */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly status?: { readonly code: 429 | 500 | 502 | 503; readonly retryAfterMs?: number };
  readonly body?: "truncate" | "malformedJson";
  readonly shape?: "shortPaths" | "missingField" | "nanPrice";
}

/**
 * Decides the faults of each request, counting matching requests per rule. The same seed, rules
 * and sequence of requests give the same decisions.
 * @example
 * const plan = createFaultPlan([{ serverError: { every: 2 } }], 42);
 * plan.decide("/v2/leaderboard/latest", "/v2/leaderboard/latest").status; // => undefined
 * plan.decide("/v2/leaderboard/latest", "/v2/leaderboard/latest").status?.code; // => 500, 502 or 503
 */
export interface FaultPlan {
  /** The decision for the next request with this served path and spec path (equal when unknown). */
  decide(servedPath: string, specPath: string): FaultDecision;
  /** The rules in force. */
  readonly rules: SandboxFaults;
}

/** Fault kinds in order of precedence, with a distinct number each for the deterministic draws. */
const KIND_NUMBERS = {
  serverError: 1,
  truncate: 2,
  malformedJson: 3,
  shortPaths: 4,
  missingField: 5,
  nanPrice: 6,
  statusCode: 7,
} as const;

const SERVER_ERROR_CODES = [500, 502, 503] as const;

/**
 * Checks the rules and returns their plan. Throws `RangeError` naming the rule and the field for a
 * probability outside [0, 1], an `every` below 1, a negative latency, or a burst whose `every` is
 * shorter than its `length`.
 * @example
 * const plan = createFaultPlan([{ path: "/v2/prediction/*", truncate: 0.05 }], 42);
 */
export function createFaultPlan(rules: SandboxFaults, seed: number): FaultPlan {
  const checked = rules.map((rule, index) => checkRule(rule, index));
  const matchers = checked.map((rule) => pathMatcher(rule.path));
  const counts = new Array<number>(checked.length).fill(0);
  const seed32 = Math.trunc(seed) >>> 0;

  function fires(trigger: FaultTrigger | undefined, rule: number, kind: number, n: number) {
    if (trigger === undefined) return false;
    if (typeof trigger === "number") return unitHash(seed32, rule, kind, n) < trigger;
    return n % trigger.every === 0;
  }

  function decide(servedPath: string, specPath: string): FaultDecision {
    let latencyMs = 0;
    let status: FaultDecision["status"];
    let body: FaultDecision["body"];
    let shape: FaultDecision["shape"];
    for (let index = 0; index < checked.length; ++index) {
      if (!matchers[index](servedPath) && !matchers[index](specPath)) continue;
      const rule = checked[index];
      const n = ++counts[index];
      latencyMs += rule.latencyMs ?? 0;
      if (status === undefined && rule.rateLimitBurst !== undefined) {
        const {
          length,
          every = Math.max(20, 2 * length),
          retryAfterMs = 1000,
        } = rule.rateLimitBurst;
        if ((n - 1) % every < length) status = { code: 429, retryAfterMs };
      }
      if (status === undefined && fires(rule.serverError, index, KIND_NUMBERS.serverError, n)) {
        const draw = unitHash(seed32, index, KIND_NUMBERS.statusCode, n);
        status = { code: SERVER_ERROR_CODES[Math.floor(draw * SERVER_ERROR_CODES.length)] };
      }
      if (body === undefined) {
        if (fires(rule.truncate, index, KIND_NUMBERS.truncate, n)) body = "truncate";
        else if (fires(rule.malformedJson, index, KIND_NUMBERS.malformedJson, n)) {
          body = "malformedJson";
        }
      }
      if (shape === undefined) {
        if (fires(rule.shortPaths, index, KIND_NUMBERS.shortPaths, n)) shape = "shortPaths";
        else if (fires(rule.missingField, index, KIND_NUMBERS.missingField, n)) {
          shape = "missingField";
        } else if (fires(rule.nanPrice, index, KIND_NUMBERS.nanPrice, n)) shape = "nanPrice";
      }
    }
    return { latencyMs, ...(status && { status }), ...(body && { body }), ...(shape && { shape }) };
  }

  return { decide, rules: checked };
}

function checkRule(rule: FaultRule, index: number): FaultRule {
  const where = `createFaultPlan: rule ${index}`;
  const checkTrigger = (name: string, trigger: FaultTrigger | undefined) => {
    if (trigger === undefined) return;
    if (typeof trigger === "number") {
      if (!(trigger >= 0 && trigger <= 1)) {
        throw new RangeError(`${where}: ${name} must be a probability in [0, 1], got ${trigger}`);
      }
    } else if (!Number.isInteger(trigger.every) || trigger.every < 1) {
      throw new RangeError(`${where}: ${name}.every must be an integer ≥ 1, got ${trigger.every}`);
    }
  };
  checkTrigger("serverError", rule.serverError);
  checkTrigger("truncate", rule.truncate);
  checkTrigger("malformedJson", rule.malformedJson);
  checkTrigger("shortPaths", rule.shortPaths);
  checkTrigger("missingField", rule.missingField);
  checkTrigger("nanPrice", rule.nanPrice);
  if (rule.latencyMs !== undefined && !(rule.latencyMs >= 0 && Number.isFinite(rule.latencyMs))) {
    throw new RangeError(`${where}: latencyMs must be a finite number ≥ 0, got ${rule.latencyMs}`);
  }
  const burst = rule.rateLimitBurst;
  if (burst !== undefined) {
    if (!Number.isInteger(burst.length) || burst.length < 1) {
      throw new RangeError(
        `${where}: rateLimitBurst.length must be an integer ≥ 1, got ${burst.length}`,
      );
    }
    if (
      burst.every !== undefined &&
      (!Number.isInteger(burst.every) || burst.every < burst.length)
    ) {
      throw new RangeError(
        `${where}: rateLimitBurst.every must be an integer ≥ length (${burst.length}), got ${burst.every}`,
      );
    }
    const wait = burst.retryAfterMs;
    if (wait !== undefined && !(wait >= 0 && Number.isFinite(wait))) {
      throw new RangeError(
        `${where}: rateLimitBurst.retryAfterMs must be a finite number ≥ 0, got ${wait}`,
      );
    }
  }
  return rule;
}

/** A path test from a glob or RegExp; no pattern matches everything. */
function pathMatcher(pattern: string | RegExp | undefined): (path: string) => boolean {
  if (pattern === undefined) return () => true;
  const regex = typeof pattern === "string" ? globToRegExp(pattern) : pattern;
  return (path) => {
    regex.lastIndex = 0;
    return regex.test(path);
  };
}

/** A glob as an anchored RegExp: `*` any run of characters (`/` included), `?` one character. */
function globToRegExp(glob: string): RegExp {
  let source = "";
  for (const character of glob) {
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else source += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/**
 * A uniform number in [0, 1) from four integers: murmur3's 32-bit mixing steps over their running
 * combination. Stateless, so one request's draw does not depend on another's.
 */
function unitHash(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ d, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
