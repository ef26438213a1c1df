/**
 * A small codec toolkit: each {@link Codec} validates unknown JSON into a typed value (throwing
 * {@link DecodeError} with the JSON path of the first problem) and writes the value back to JSON.
 * The spec layer imports nothing, so this stands in for a schema library.
 *
 * Speed: codecs are built once at module load; decoding walks the value with plain loops and a
 * mutable path stack (numbers and strings pushed and popped, formatted only on error), so no closure
 * or path string is allocated per element. Number arrays (prediction paths) have their own loops.
 * This file is over 300 lines because the combinators share the path machinery; each is short.
 */
import { describeValue } from "./describe-value.ts";
import { DecodeError } from "./errors.ts";
import { wireFieldName } from "./naming.ts";
import type { Naming } from "./operation.ts";
import { ISO_TIME_EXPECTED, parseIsoTimeMs } from "./time.ts";

/**
 * What a decoder carries while it walks a value: the operation (for messages), the naming of the
 * deployment, and the path from the root as a stack of keys and indexes.
 * @example const state: DecodeState = { operation: "/insights/liquidation", naming: liveNaming, path: [] };
 */
export interface DecodeState {
  readonly operation: string;
  readonly naming: Naming;
  readonly path: (string | number)[];
}

/**
 * A decoder and its inverse. `expected` describes the accepted values for messages. Both functions
 * are properties (not methods), so TypeScript checks them strictly in both directions.
 * @example
 * const positive: Codec<number> = { expected: "positive number", decode: (value, state) => (typeof value === "number" && value > 0 ? value : failDecode(state, "positive number", value)), encode: (value) => value };
 */
export interface Codec<T> {
  readonly expected: string;
  readonly decode: (value: unknown, state: DecodeState) => T;
  readonly encode: (value: T, naming: Naming) => unknown;
  /** Set by {@link optional}: an object field that may be absent. */
  readonly optional?: boolean;
}

/** The decoded type of a codec. @example type N = CodecValue<typeof integerCodec>; // number */
export type CodecValue<C> = C extends Codec<infer T> ? T : never;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A path stack as text: `data[3].long_liquidation_probability["12"]`; keys that are not identifiers
 * in brackets and quotes; `$` for the root.
 * @example
 * formatJsonPath(["data", 3, "long_liquidation_probability", "12"]) // => 'data[3].long_liquidation_probability["12"]'
 * formatJsonPath([]) // => "$"
 */
export function formatJsonPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return "$";
  let text = "";
  for (let index = 0; index < path.length; ++index) {
    text += jsonPathSegment(path[index], index === 0);
  }
  return text;
}

/**
 * One segment of {@link formatJsonPath}'s text: `[3]` for an index, `.name` (`name` when `first`)
 * for an identifier key, `["12"]` for another key. A walk that builds a path on its way down
 * appends these.
 * @example jsonPathSegment("12", false) // => '["12"]'
 */
export function jsonPathSegment(segment: string | number, first: boolean): string {
  if (typeof segment === "number") return `[${segment}]`;
  if (IDENTIFIER.test(segment)) return first ? segment : `.${segment}`;
  return `[${JSON.stringify(segment)}]`;
}

/**
 * Throws the {@link DecodeError} for the current path: `<operation>: <path>: expected <expected>, got <value>`.
 * @example
 * failDecode({ operation: "/x", naming: neutralNaming, path: ["a"] }, "number", "1"); // throws '/x: a: expected number, got "1"'
 */
export function failDecode(state: DecodeState, expected: string, value: unknown): never {
  throw new DecodeError(
    state.operation,
    formatJsonPath(state.path),
    expected,
    describeValue(value),
  );
}

/**
 * Runs a codec on a whole response body, starting a fresh path.
 * @example
 * decodeWith("/x", integerCodec, 3, neutralNaming) // => 3
 */
export function decodeWith<T>(
  operation: string,
  codec: Codec<T>,
  value: unknown,
  naming: Naming,
): T {
  return codec.decode(value, { operation, naming, path: [] });
}

function identity<T>(value: T): T {
  return value;
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value);
}

/**
 * A codec of one JSON scalar: `accepts` tells a valid value; anything else fails with `expected`.
 * Written back unchanged.
 * @example scalarCodec("even integer", (value): value is number => Number.isInteger(value) && (value as number) % 2 === 0)
 */
