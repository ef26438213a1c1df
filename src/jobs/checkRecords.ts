/**
 * The compute step of a sync unit: every service record recomputed from the unit's ensemble and
 * cross-checked, as the rows the store keeps.
 */

import { crossCheck, VERDICTS, type Verdict } from "../crosscheck/crossCheck.ts";
import type { InsightContext } from "../insights/context.ts";
import { contextFromServiceRecord } from "../insights/contextFromServiceRecord.ts";
import { recompute, type RecomputablePath } from "../insights/recompute.ts";
import type { InsightSession } from "../insights/session.ts";
import type { CrosscheckEntry } from "../store/crosschecks.ts";
import type { InsightEntry } from "../store/insights.ts";
import type { VenueComparisonEntry } from "../store/venueComparisons.ts";
import { crosscheckEntries } from "./crosscheckEntries.ts";
import { venueComparisonEntries } from "./venueComparisonEntries.ts";

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
  readonly failures: readonly RecordFailure[];
}

/**
 * For each service record: the context it fixes (`contextFromServiceRecord`) over `base`, the
 * recomputation from `session` (`recompute`), and the cross-check (`crossCheck`, with the
 * recomputation's standard errors and the ensemble's path count). A record whose recomputation or
 * cross-check throws (a context input missing, say the previous ensemble) is a failure with the
 * error's message; its service record is still kept. `unavailable` names inputs known to be
 * missing, per operation: their reason replaces the recomputation's error.
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
  const verdicts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<
    Verdict,
    number
  >;
  let crossChecked = 0;
  for (const [operation, service] of records) {
    insights.push({ operation, source: "service", record: service });
    const missing = unavailable.get(operation);
    if (missing !== undefined) {
      failures.push({ stage: "recompute", operation, reason: missing });
      continue;
    }
    let result;
    try {
      result = recompute(operation, session, {
        ...base,
        ...contextFromServiceRecord(operation, service),
      });
    } catch (error) {
      failures.push({ stage: "recompute", operation, reason: messageOf(error) });
      continue;
    }
    insights.push({ operation, source: "recomputed", record: result.record });
    try {
      const check = crossCheck(operation, service, result.record, {
        nPaths: session.nPaths,
        standardErrors: result.standardErrors,
      });
      crosschecks.push(...crosscheckEntries(operation, check));
      for (const verdict of VERDICTS) verdicts[verdict] += check.summary.counts[verdict];
      crossChecked += 1;
      if (operation.startsWith("/insights/venue")) {
        venueComparisons.push(...venueComparisonEntries(operation, service, result));
      }
    } catch (error) {
      failures.push({ stage: "cross-check", operation, reason: messageOf(error) });
    }
  }
  return { insights, crosschecks, venueComparisons, verdicts, crossChecked, failures };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
