/** How the spec layer's errors render a value they did not accept. */

const MAX_TEXT_LENGTH = 60;

/**
 * A short, unambiguous rendering of any value for an error message: strings quoted (and cut after
 * 60 characters), numbers as JavaScript prints them (`NaN`, `Infinity`), `missing` for `undefined`,
 * `array(n)` and `object` for containers, `Date(<iso>)` for dates.
 * @example
 * describeValue("0.4") // => '"0.4"'
 * describeValue(undefined) // => "missing"
 * describeValue([1, 2, 3]) // => "array(3)"
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const text = JSON.stringify(value);
    return text.length > MAX_TEXT_LENGTH
      ? `${text.slice(0, MAX_TEXT_LENGTH)}…" (${value.length} chars)`
      : text;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (Array.isArray(value)) return `array(${value.length})`;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "Date(invalid)" : `Date(${value.toISOString()})`;
  }
  return typeof value === "object" ? "object" : typeof value;
}