export function scalarCodec<T>(
  expected: string,
  accepts: (value: unknown) => value is T,
): Codec<T> {
  return {
    expected,
    decode: (value, state) => (accepts(value) ? value : failDecode(state, expected, value)),
    encode: identity,
  };
}

/**
 * Any number but NaN (infinities pass; JSON cannot carry them).
 * @example numberCodec.decode(1.5, state) // => 1.5
 */
export const numberCodec: Codec<number> = scalarCodec("number", isNumber);

/**
 * A finite number: not NaN, not ±Infinity.
 * @example finiteNumberCodec.decode(-2, state) // => -2
 */
export const finiteNumberCodec: Codec<number> = scalarCodec(
  "finite number",
  (value): value is number => Number.isFinite(value),
);

/**
 * A probability: a number in [0,1].
 * @example probabilityCodec.decode(0.4151, state) // => 0.4151
 */
export const probabilityCodec: Codec<number> = scalarCodec(
  "number in [0,1]",
  (value): value is number => typeof value === "number" && value >= 0 && value <= 1,
);

/**
 * A price: a finite number > 0 (the spec's prices; a zero or negative price is a broken record).
 * @example positivePriceCodec.decode(71181, state) // => 71181
 */
export const positivePriceCodec: Codec<number> = scalarCodec(
  "finite price > 0",
  (value): value is number => Number.isFinite(value) && (value as number) > 0,
);

/**
 * A finite number ≥ 0 (sizes, durations).
 * @example nonNegativeNumberCodec.decode(62.9165, state) // => 62.9165
 */
export const nonNegativeNumberCodec: Codec<number> = scalarCodec(
  "finite number ≥ 0",
  (value): value is number => Number.isFinite(value) && (value as number) >= 0,
);

/**
 * An integer (a number with no fractional part).
 * @example integerCodec.decode(47, state) // => 47
 */
export const integerCodec: Codec<number> = scalarCodec("integer", (value): value is number =>
  Number.isInteger(value),
);

/**
 * A string.
 * @example stringCodec.decode("btc-updown-5m", state) // => "btc-updown-5m"
 */
export const stringCodec: Codec<string> = scalarCodec(
  "string",
  (value): value is string => typeof value === "string",
);

/**
 * A boolean.
 * @example booleanCodec.decode(true, state) // => true
 */
export const booleanCodec: Codec<boolean> = scalarCodec(
  "boolean",
  (value): value is boolean => typeof value === "boolean",
);

/**
 * An ISO 8601 time string, kept as written (`2026-02-25T23:45:17.526606+00:00`,
 * `2026-03-27 08:00:00Z`, `2026-02-25T23:27:00Z`, a date `2026-02-25`); see `parseIsoTimeMs`.
 * @example timeCodec.decode("2026-03-27 08:00:00Z", state) // => "2026-03-27 08:00:00Z"
 */
export const timeCodec: Codec<string> = scalarCodec(
  ISO_TIME_EXPECTED,
  (value): value is string => typeof value === "string" && !Number.isNaN(parseIsoTimeMs(value)),
);

/**
 * A string matching a pattern, e.g. a percentage `1.0%`.
 * @example patternCodec(/^\d+%$/, "percentage").decode("5%", state) // => "5%"
 */
export function patternCodec(pattern: RegExp, expected: string): Codec<string> {
  return scalarCodec(
    expected,
    (value): value is string => typeof value === "string" && pattern.test(value),
  );
}

/**
 * A percentage string such as `1.0%`, `-2.5%` or `+10%` (sign optional).
 * @example percentageCodec.decode("16.0%", state) // => "16.0%"
 */
export const percentageCodec: Codec<string> = patternCodec(
  /^[+-]?\d+(?:\.\d+)?%$/,
  "percentage such as 1.0% or -2.5%",
);

/**
 * A value that may be JSON `null`.
 * @example nullable(finiteNumberCodec).decode(null, state) // => null
 */
export function nullable<T>(codec: Codec<T>): Codec<T | null> {
  const expected = `${codec.expected} or null`;
  return {
    expected,
    decode: (value, state) => {
      if (value === null) return null;
      const depth = state.path.length;
      try {
        return codec.decode(value, state);
      } catch (error) {
        // A failure at this very level (not inside a child) is re-described to mention null.
        if (error instanceof DecodeError && state.path.length === depth) {
          return failDecode(state, expected, value);
        }
        throw error;
      }
    },
    encode: (value, naming) => (value === null ? null : codec.encode(value, naming)),
  };
}

