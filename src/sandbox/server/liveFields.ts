/**
 * The fields the live deployment leaves out of its records (read from `fixtures/captured`), which
 * the sandbox leaves out too when it speaks the live spelling. The spec lists them; pathlab's
 * decoders take them as optional.
 */

/** Insight operations whose live records carry `forecast_start_time` (all others omit it). */
const KEEPS_FORECAST_START = new Set(["/insights/prediction-percentiles"]);

/** Fields the live venue A records omit, by operation; every venue A record omits the start too. */
const VENUE_A_OMITTED: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "/insights/venuea/up-down/daily": ["market_probability_up", "market_outcome"],
  "/insights/venuea/up-down/hourly": ["market_probability_up", "market_outcome"],
  "/insights/venuea/up-down/15min": [
    "market_probability_up",
    "market_outcome",
    "event_creation_time",
  ],
  "/insights/venuea/up-down/5min": [
    "market_probability_up",
    "market_outcome",
    "event_creation_time",
  ],
});

/**
 * The top-level fields (of the record, or of each element of an array record) that the live
 * deployment does not write for `operationPath` (a spec path): `forecast_start_time` of every insight
 * record but the prediction percentiles and of venue A's records, and venue A's compatibility
 * fields `market_probability_up`/`market_outcome` (and `event_creation_time` of the 15- and 5-minute
 * markets). Venue B was not captured: nothing is left out there. Empty for other operations.
 * @example liveOmittedFields("/insights/liquidation") // => ["forecast_start_time"]
 */
export function liveOmittedFields(operationPath: string): readonly string[] {
  if (operationPath.startsWith("/insights/venuea/")) {
    return ["forecast_start_time", ...(VENUE_A_OMITTED[operationPath] ?? [])];
  }
  if (operationPath.startsWith("/insights/venueb/") || !operationPath.startsWith("/insights/")) {
    return [];
  }
  return KEEPS_FORECAST_START.has(operationPath) ? [] : ["forecast_start_time"];
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
