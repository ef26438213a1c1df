/**
 * The compute step of a sync unit: every service record recomputed from the unit's ensemble and
 * cross-checked, as the rows the store keeps.
 */

import type { LackingFields } from "./summary.ts";
import { crossCheck } from "../../crosscheck/crossCheck.ts";
import { VERDICTS, type Verdict } from "../../crosscheck/verdicts.ts";
import type { InsightContext } from "../../insights/context.ts";
import { contextFromServiceRecord } from "../../insights/contextFromServiceRecord.ts";
import { prepareRecords } from "../../insights/prepareRecords.ts";
import { recompute, type RecomputablePath } from "../../insights/recompute.ts";
import type { InsightSession } from "../../insights/session.ts";
import type { CrosscheckEntry } from "../../store/crosschecks.ts";
import type { InsightEntry } from "../../store/insights.ts";
import type { VenueComparisonEntry } from "../../store/venueMarket.ts";
import { crosscheckEntries } from "./crosscheckEntries.ts";
import { venueComparisonEntries } from "./venueComparisonEntries.ts";
import { minuteLogVolatility } from "../../insights/marketState.ts";
import { insightKind } from "../../domain/insightKindLists.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { messageOf } from "./unitResults.ts";

/**
 * A record that could not be recomputed or cross-checked, and why.
 * @example const failure: RecordFailure = { stage: "recompute", operation: "/insights/volatility", reason: "…" };
 */
export interface RecordFailure {
  readonly stage: "recompute" | "cross-check";
  readonly operation: RecomputablePath;
  readonly reason: string;
}

/**
 * What {@link checkRecords} gives for the store and the summary.
 * @example const { insights, crosschecks, verdicts } = checkRecords(records, session, base);
 */
export interface CheckedRecords {
  /** Each service record, and each recomputed record (venue operations: the model side). */
  readonly insights: readonly InsightEntry[];
  readonly crosschecks: readonly CrosscheckEntry[];
  readonly venueComparisons: readonly VenueComparisonEntry[];
  /** Compared values per verdict. */
  readonly verdicts: Readonly<Record<Verdict, number>>;
  /** Records cross-checked. */
  readonly crossChecked: number;
  /** Per cross-checked record that one side lacks fields of: the fields, side by side. */
  readonly lacking: readonly LackingFields[];
  readonly failures: readonly RecordFailure[];
}

/**
 * For each service record: the context it fixes (`contextFromServiceRecord`) over `base`, the
 * recomputation from `session` (`recompute`), and the cross-check (`crossCheck`, with the
 * recomputation's standard errors and the ensemble's path count). The records' per-path
 * intermediates are computed first in one pass over the paths (`prepareSession`). A
 * record whose recomputation or cross-check throws (a context input missing, say the previous
 * ensemble) is a failure with the error's message; its service record is still kept.
 * `unavailable` names inputs known to be missing, per operation: their reason replaces the
 * recomputation's error. A record that lacks `forecast_start_time` stores a `missing` verdict for
 * it (`crossCheck`'s `forecastStartTimeExpected`) unless its kind is one the live deployment
 * writes without it (`liveOmittedFields`) and no record of such a kind carries it here (the
 * service is the live deployment).
 * @example
 * const checked = checkRecords(new Map([["/insights/liquidation", record]]), session, base);
 * checked.verdicts.exact // => 40
 */