/**
 * An object field that may be absent (`undefined` in the record; not written back when undefined).
 * @example objectOf<{ a?: number }>({ a: optional(integerCodec) }).decode({}, state) // => {}
 */
export function optional<T>(codec: Codec<T>): Codec<T | undefined> {
  return {
    expected: codec.expected,
    optional: true,
    decode: (value, state) => (value === undefined ? undefined : codec.decode(value, state)),
    encode: (value, naming) => (value === undefined ? undefined : codec.encode(value, naming)),
  };
}

/**
 * An array whose every element passes `codec`.
 * @example arrayOf(integerCodec).decode([1, 2], state) // => [1, 2]
 */
export function arrayOf<T>(codec: Codec<T>): Codec<T[]> {
  const expected = `array of ${codec.expected}`;
  return {
    expected,
    decode: (value, state) => {
      if (!Array.isArray(value)) return failDecode(state, expected, value);
      const length = value.length;
      const out = new Array<T>(length);
      const path = state.path;
      for (let index = 0; index < length; ++index) {
        path.push(index);
        out[index] = codec.decode(value[index], state);
        path.pop();
      }
      return out;
    },
    encode: (value, naming) => {
      const length = value.length;
      const out = new Array<unknown>(length);
      for (let index = 0; index < length; ++index) out[index] = codec.encode(value[index], naming);
      return out;
    },
  };
}

/** What the elements of a number array must be: a name for errors and the test. */
interface NumberRule {
  readonly expected: string;
  readonly test: (value: number) => boolean;
}

const FINITE: NumberRule = { expected: "finite number", test: Number.isFinite };
const NON_NEGATIVE: NumberRule = {
  expected: "finite number ≥ 0",
  test: (value) => Number.isFinite(value) && value >= 0,
};
const POSITIVE_PRICE: NumberRule = {
  expected: "finite price > 0",
  test: (value) => Number.isFinite(value) && value > 0,
};

/**
 * An array of numbers that pass `rule` (or nulls, when `nullable`), checked in one loop; an
 * element that fails is named by its index.
 */
function numberArrayCodec<T extends number | null>(
  rule: NumberRule,
  nullable: boolean,
): Codec<T[]> {
  const element = nullable ? `${rule.expected} or null` : rule.expected;
  const expected = `array of ${element}`;
  return {
    expected,
    decode: (value, state) => {
      if (!Array.isArray(value)) return failDecode(state, expected, value);
      const length = value.length;
      for (let index = 0; index < length; ++index) {
        const item: unknown = value[index];
        if (item === null && nullable) continue;
        if (typeof item !== "number" || !rule.test(item)) {
          state.path.push(index);
          failDecode(state, element, item);
        }
      }
      return (value as T[]).slice();
    },
    encode: (value) => value.slice(),
  };
}

/**
 * An array of finite numbers, checked in a plain loop of its own: the prediction paths' fast path
 * (a monomorphic check, where the rule of {@link numberArrayCodec} is a call).
 * @example finiteNumberArrayCodec.decode([1, 2.5], state) // => [1, 2.5]
 */
export const finiteNumberArrayCodec: Codec<number[]> = {
  expected: "array of finite number",
  decode: (value, state) => {
    if (!Array.isArray(value)) return failDecode(state, "array of finite number", value);
    const length = value.length;
    for (let index = 0; index < length; ++index) {
      const element: unknown = value[index];
      if (typeof element !== "number" || !Number.isFinite(element)) {
        state.path.push(index);
        failDecode(state, "finite number", element);
      }
    }
    return (value as number[]).slice();
  },
  encode: (value) => value.slice(),
};

/**
 * An array of finite numbers or nulls.
 * @example nullableFiniteNumberArrayCodec.decode([null, 4.65], state) // => [null, 4.65]
 */
export const nullableFiniteNumberArrayCodec = numberArrayCodec<number | null>(FINITE, true);

/**
 * An array of finite numbers ≥ 0 (option prices, volatilities).
 * @example nonNegativeNumberArrayCodec.decode([0, 0.42], state) // => [0, 0.42]
 */
