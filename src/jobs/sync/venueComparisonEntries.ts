/**
 * Venue records as the store keeps them (`venue_comparisons` table): each market of the service's
 * record beside pathlab's recomputed model probability for it.
 */

import type { InsightResult } from "../../insights/result.ts";
import { standardErrorKey } from "../../insights/result.ts";
import { marketDecided, robustEdge, tradableEdge } from "../../insights/marketState.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { venueMarketOf, type VenueComparisonEntry } from "../../store/venueMarket.ts";

/**
 * One entry per market of a venue operation's service record (one Up/Down record, or each element
 * of a range-family or venue B array) with the recomputed model side's probability and standard
 * error at the same place (`model_probability_up`, or `[i].model_probability` /
 * `[i].model_probability_up`: the model sides are computed from the service record's markets, in
 * its order). Elements without a `slug` and `current_time` (the earlier range form carries
 * neither) are not comparisons the table can key, and are left out (their records are kept as
 * insights). The recomputed probability is null where the model side has none. Each entry is
 * judged (`marketState.ts`): decided at the realized volatility `sigmaPerMinute` (NaN: unknown),
 * its edge beyond the spread from pathlab's probability (the service's where pathlab has none),
 * and whether that edge is tradable: live and beyond 2 standard errors of pathlab's probability,
 * Monte-Carlo and between the miners (`robustEdge`; never without pathlab's probability).
 * @example
 * venueComparisonEntries("/insights/venueb/daily", serviceRecords, recompute("/insights/venueb/daily", session, context))
 * // => [{ operation: "/insights/venueb/daily", record: serviceRecords[0], recomputedProbability: 0.61, recomputedStandardError: 0.0049 }, …]
 */
export function venueComparisonEntries(
  operation: string,
  serviceRecord: unknown,
  recomputed: InsightResult<unknown>,
  sigmaPerMinute = Number.NaN,
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
    const key = standardErrorKey(path);
    const known = (value: number | undefined) =>
      field !== undefined && value !== undefined && Number.isFinite(value) ? value : null;
    const standardError = known(recomputed.standardErrors[key]);
    const betweenMiners = known(recomputed.betweenMinerErrors?.[key]);
    const record = service as unknown as VenueComparisonEntry["record"];
    const { decided, edge } = judged(record, probability, sigmaPerMinute);
    entries.push({
      operation,
      record,
      recomputedProbability: probability,
      recomputedStandardError: standardError,
      betweenMinerStandardError: betweenMiners,
      decided,
      edge,
      tradable: robustEdge(decided ?? null, edge?.netEdge ?? null, standardError, betweenMiners),
    });
  });
  return entries;
}

/** Whether the market is decided, and its tradable edge (`marketState.ts`); null where a time is unreadable. */
function judged(
  record: VenueComparisonEntry["record"],
  recomputed: number | null,
  sigmaPerMinute: number,
): Pick<VenueComparisonEntry, "decided" | "edge"> {
  const market = venueMarketOf(record);
  const unix = (time: string | null) => (time === null ? Number.NaN : parseIsoTimeMs(time) / 1000);
  const observedAtUnix = unix(market.observedAt);
  const eventEndUnix = unix(market.eventEndTime);
  const eventStartUnix = unix(market.eventStartTime);
  const edge = tradableEdge(
    recomputed ?? market.serviceProbability,
    market.bestBid,
    market.bestAsk,
  );
  if (!Number.isFinite(observedAtUnix) || !Number.isFinite(eventEndUnix)) {
    return { decided: null, edge };
  }
  const decided = marketDecided(
    {
      ...market,
      observedAtUnix,
      eventStartUnix: Number.isFinite(eventStartUnix) ? eventStartUnix : null,
      eventEndUnix,
    },
    sigmaPerMinute,
  );
  return { decided, edge };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
