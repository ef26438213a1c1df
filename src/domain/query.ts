/**
 * `encodeQuery`: the single place where request parameters are checked before a request goes out,
 * against the operation's {@link ParamSpec}s and {@link RangeRule}s.
 */
import { describeValue } from "./describe-value.ts";
import { InvalidParamsError } from "./errors.ts";
import type { Operation, ParamSpec, RangeRule } from "./operation.ts";
import { ISO_TIME_EXPECTED, parseIsoTimeMs } from "./time.ts";

const DAY_MS = 86_400_000;

/**
 * The parameter type of an operation, read from its `__params` carrier. (`ParamsOf` of
 * `operation.ts` resolves to `never` for every operation whose result type is not `unknown`: `encode`
 * takes the result contravariantly, so the operation does not extend `Operation<string, P, unknown>`.)
 * @example type Params = QueryParamsOf<typeof operationTable.insights.liquidation>; // InsightParams<InsightAsset>
 */
export type QueryParamsOf<O> = O extends { readonly __params?: infer P }
  ? Exclude<P, undefined>
  : never;

/**
 * What {@link encodeQuery} reads of an operation.
 * @example const target: QueryTarget = operationTable.validation.uidHolders;
 */
export type QueryTarget = Pick<
  Operation<string, unknown>,
  "path" | "params" | "ranges" | "__params"
>;

/**
 * Checks `params` against the operation and encodes them as a query string:
 * - an unknown parameter, a missing required one, a wrong type (a non-integer, an unparsable time, a
 *   value that is not a string), a value the operation does not allow (asset `XAU` on
 *   `/insights/option-pricing`, horizon `2h`; asset case is significant, the message suggests the
 *   right case), an integer below its minimum, or a time range that is reversed or longer than its
 *   rule allows each throw an {@link InvalidParamsError} naming the operation, the parameter, what was
 *   expected and what was got;
 * - `undefined` and `null` values count as omitted, and omitted optional parameters are not sent;
 * - Dates are sent as `toISOString()`, time strings as written, integers in decimal;
 * - repeated parameters (an array) are sent once per value: `miner=1&miner=2`.
 * @param operation - the operation the query is for: its path and query parameter rules, e.g.
 *   `operationTable.predictions.latest`.
 * @param params - the query parameters by their spec names; an array value repeats the parameter.
 * @example
 * encodeQuery(operationTable.predictions.latest, { asset: "BTC", time_increment: 300, time_length: 86400, miner: [1, 2] }).toString()
 * // => "asset=BTC&time_increment=300&time_length=86400&miner=1&miner=2"
 */
export function encodeQuery<O extends QueryTarget>(
  operation: O,
  params: QueryParamsOf<O>,
): URLSearchParams {
  const path = operation.path;
  const given = params ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new InvalidParamsError(
      path,
      "(params)",
      "an object of parameters",
      describeValue(params),
    );
  }
  const values = given as Record<string, unknown>;
  const specs = operation.params;
  const known = new Set(specs.map((spec) => spec.name));
  for (const name of Object.keys(values)) {
    if (!known.has(name) && values[name] !== undefined) {
      const expected =
        specs.length === 0
          ? "no parameters (this operation takes none)"
          : `no such parameter; known: ${specs.map((spec) => spec.name).join(", ")}`;
      throw new InvalidParamsError(path, name, expected, describeValue(values[name]));
    }
  }
  const query = new URLSearchParams();
  const times = new Map<string, { text: string; ms: number }>();
  for (const spec of specs) {
    const value = values[spec.name];
    if (value === undefined || value === null) {
      if (spec.required) {
        throw new InvalidParamsError(
          path,
          spec.name,
          `${describeSpec(spec)} (required)`,
          "missing",
        );
      }
      continue;
    }
    if (spec.repeated) {
      if (!Array.isArray(value)) {
        throw new InvalidParamsError(
          path,
          spec.name,
          `array of ${describeSpec(spec)}`,
          describeValue(value),
        );
      }
      if (value.length === 0 && spec.required) {
        throw new InvalidParamsError(
          path,
          spec.name,
          `at least one ${describeSpec(spec)}`,
          "array(0)",
        );
      }
      for (let index = 0; index < value.length; ++index) {
        query.append(spec.name, encodeValue(path, spec, value[index], index).text);
      }
      continue;
    }
    const encoded = encodeValue(path, spec, value, -1);
    if (spec.type === "time") times.set(spec.name, encoded);
    query.append(spec.name, encoded.text);
  }
  for (const rule of operation.ranges) checkRange(path, rule, times);
  return query;
}

