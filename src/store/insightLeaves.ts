/**
 * The numeric leaves of an insight record, as rows `(field, key, value)` for `insight_values`.
 */

/**
 * One number of a record: where it is (`field`, `key`) and its value (null where the record has null).
 * @example const leaf: InsightLeaf = { field: "data.long_liquidation_probability", key: "5.0%/12", value: 0.0412 };
 */
export interface InsightLeaf {
  /** The property names from the record's root to the leaf, joined by `.` (`data.long_liquidation_probability`). */
  readonly field: string;
  /** The leaf's coordinates within `field`, joined by `/` (`5.0%/12`); empty for a plain field. */
  readonly key: string;
  readonly value: number | null;
}

/**
 * Labels that name the elements of a record's arrays better than their index: a liquidation
 * scenario's `price_change` (`"5.0%"`), an LP interval's `full_width` (`"10.0%"`).
 */
const LABEL_FIELDS = ["price_change", "full_width"] as const;

/** A property name that names a field; other keys (`"0.05"`, `"24h"`, `"68000"`) are coordinates. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Every number (and null) of `record`, in document order, with its place: `field` joins the
 * property names on the way (`forecast_future.percentiles`), `key` joins the coordinates: array
 * indices (`12`), map keys that are not names (`"0.05"`, `"24h"`, `"6"`), and for arrays of objects
 * that carry a label (`price_change`, `interval.full_width`, distinct across the array) the label
 * instead of the index. Strings and booleans are left out (they are in the record's JSON).
 * @param record - an insight record, as decoded or as stored.
 * @example
 * insightLeaves({ current_price: 100, data: [{ price_change: "1.0%", long_liquidation_probability: { "6": 0.02 } }] })
 * // => [{ field: "current_price", key: "", value: 100 },
 * //     { field: "data.long_liquidation_probability", key: "1.0%/6", value: 0.02 }]
 */
export function insightLeaves(record: unknown): InsightLeaf[] {
  const leaves: InsightLeaf[] = [];
  visit(record, undefined, undefined, leaves);
  return leaves;
}

/**
 * Visits `value` with the property names and coordinates on the way joined so far (undefined for
 * none yet), so that a leaf costs no array copies or joins.
 */
function visit(
  value: unknown,
  field: string | undefined,
  key: string | undefined,
  leaves: InsightLeaf[],
): void {
  if (value === null || typeof value === "number") {
    leaves.push({ field: field ?? "", key: key ?? "", value });
    return;
  }
  if (Array.isArray(value)) {
    const labels = arrayLabels(value);
    value.forEach((item, index) =>
      visit(item, field, joined(key, "/", labels?.[index] ?? String(index)), leaves),
    );
    return;
  }
  if (typeof value === "object") {
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      if (FIELD_NAME.test(name)) visit(item, joined(field, ".", name), key, leaves);
      else visit(item, field, joined(key, "/", name), leaves);
    }
  }
}

function joined(prefix: string | undefined, separator: string, segment: string): string {
  return prefix === undefined ? segment : prefix + separator + segment;
}

/** The elements' labels when every element has one and they are distinct; undefined otherwise. */
function arrayLabels(items: readonly unknown[]): string[] | undefined {
  if (items.length === 0) return undefined;
  const labels: string[] = [];
  for (const item of items) {
    const label = labelOf(item);
    if (label === undefined) return undefined;
    labels.push(label);
  }
  return new Set(labels).size === labels.length ? labels : undefined;
}

function labelOf(item: unknown): string | undefined {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
  const object = item as Record<string, unknown>;
  for (const name of LABEL_FIELDS) {
    if (typeof object[name] === "string") return object[name];
  }
  for (const child of Object.values(object)) {
    if (child !== null && typeof child === "object" && !Array.isArray(child)) {
      for (const name of LABEL_FIELDS) {
        const label = (child as Record<string, unknown>)[name];
        if (typeof label === "string") return label;
      }
    }
  }
  return undefined;
}
