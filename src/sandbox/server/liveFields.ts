/**
 * The fields the live deployment leaves out of its records (read from `fixtures/captured`), which
 * the sandbox leaves out too when it speaks the live spelling. The spec lists them; pathlab's
 * decoders take them as optional.
 */

import { insightKind, isInsightPath } from "../../domain/insightKindLists.ts";

/**
 * The top-level fields (of the record, or of each element of an array record) that the live
 * deployment does not write for `operationPath` (a spec path): its kind's `liveOmittedFields`
 * (`forecast_start_time` of every insight record but the prediction percentiles and of venue A's
 * records, and venue A's compatibility fields `market_probability_up`/`market_outcome`, with
 * `event_creation_time` of the 15- and 5-minute markets; venue B was not captured: nothing is left
 * out there). Empty for other operations.
 * @example liveOmittedFields("/insights/liquidation") // => ["forecast_start_time"]
 */
export function liveOmittedFields(operationPath: string): readonly string[] {
  return isInsightPath(operationPath) ? insightKind(operationPath).liveOmittedFields : [];
}

/**
 * The encoded record without the fields of {@link liveOmittedFields} (a new object; the input is
 * not changed).
 * @example withoutLiveOmittedFields("/insights/liquidation", { forecast_start_time: "…", data: [] }) // => { data: [] }
 */
export function withoutLiveOmittedFields(operationPath: string, encoded: unknown): unknown {
  const omitted = liveOmittedFields(operationPath);
  if (omitted.length === 0) return encoded;
  const strip = (value: unknown): unknown => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const copy = { ...(value as Record<string, unknown>) };
    for (const field of omitted) delete copy[field];
    return copy;
  };
  return Array.isArray(encoded) ? encoded.map(strip) : strip(encoded);
}