export function checkRecords(
  records: ReadonlyMap<RecomputablePath, unknown>,
  session: InsightSession,
  base: InsightContext,
  unavailable: ReadonlyMap<RecomputablePath, string> = new Map(),
): CheckedRecords {
  const insights: InsightEntry[] = [];
  const crosschecks: CrosscheckEntry[] = [];
  const venueComparisons: VenueComparisonEntry[] = [];
  const failures: RecordFailure[] = [];
  const lacking: LackingFields[] = [];
  const verdicts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<
    Verdict,
    number
  >;
  let crossChecked = 0;
  let sigmaPerMinute: number | undefined;
  const contexts = new Map<RecomputablePath, InsightContext>();
  for (const [operation, service] of records) {
    if (unavailable.has(operation)) continue;
    contexts.set(operation, { ...base, ...contextFromServiceRecord(operation, service) });
  }
  prepareSession(session, base, contexts);
  // a service that writes the field where the live deployment omits it writes it everywhere
  const writesOmittedStart = [...records].some(
    ([operation, service]) => omitsStartLive(operation) && carriesForecastStartTime(service),
  );
  for (const [operation, service] of records) {
    insights.push({ operation, source: "service", record: service });
    const missing = unavailable.get(operation);
    if (missing !== undefined) {
      failures.push({ stage: "recompute", operation, reason: missing });
      continue;
    }
    let result;
    try {
      result = recompute(operation, session, contexts.get(operation)!);
    } catch (error) {
      failures.push({ stage: "recompute", operation, reason: messageOf(error) });
      continue;
    }
    insights.push({ operation, source: "recomputed", record: result.record });
    try {
      const check = crossCheck(operation, service, result.record, {
        nPaths: session.nPaths,
        standardErrors: result.standardErrors,
        forecastStartTimeExpected: writesOmittedStart || !omitsStartLive(operation),
      });
      crosschecks.push(...crosscheckEntries(operation, check));
      for (const verdict of VERDICTS) verdicts[verdict] += check.summary.counts[verdict];
      crossChecked += 1;
      const { serviceLacks, recomputedLacks } = check.summary;
      if (serviceLacks.length > 0 || recomputedLacks.length > 0) {
        lacking.push({ operation, service: serviceLacks, recomputed: recomputedLacks });
      }
      if (operation.startsWith("/insights/venue")) {
        sigmaPerMinute ??= realizedSigma(base);
        venueComparisons.push(
          ...venueComparisonEntries(operation, service, result, sigmaPerMinute),
        );
      }
    } catch (error) {
      failures.push({ stage: "cross-check", operation, reason: messageOf(error) });
    }
  }
  return { insights, crosschecks, venueComparisons, verdicts, crossChecked, lacking, failures };
}

/**
 * Computes the per-path intermediates of all the records in one pass over the paths
 * (`prepareRecords`) under one context: `base` with the LP bounds record's fields (its current
 * price places the bounds) and every range market of the venue records (hit markets read the
 * running extremes at the daily event's end). Only a speed-up: a record whose own context asks for
 * other windows pays a pass of its own, with the same result, and a context that does not fit
 * (which the record's own recomputation then reports) skips it.
 * @example prepareSession(session, base, contexts);
 */
export function prepareSession(
  session: InsightSession,
  base: InsightContext,
  contexts: ReadonlyMap<RecomputablePath, InsightContext>,
): void {
  const rangeMarkets = [...contexts.values()].flatMap((context) => context.rangeMarkets ?? []);
  const context: InsightContext = {
    ...base,
    ...contexts.get("/insights/lp-bounds"),
    ...(rangeMarkets.length > 0 ? { rangeMarkets } : {}),
  };
  try {
    prepareRecords(session, context, [...contexts.keys()]);
  } catch {
    // The records are recomputed without the shared pass; each reports its own context error.
  }
}

/**
 * The realized 1-minute volatility of the closes before the forecast start that the unit fetched (a
 * day for a 24h unit, about two hours for a 1h unit; NaN without closes).
 */
function realizedSigma(base: InsightContext): number {
  if (base.minuteClose === undefined) return Number.NaN;
  const startUnix = parseIsoTimeMs(base.forecastStartTime) / 1000;
  return minuteLogVolatility(base.minuteClose, startUnix - 86400, startUnix);
}

/** Whether a service record (or the first element of an array of them) has `forecast_start_time`. */
function carriesForecastStartTime(record: unknown): boolean {
  const first: unknown = Array.isArray(record) ? record[0] : record;
  return (
    typeof (first as { forecast_start_time?: unknown } | undefined)?.forecast_start_time ===
    "string"
  );
}

/** Whether the live deployment writes `operation`'s records without `forecast_start_time`. */
function omitsStartLive(operation: RecomputablePath): boolean {
  return insightKind(operation).liveOmittedFields.includes("forecast_start_time");
}
