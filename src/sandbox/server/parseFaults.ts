/** Fault rules from one line of text, as `pathlab serve --faults` takes them. */
import type { FaultRule, FaultTrigger, SandboxFaults } from "./faults.ts";

/**
 * The text format of {@link parseFaults}, for help texts.
 * @example console.log(FAULTS_FORMAT);
 */
export const FAULTS_FORMAT = `rules separated by ";", each a comma-separated list of key=value:
  path=<glob>        requests it applies to (* = any characters); path=re:<regex> for a RegExp;
                     default every path. Matched against the served and the spec's neutral path.
  latency=<duration> added to every matching request (50ms, 1.5s; a bare number is milliseconds)
  5xx=<trigger>      a 500, 502 or 503 with a string body
  429burst=<n>       bursts of n consecutive 429s, at the start of every 429every=<m> requests
                     (default max(20, 2n)), announcing retryafter=<duration> (default 1s)
  truncate=<trigger> a longer Content-Length than sent, then the socket is destroyed
  malformed=<trigger> a 200 whose body is not valid JSON
  shortpaths=<trigger> prediction paths one point short (288 of 289)
  missingfield=<trigger> the first record lacks its first field
  nan=<trigger>      one price written as the literal NaN
<trigger> is a probability in [0, 1] (drawn deterministically from the seed) or every:<n>.
Example: "5xx=0.2,429burst=3,truncate=0.05,latency=50ms,path=/v2/prediction/*"`;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The keys whose value is a trigger, and the field of the rule each sets. */
const TRIGGER_FIELDS: Readonly<Record<string, TriggerField>> = {
  "5xx": "serverError",
  truncate: "truncate",
  malformed: "malformedJson",
  shortpaths: "shortPaths",
  missingfield: "missingField",
  nan: "nanPrice",
};

/** The fields of a {@link FaultRule} that hold a trigger. */
type TriggerField =
  "serverError" | "truncate" | "malformedJson" | "shortPaths" | "missingField" | "nanPrice";

/**
 * Parses fault rules written as {@link FAULTS_FORMAT} describes. Blank text means no faults.
 * Throws `RangeError` naming the rule, the item, what was expected and what was got.
 * @param text - fault rules as {@link FAULTS_FORMAT} describes them; blank for none.
 * @example
 * parseFaults("5xx=0.2,429burst=3,truncate=0.05,latency=50ms,path=/v2/prediction/*")
 * // => [{ path: "/v2/prediction/*", serverError: 0.2, rateLimitBurst: { length: 3 }, truncate: 0.05, latencyMs: 50 }]
 * parseFaults("nan=every:3; path=re:^/insights/,latency=1s")
 * // => [{ nanPrice: { every: 3 } }, { path: /^\/insights\//, latencyMs: 1000 }]
 */
export function parseFaults(text: string): SandboxFaults {
  const rules: FaultRule[] = [];
  const ruleTexts = text.split(";");
  for (let ruleIndex = 0; ruleIndex < ruleTexts.length; ++ruleIndex) {
    const ruleText = ruleTexts[ruleIndex].trim();
    if (ruleText === "") continue;
    const rule: Mutable<FaultRule> = {};
    let burstLength: number | undefined;
    let burstEvery: number | undefined;
    let retryAfterMs: number | undefined;
    const seen = new Set<string>();
    for (const rawItem of ruleText.split(",")) {
      const item = rawItem.trim();
      const equals = item.indexOf("=");
      const fail = (expected: string, got: string): never => {
        throw new RangeError(
          `parseFaults: rule ${ruleIndex + 1}, item ${JSON.stringify(item)}: expected ${expected}, got ${got}`,
        );
      };
      if (equals <= 0) fail("key=value", JSON.stringify(item));
      const key = item.slice(0, equals).trim().toLowerCase();
      const value = item.slice(equals + 1).trim();
      if (seen.has(key)) fail(`each key once per rule`, `a second ${key}`);
      seen.add(key);
      if (Object.hasOwn(TRIGGER_FIELDS, key)) {
        rule[TRIGGER_FIELDS[key]] = parseTrigger(value, fail);
        continue;
      }
      switch (key) {
        case "path":
          rule.path = parsePath(value, fail);
          break;
        case "latency":
          rule.latencyMs = parseDurationMs(value, fail);
          break;
        case "429burst":
          burstLength = parsePositiveInteger(value, fail);
          break;
        case "429every":
          burstEvery = parsePositiveInteger(value, fail);
          break;
        case "retryafter":
          retryAfterMs = parseDurationMs(value, fail);
          break;
        default:
          fail(
            "a key among path, latency, 5xx, 429burst, 429every, retryafter, truncate, malformed, " +
              "shortpaths, missingfield, nan",
            JSON.stringify(key),
          );
      }
    }
    if (burstLength === undefined && (burstEvery !== undefined || retryAfterMs !== undefined)) {
      throw new RangeError(
        `parseFaults: rule ${ruleIndex + 1}: 429every and retryafter need 429burst=<n> in the same rule`,
      );
    }
    if (burstLength !== undefined) {
      if (burstEvery !== undefined && burstEvery < burstLength) {
        throw new RangeError(
          `parseFaults: rule ${ruleIndex + 1}: expected 429every ≥ 429burst (${burstLength}), got ${burstEvery}`,
        );
      }
      rule.rateLimitBurst = {
        length: burstLength,
        ...(burstEvery !== undefined && { every: burstEvery }),
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      };
    }
    rules.push(rule);
  }
  return rules;
}

type Fail = (expected: string, got: string) => never;

function parsePath(value: string, fail: Fail): string | RegExp {
  if (value === "") return fail("a glob or re:<regex>", "an empty path");
  if (!value.startsWith("re:")) return value;
  try {
    return new RegExp(value.slice(3));
  } catch (error) {
    return fail(
      "a valid regular expression",
      `${JSON.stringify(value.slice(3))} (${(error as Error).message})`,
    );
  }
}

function parseTrigger(value: string, fail: Fail): FaultTrigger {
  const expected = "a probability in [0, 1] or every:<n> (n a whole number ≥ 1)";
  if (value.startsWith("every:")) {
    const every = Number(value.slice(6));
    return Number.isInteger(every) && every >= 1
      ? { every }
      : fail(expected, JSON.stringify(value));
  }
  const probability = value === "" ? Number.NaN : Number(value);
  return probability >= 0 && probability <= 1 ? probability : fail(expected, JSON.stringify(value));
}

function parseDurationMs(value: string, fail: Fail): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value);
  if (match === null) return fail("a duration such as 50ms, 1.5s or 200", JSON.stringify(value));
  const amount = Number(match[1]);
  return match[2] === "s" ? amount * 1000 : amount;
}

function parsePositiveInteger(value: string, fail: Fail): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return number >= 1 ? number : fail("a whole number ≥ 1", JSON.stringify(value));
}
