/**
 * One unit of work (asset × horizon × forecast start) written in one transaction: its path sets,
 * insights, cross-check rows, venue comparisons and leaderboards, or nothing at all.
 */

import type { Horizon } from "../domain/assets.ts";
import { insertCrosschecks, type CrosscheckEntry } from "./crosschecks.ts";
import { insertInsights, type InsightEntry, type InsightPlace } from "./insights.ts";
import { insertLeaderboards, type LeaderboardEntry } from "./leaderboardRows.ts";
import { rethrowNotStored } from "./notStored.ts";
import type { Store } from "./openStore.ts";
import { insertPathSets, removeOtherMembers, type PathSetEntry } from "./pathSets.ts";
import { removeStaleDerivedRows } from "./staleRows.ts";
import { StoreError } from "./storeError.ts";
import { insertVenueComparisons, type VenueComparisonEntry } from "./venueComparisons.ts";

/**
 * Everything one unit of work stores. Each part is optional; what is given replaces what was stored
 * before under the same natural keys, so writing the same unit twice changes no row count. Given
 * insights and cross-checks also replace the unit's recomputed records and cross-check rows whole:
 * those of operations the new write lacks go (`removeStaleDerivedRows`).
 * @example
 * const unit: StoreUnit = {
 *   asset: "BTC", horizon: "24h", forecastStartTimeUnix: 1772063100, runId: run.id,
 *   pathSets: pathSets.map((pathSet) => ({ pathSet, source: "/v2/prediction/historical", fetchedAtUnix })),
 *   insights: [{ operation: "/insights/liquidation", source: "service", record }],
 * };
 */
export interface StoreUnit {
  readonly asset: string;
  readonly horizon: Horizon;
  /** The insights' forecast start, Unix seconds. */
  readonly forecastStartTimeUnix: number;
  /** The run writing the unit (see `startRun`), if any. */
  readonly runId?: number | null;
  /** Path sets of the unit's asset. */
  readonly pathSets?: readonly PathSetEntry[];
  readonly insights?: readonly InsightEntry[];
  readonly crosschecks?: readonly CrosscheckEntry[];
  readonly venueComparisons?: readonly VenueComparisonEntry[];
  /** The leaderboards the unit's miners were chosen from. */
  readonly leaderboards?: readonly LeaderboardEntry[];
}

/**
 * What {@link writeUnit} wrote.
 * @example const { pathSetIds, crosscheckRows } = await writeUnit(store, unit);
 */
export interface UnitWriteSummary {
  /** Ids of the unit's path sets, in the order given. */
  readonly pathSetIds: readonly number[];
  /** Ids of the unit's insights, in the order given. */
  readonly insightIds: readonly number[];
  readonly crosscheckRows: number;
  readonly venueComparisonRows: number;
  readonly leaderboardRows: number;
}

/**
 * Writes `unit` in one transaction. If any part fails (a constraint, a record JSON cannot hold, the
 * process dying mid-write), nothing of the unit is stored and the error is rethrown as a
 * {@link StoreError} naming the unit, with the original as `cause`. When `signal` has aborted by
 * the time every row is written, the transaction is rolled back and the signal's reason rethrown
 * as it is (an interrupted job stores no part of its open unit).
 * @param store - the store to write, open read-write.
 * @param unit - the unit's asset, horizon and forecast start, with its path sets, records,
 *   cross-checks, venue comparisons and leaderboards.
 * @param signal - when aborted by the time every row is written, nothing is stored; none by
 *   default.
 * @example
 * const summary = await writeUnit(store, unit);
 * summary.pathSetIds.length // => 10
 */
export async function writeUnit(
  store: Store,
  unit: StoreUnit,
  signal?: AbortSignal,
): Promise<UnitWriteSummary> {
  const place: InsightPlace = {
    asset: unit.asset,
    horizon: unit.horizon,
    forecastStartTimeUnix: unit.forecastStartTimeUnix,
    runId: unit.runId ?? null,
  };
  const label = `unit ${unit.asset} ${unit.horizon} ${describeUnix(unit.forecastStartTimeUnix)}`;
  for (const entry of unit.pathSets ?? []) {
    if (entry.pathSet.asset !== unit.asset) {
      throw new StoreError(
        "writeUnit",
        store.path,
        `${label}: path set of miner ${entry.pathSet.minerUid}: expected asset ${unit.asset}, got ${entry.pathSet.asset}`,
      );
    }
  }
  try {
    return await store.withTransaction(async (connection) => {
      // A unit stored again keeps only its new ensemble: the other members of its prompt go.
      await removeOtherMembers(connection, unit.pathSets ?? []);
      // and the rows derived from the earlier ensemble that it no longer has
      await removeStaleDerivedRows(connection, place, unit);
      const pathSetIds = await insertPathSets(connection, unit.pathSets ?? [], place.runId);
      const insightIds = await insertInsights(connection, place, unit.insights ?? []);
      const crosscheckRows = await insertCrosschecks(connection, place, unit.crosschecks ?? []);
      const venueComparisonRows = await insertVenueComparisons(
        connection,
        place,
        unit.venueComparisons ?? [],
      );
      const leaderboardRows = await insertLeaderboards(
        connection,
        unit.leaderboards ?? [],
        place.runId,
      );
      return { pathSetIds, insightIds, crosscheckRows, venueComparisonRows, leaderboardRows };
    }, signal);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    rethrowNotStored(error, signal, "writeUnit", store.path, label);
  }
}

function describeUnix(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}
