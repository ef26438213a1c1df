/**
 * What a sync reports: each unit's outcome, every failure with its reason, and the totals; the
 * same object the CLI prints as a table or, with `--json`, as JSON.
 */

import type { RecomputablePath } from "../../insights/recompute.ts";
import { VERDICTS, type Verdict } from "../../crosscheck/verdicts.ts";
import type { Competition, Horizon } from "../../domain/assets.ts";
import type { RunStatus } from "../../store/runs.ts";
import type { VenueEdges } from "../../store/venueComparisons.ts";
import type { RecordReplaySummary } from "../../service/replay.ts";
import type { ServiceInfo } from "../../service/serviceInfo.ts";

/**
 * Where a failure happened: fetching a service record (`record`), the ranking (`ranking`), a path
 * set (`path set`: invalid, left out; `previous path set` for the prompt one horizon earlier), the
 * minute closes (`minute closes`), the recomputation (`recompute`), the cross-check
 * (`cross-check`), the ensemble (`ensemble`: fetching it failed or nothing valid was left), the
 * store (`store`), or the unit as a whole (`unit`: no forecast start could be established).
 * @example const stage: SyncFailureStage = "path set";
 */
export type SyncFailureStage =
  | "record"
  | "ranking"
  | "ensemble"
  | "path set"
  | "previous path set"
  | "minute closes"
  | "recompute"
  | "cross-check"
  | "store"
  | "unit";

/**
 * One failure of a sync, as recorded in `runs.failures` and printed in the summary.
 * @example
 * const failure: SyncFailure = {
 *   unit: "BTC 1h", asset: "BTC", horizon: "1h", stage: "path set", minerUid: 23,
 *   reason: "miner 23: path 0: Number of time points is incorrect: expected 61, got 60",
 * };
 */
export interface SyncFailure {
  /** `<asset> <horizon>`. */
  readonly unit: string;
  readonly asset: string;
  readonly horizon: Horizon;
  readonly stage: SyncFailureStage;
  /** The operation concerned (the spec's path), when one is. */
  readonly operation?: string;
  /** The miner concerned, for path sets. */
  readonly minerUid?: number;
  /** One line: what failed and why (client errors name the operation and status). */
  readonly reason: string;
}

/**
 * How one unit went. `stored`: written in one transaction (possibly with some operations or path
 * sets failed, see `failures`); `failed`: nothing of it was written.
 * @example summary.units.filter((unit) => unit.status === "failed").length // => 0
 */
export interface UnitSummary {
  readonly asset: string;
  readonly horizon: Horizon;
  readonly competition: Competition;
  /** The service records' `forecast_start_time`, when one was established. */
  readonly forecastStartTime: string | null;
  /** `already stored`: left out by `skipStored` (a watch's tick), its forecast start held already. */
  readonly status: "stored" | "already stored" | "failed" | "interrupted";
  /** Path sets in the ensemble (and stored). */
  readonly pathSets: number;
  /**
   * Path sets whose first copy arrived invalid and a later copy valid (damaged on the way,
   * repaired by fetching them again): used, and no failure.
   */
  readonly pathSetsRefetched: number;
  /** Operations whose service record was cross-checked. */
  readonly crossChecked: number;
  /**
   * Compared values per verdict, over the unit's operations; a value the service record lacks
   * (a field left out) is `missing`.
   */
  readonly verdicts: Readonly<Record<Verdict, number>>;
  /**
   * Per cross-checked record that one side lacks fields of, the fields each side lacks (a live
   * deployment omits `forecast_start_time`, for instance); empty when both sides have every field.
   */
  readonly lacking: readonly LackingFields[];
  /** Venue markets stored with their recomputed probability. */
  readonly venueComparisons: number;
  /** Failures of this unit (see the summary's `failures`). */
  readonly failures: number;
  readonly durationMs: number;
}

/**
 * The fields one side of a cross-checked record lacks (`serviceLacks`/`recomputedLacks` of the
 * cross-check summary).
 * @example const lacking: LackingFields = { operation: "/insights/liquidation", service: ["forecast_start_time"], recomputed: [] };
 */
export interface LackingFields {
  readonly operation: RecomputablePath;
  readonly service: readonly string[];
  readonly recomputed: readonly string[];
}