export const nonNegativeNumberArrayCodec = numberArrayCodec<number>(NON_NEGATIVE, false);

/**
 * An array of finite numbers ≥ 0 or nulls (volatility series with missing blocks).
 * @example nullableNonNegativeNumberArrayCodec.decode([null, 4.65], state) // => [null, 4.65]
 */
export const nullableNonNegativeNumberArrayCodec = numberArrayCodec<number | null>(
  NON_NEGATIVE,
  true,
);

/**
 * An array of finite prices > 0 (strikes).
 * @example positivePriceArrayCodec.decode([66000, 68000], state) // => [66000, 68000]
 */
export const positivePriceArrayCodec = numberArrayCodec<number>(POSITIVE_PRICE, false);

/**
 * An array of finite prices > 0 or nulls (realized prices with missing candles).
 * @example nullablePositivePriceArrayCodec.decode([null, 5142.6], state) // => [null, 5142.6]
 */
export const nullablePositivePriceArrayCodec = numberArrayCodec<number | null>(
  POSITIVE_PRICE,
  true,
);

/**
 * The codec of each field of `T`; optional fields of `T` need {@link optional}.
 * @example const fields: FieldCodecs<{ id: number; note?: string }> = { id: integerCodec, note: optional(stringCodec) };
 */
export type FieldCodecs<T> = { readonly [K in keyof T]-?: Codec<T[K]> };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An object with known fields, written in the spec's neutral names; on the wire each name carries the
 * deployment's prefixes (`venuea_x` is read from `polymarket_x` under `liveNaming`). Unknown extra
 * fields are ignored. A missing required field is reported with a hint when a field with the same
 * suffix but another prefix is present (a naming mismatch).
 * @example
 * objectOf<{ model_outcome: string }>({ model_outcome: stringCodec }).decode({ synth_outcome: "Up" }, liveState)
 * // => { model_outcome: "Up" }
 */
export function objectOf<T>(fields: FieldCodecs<T>): Codec<T> {
  const names = Object.keys(fields) as (keyof T & string)[];
  const codecs = names.map((name) => fields[name] as Codec<unknown>);
  const count = names.length;
  const wireNamesByNaming = new WeakMap<Naming, string[]>();
  const wireNamesFor = (naming: Naming): string[] => {
    let wireNames = wireNamesByNaming.get(naming);
    if (wireNames === undefined) {
      wireNames = names.map((name) => wireFieldName(name, naming));
      wireNamesByNaming.set(naming, wireNames);
    }
    return wireNames;
  };
  const expected = `object with fields ${names.join(", ")}`;
  return {
    expected,
    decode: (value, state) => {
      if (!isPlainObject(value)) return failDecode(state, "object", value);
      const wireNames = wireNamesFor(state.naming);
      const out: Record<string, unknown> = {};
      const path = state.path;
      for (let index = 0; index < count; ++index) {
        const wireName = wireNames[index];
        const codec = codecs[index];
        const fieldValue = value[wireName];
        path.push(wireName);
        if (fieldValue === undefined && codec.optional !== true) {
          failDecode(state, codec.expected + namingHint(value, wireName, names[index]), undefined);
        }
        const decoded = codec.decode(fieldValue, state);
        path.pop();
        if (decoded !== undefined) out[names[index]] = decoded;
      }
      return out as T;
    },
    encode: (value, naming) => {
      const wireNames = wireNamesFor(naming);
      const out: Record<string, unknown> = {};
      for (let index = 0; index < count; ++index) {
        const fieldValue = (value as Record<string, unknown>)[names[index]];
        if (fieldValue !== undefined)
          out[wireNames[index]] = codecs[index].encode(fieldValue, naming);
      }
      return out;
    },
  };
}

/** " (found "synth_outcome": check the naming)" when the object has the field under another prefix. */
function namingHint(value: Record<string, unknown>, wireName: string, neutralName: string): string {
  if (wireName === neutralName && !/^(venuea|venueb|model)_/.test(neutralName)) return "";
  const suffix = neutralName.slice(neutralName.indexOf("_"));
  const found = Object.keys(value).find((key) => key !== wireName && key.endsWith(suffix));
  return found === undefined ? "" : ` (found "${found}": is the naming right?)`;
}