/** "integer ≥ 0", "one of 300, 60", "ISO 8601 time (…)", "string". */
function describeSpec(spec: ParamSpec): string {
  if (spec.allowed !== undefined) return `one of ${spec.allowed.join(", ")}`;
  if (spec.type === "time") return `${ISO_TIME_EXPECTED} or a valid Date`;
  if (spec.type === "integer") return spec.min === undefined ? "integer" : `integer ≥ ${spec.min}`;
  return "string";
}

/** One value checked and encoded; `index` ≥ 0 for an element of a repeated parameter. */
function encodeValue(
  path: string,
  spec: ParamSpec,
  value: unknown,
  index: number,
): { text: string; ms: number } {
  const at = index >= 0 ? ` (element ${index})` : "";
  const fail = (expected: string): never => {
    throw new InvalidParamsError(path, spec.name, expected, describeValue(value) + at);
  };
  if (spec.type === "time") {
    if (value instanceof Date) {
      const ms = value.getTime();
      return Number.isNaN(ms) ? fail(describeSpec(spec)) : { text: value.toISOString(), ms };
    }
    if (typeof value !== "string") return fail(describeSpec(spec));
    const ms = parseIsoTimeMs(value);
    return Number.isNaN(ms) ? fail(describeSpec(spec)) : { text: value, ms };
  }
  if (spec.type === "integer") {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      return fail(spec.min === undefined ? "integer" : `integer ≥ ${spec.min}`);
    }
    if (spec.min !== undefined && value < spec.min) return fail(`integer ≥ ${spec.min}`);
  } else if (typeof value !== "string") {
    return fail(
      spec.allowed === undefined ? "string" : `string, one of ${spec.allowed.join(", ")}`,
    );
  }
  if (spec.allowed !== undefined && !spec.allowed.includes(value as string | number)) {
    const lower = typeof value === "string" ? value.toLowerCase() : undefined;
    const sameLetters = spec.allowed.find(
      (allowed) => typeof allowed === "string" && allowed.toLowerCase() === lower,
    );
    const suggestion =
      sameLetters === undefined
        ? ""
        : ` (did you mean "${sameLetters}"? values are case-sensitive)`;
    return fail(`one of ${spec.allowed.join(", ")}${suggestion}`);
  }
  return { text: String(value), ms: NaN };
}

/** `to` not before `from`, and at most `maxDays` after it (by UTC date with `inclusiveDay`). */
function checkRange(
  path: string,
  rule: RangeRule,
  times: ReadonlyMap<string, { text: string; ms: number }>,
): void {
  const from = times.get(rule.from);
  const to = times.get(rule.to);
  if (from === undefined || to === undefined) return;
  const fromLabel = `${rule.from} (${from.text})`;
  if (rule.inclusiveDay) {
    const dayDifference = Math.floor(to.ms / DAY_MS) - Math.floor(from.ms / DAY_MS);
    if (dayDifference < 0) {
      throw new InvalidParamsError(
        path,
        rule.to,
        `a UTC day not before ${fromLabel}`,
        JSON.stringify(to.text),
      );
    }
    if (rule.maxDays !== undefined && dayDifference > rule.maxDays) {
      throw new InvalidParamsError(
        path,
        rule.to,
        `a UTC day at most ${rule.maxDays} days after ${fromLabel}, inclusive`,
        `${JSON.stringify(to.text)} (${dayDifference} days after)`,
      );
    }
    return;
  }
  const difference = to.ms - from.ms;
  if (difference < 0) {
    throw new InvalidParamsError(
      path,
      rule.to,
      `a time not before ${fromLabel}`,
      JSON.stringify(to.text),
    );
  }
  if (rule.maxDays !== undefined && difference > rule.maxDays * DAY_MS) {
    throw new InvalidParamsError(
      path,
      rule.to,
      `a time at most ${rule.maxDays} days after ${fromLabel}`,
      `${JSON.stringify(to.text)} (${formatDays(difference)} days after)`,
    );
  }
}

function formatDays(milliseconds: number): string {
  return String(Math.round((milliseconds / DAY_MS) * 1000) / 1000);
}