/**
 * The outcome of a sync.
 * @example
 * const summary: SyncSummary = await runSync({ assets: ["BTC"], horizons: ["1h"] });
 * summary.exitCode // => 0
 */
export interface SyncSummary extends RecordReplaySummary {
  readonly command: "sync";
  /** The run's id in the `runs` table. */
  readonly runId: number;
  /** The database file (`:memory:` with `lake`: the run's record only). */
  readonly database: string;
  /** The lake the units were written into, instead of the database. */
  readonly lake?: string;
  /** The range of forecast starts synced (`from`, `to`); absent for the latest forecasts. */
  readonly range?: { readonly from: string; readonly to: string };
  readonly service: ServiceInfo;
  readonly startedAt: string;
  readonly durationMs: number;
  /**
   * `ok` without failures, else `partial` (the rest stored) or `failed` (no unit stored);
   * `interrupted` when the job's signal aborted (the units stored until then are kept). A sync
   * its deadline or breaker stopped is `partial` or `failed`, and says so in `stopped`.
   */
  readonly status: RunStatus;
  /**
   * When the sync's deadline (`deadlineMs`) passed or its breaker stopped it: what stopped it
   * and how many units were stored, failed and not finished (those are `interrupted`). Also the
   * last entry of the run's `failures`.
   */
  readonly stopped?: string;
  /** The CLI's exit code: 0 without failures, 1 with any or when stopped early, 130 when interrupted. */
  readonly exitCode: 0 | 1 | 130;
  readonly units: readonly UnitSummary[];
  readonly failures: readonly SyncFailure[];
  /**
   * The run's venue markets: how many, how many the current price already decides, how many live
   * ones have an edge beyond the spread, fee and rounding, how many of those are tradable (beyond
   * 2 standard errors of pathlab's probability), and the largest edges, tradable first.
   */
  readonly venueEdges: VenueEdges;
  readonly totals: {
    readonly units: number;
    readonly stored: number;
    readonly failed: number;
    /** Units stopped or never started because the job was interrupted or stopped early. */
    readonly interrupted: number;
    /** Units left out because their forecast start was stored already (`skipStored`). */
    readonly alreadyStored: number;
    readonly pathSets: number;
    /** Path sets repaired by fetching them again (`UnitSummary.pathSetsRefetched`), no failures. */
    readonly pathSetsRefetched: number;
    readonly verdicts: Readonly<Record<Verdict, number>>;
    readonly venueComparisons: number;
    readonly failures: number;
    /** Response bytes received from the service. */
    readonly bytesFetched: number;
    /** HTTP attempts made (retries included). */
    readonly requests: number;
    /**
     * Attempts that failed and were tried again (429, 5xx, connection errors). A call that
     * succeeded on a retry is no failure; one whose retries ran out is in `failures`.
     */
    readonly retries: number;
  };
}

/**
 * The totals of a run's units: counts by status, path sets, verdicts and venue comparisons of the
 * stored ones, the failures and the traffic.
 * @example const totals = totalsOf(units, failures.length, { bytesFetched, requests, retries });
 */
export function totalsOf(
  units: readonly UnitSummary[],
  failures: number,
  traffic: { bytesFetched: number; requests: number; retries: number },
): SyncSummary["totals"] {
  const verdicts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<
    Verdict,
    number
  >;
  for (const unit of units)
    for (const verdict of VERDICTS) verdicts[verdict] += unit.verdicts[verdict];
  const stored = units.filter((unit) => unit.status === "stored");
  return {
    units: units.length,
    stored: stored.length,
    failed: units.filter((unit) => unit.status === "failed").length,
    interrupted: units.filter((unit) => unit.status === "interrupted").length,
    alreadyStored: units.filter((unit) => unit.status === "already stored").length,
    pathSets: stored.reduce((sum, unit) => sum + unit.pathSets, 0),
    pathSetsRefetched: stored.reduce((sum, unit) => sum + unit.pathSetsRefetched, 0),
    verdicts,
    venueComparisons: stored.reduce((sum, unit) => sum + unit.venueComparisons, 0),
    failures,
    ...traffic,
  };
}
