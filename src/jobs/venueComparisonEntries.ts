/**
 * Venue records as the store keeps them (`venue_comparisons` table): each market of the service's
 * record beside pathlab's recomputed model probability for it.
 */

import type { InsightResult } from "../insights/result.ts";
import { standardErrorKey } from "../insights/result.ts";
import type { VenueComparisonEntry } from "../store/venueComparisons.ts";

/**
 * One entry per market of a venue operation's service record (one Up/Down record, or each element
 * of a range-family or venue B array) with the recomputed model side's probability and standard
 * error at the same place (`model_probability_up`, or `[i].model_probability` /
 * `[i].model_probability_up`: the model sides are computed from the service record's markets, in
 * its order). Elements without a `slug` and `current_time` (the earlier range form carries
 * neither) are not comparisons the table can key, and are left out (their records are kept as
 * insights). The recomputed probability is null where the model side has none.
 * @example
 * venueComparisonEntries("/insights/venueb/daily", serviceRecords, recompute("/insights/venueb/daily", session, context))
 * // => [{ operation: "/insights/venueb/daily", record: serviceRecords[0], recomputedProbability: 0.61, recomputedStandardError: 0.0049 }, …]
 */
export function venueComparisonEntries(
  operation: string,
  serviceRecord: unknown,
  recomputed: InsightResult<unknown>,
): VenueComparisonEntry[] {
  const services = Array.isArray(serviceRecord) ? serviceRecord : [serviceRecord];
  const sides = Array.isArray(recomputed.record) ? recomputed.record : [recomputed.record];
  const entries: VenueComparisonEntry[] = [];
  services.forEach((service: unknown, index) => {
    if (!isObject(service) || typeof service.slug !== "string") return;
    if (typeof service.current_time !== "string") return;
    const side = sides[index];
    const field = isObject(side)
      ? ["model_probability_up", "model_probability"].find((name) => typeof side[name] === "number")
      : undefined;
    const probability =
      field === undefined ? null : ((side as Record<string, number>)[field] ?? null);
    const path = Array.isArray(recomputed.record) ? [index, field ?? ""] : [field ?? ""];
    const standardError =
      field === undefined ? undefined : recomputed.standardErrors[standardErrorKey(path)];
    entries.push({
      operation,
      record: service as unknown as VenueComparisonEntry["record"],
      recomputedProbability: probability,
      recomputedStandardError: standardError ?? null,
    });
  });
  return entries;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