/**
 * Which keys a {@link mapOf} accepts.
 * @example const strikes: KeyRule = { expected: "whole-dollar strike", pattern: /^\d+$/ };
 */
export interface KeyRule {
  /** E.g. `decimal price`, for messages: `expected key decimal price, got "abc"`. */
  readonly expected: string;
  readonly pattern: RegExp;
}

/**
 * Keys that are decimal prices (`67927.01858575`, `68000`, `1e-5`).
 * @example PRICE_KEYS.pattern.test("71272.32018575001") // => true
 */
export const PRICE_KEYS: KeyRule = {
  expected: "decimal price",
  pattern: /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/,
};

/**
 * Keys that are whole numbers of hours (`6`, `12`, `24`).
 * @example HOUR_KEYS.pattern.test("24") // => true
 */
export const HOUR_KEYS: KeyRule = { expected: "whole number of hours", pattern: /^\d+$/ };

/**
 * Keys that are horizon labels (`24h`, `1h`).
 * @example HORIZON_KEYS.pattern.test("24h") // => true
 */
export const HORIZON_KEYS: KeyRule = { expected: "horizon such as 24h", pattern: /^\d+h$/ };

/**
 * An object used as a map: every key must pass `keys`, every value `codec`. Keys are kept as written.
 * @example
 * mapOf(HOUR_KEYS, probabilityCodec).decode({ "24": 0.07 }, state) // => { "24": 0.07 }
 */
export function mapOf<T>(keys: KeyRule, codec: Codec<T>): Codec<Record<string, T>> {
  const expected = `object keyed by ${keys.expected}`;
  return {
    expected,
    decode: (value, state) => {
      if (!isPlainObject(value)) return failDecode(state, expected, value);
      const out: Record<string, T> = {};
      const path = state.path;
      const mapKeys = Object.keys(value);
      for (let index = 0; index < mapKeys.length; ++index) {
        const key = mapKeys[index];
        path.push(key);
        if (!keys.pattern.test(key)) failDecode(state, `key ${keys.expected}`, key);
        out[key] = codec.decode(value[key], state);
        path.pop();
      }
      return out;
    },
    encode: (value, naming) => {
      const out: Record<string, unknown> = {};
      const mapKeys = Object.keys(value);
      for (let index = 0; index < mapKeys.length; ++index) {
        out[mapKeys[index]] = codec.encode(value[mapKeys[index]], naming);
      }
      return out;
    },
  };
}

/**
 * A value from a fixed set of strings, with aliases normalized: `aliases` maps each accepted wire
 * spelling (compared after `fold`, e.g. lower-casing) to its normalized value; `encodeAs` gives the
 * wire spelling written back, and `liveEncodeAs` (default `encodeAs`) the one written for a naming
 * with the live spelling.
 * @example
 * const outcome = enumCodec({ up: "UP", down: "DOWN" }, { UP: "UP", DOWN: "DOWN" }, (text) => text.toLowerCase(), "Up or Down");
 * outcome.decode("Down", state) // => "DOWN"
 */
export function enumCodec<T extends string>(
  aliases: Readonly<Record<string, T>>,
  encodeAs: Readonly<Record<T, string>>,
  fold: (text: string) => string,
  expected: string,
  liveEncodeAs: Readonly<Record<T, string>> = encodeAs,
): Codec<T> {
  return {
    expected,
    decode: (value, state) => {
      if (typeof value === "string") {
        const folded = fold(value);
        if (Object.hasOwn(aliases, folded)) return aliases[folded];
      }
      return failDecode(state, expected, value);
    },
    encode: (value, naming) => (naming.spelling === "live" ? liveEncodeAs : encodeAs)[value],
  };
}

/**
 * A codec with an extra check after decoding; `check` calls {@link failDecode} (after pushing the
 * path of the offending part) when the value is not acceptable.
 * @example
 * refine(arrayOf(integerCodec), (values, state) => { if (values.length === 0) failDecode(state, "non-empty array", values); })
 */
export function refine<T>(
  codec: Codec<T>,
  check: (value: T, state: DecodeState) => void,
): Codec<T> {
  return {
    expected: codec.expected,
    decode: (value, state) => {
      const decoded = codec.decode(value, state);
      check(decoded, state);
      return decoded;
    },
    encode: codec.encode,
  };
}
