/**
 * `pathlab sync --lake`: each unit is stored into a store of its own in memory, then moved into
 * the lake as that unit's folder (the layout of `writeLakeUnit`, published whole), so that readers
 * (`pathlab query --lake`, the notebooks) are never locked out while the sync goes on, see each
 * unit whole or not at all, and a rerun replaces a unit's folder instead of adding to it.
 *
 * Two things the DuckDB file gets from its constraints the lake gets here instead:
 * - Surrogate ids. `path_sets.id` and `insights.id` (which `path_values` and `insight_values`
 *   point at) come from a sequence that starts again in every store, so each unit's store would
 *   give its first path set the id 1. Before the move, each id becomes its row's natural key
 *   packed into bits (the minute, the miner, codes of the asset and layout, …; `giveLakeIds`):
 *   unique by construction, the same in every run and process, and below 2^53; its values
 *   follow it.
 * - One copy of a leaderboard. The units of one competition store the same meta-leaderboard; in
 *   the lake it is a unit of its own, which the next unit with the same leaderboard replaces with
 *   the same rows. Its key is the leaderboard's natural key in the file (`leaderboardLakeKey`):
 *   the history's and the latest meta-leaderboard of one time are two leaderboards there, and two
 *   lake units here, whichever unit comes last.
 * The rows' `run_id` is left empty, as a queue worker's: runs are the DuckDB file's bookkeeping.
 *
 * Also the units a database or a lake holds already, by key, which `sync --watch` leaves out.
 */

import { serviceRecordPlaces } from "../../store/insights.ts";
import { INSIGHT_PATHS_BY_LAKE_CODE } from "../../domain/insightKindLists.ts";
import { readStoreOrLake, type LakeUnit } from "../../store/lake.ts";
import { writeLakeUnit } from "../../store/lakeWrite.ts";
import { giveLakeIds } from "../../store/lakeIds.ts";
import { lakeTimes } from "../../store/lakeTimes.ts";
import { storedLeaderboards } from "../../store/leaderboardRows.ts";
import type { Store } from "../../store/openStore.ts";
import { clearRunIds } from "../../store/runs.ts";
import type { VenueEdges } from "../../store/venueComparisons.ts";
import { syncUnitKey, type SyncUnitPlan } from "./plan.ts";

/**
 * The tables of a sync unit but the leaderboard, in the order they are written (the lake publishes
 * them together).
 * @example SYNC_UNIT_TABLES.includes("insights") // => true
 */
export const SYNC_UNIT_TABLES = [
  "path_sets",
  "path_values",
  "crosschecks",
  "venue_comparisons",
  "insight_values",
  "insights",
];

/**
 * The codes that make a row's lake id from its natural key. Append only: an id is made of
 * positions in these lists, so a value keeps its code in every lake (test/jobs/syncLake.test.ts
 * checks that every asset and operation of the spec has one).
 */
export const LAKE_ID_CODES = {
  assets: ["BTC", "ETH", "SOL", "XAU", "SPYX", "NVDAX", "GOOGLX", "TSLAX", "AAPLX"],
  /** The insight kinds by their lake code (`lakeCode` in the registry). */
  operations: INSIGHT_PATHS_BY_LAKE_CODE,
  sources: ["service", "recomputed"],
} as const;

/**
 * The natural keys (`syncUnitKey`) of the units in `store`, or in the lake at `lake` (none when it
 * is not a lake yet): every asset, horizon and forecast start of a stored service record.
 * @example const stored = await storedSyncUnitKeys(store); stored.has("sync.BTC.1h.20261121T100000Z")
 */
export async function storedSyncUnitKeys(store: Store, lake?: string): Promise<Set<string>> {
  const places = await readStoreOrLake(store, lake, ["insights"], serviceRecordPlaces);
  return new Set((places ?? []).map((place) => syncUnitKey(place, place.forecastStartUnix)));
}

/**
 * The lake key of a sync unit's leaderboard, made of what keys it in the file (operation,
 * competition, time; its days are always the ensemble's 14), so that the lake holds what the
 * file holds whichever unit comes last. The history's is `leaderboard.<competition>.<as of>` (the
 * key of every leaderboard in older lakes, which it goes on replacing); the latest one, which a
 * unit of the past stores when the history has nothing that old, is
 * `leaderboard.<competition>.latest.<as of>`.
 * @example leaderboardLakeKey("crypto-1h", "/v2/meta-leaderboard/latest", 1795255080) // => "leaderboard.crypto-1h.latest.20261121T095800Z"
 */
export function leaderboardLakeKey(
  competition: string,
  operation: string,
  asOfUnix: number,
): string {
  const time = lakeTimes(asOfUnix).key;
  if (operation === "/v2/meta-leaderboard/historical") return `leaderboard.${competition}.${time}`;
  if (operation === "/v2/meta-leaderboard/latest")
    return `leaderboard.${competition}.latest.${time}`;
  throw new Error(`sync --lake: a sync unit stores a meta-leaderboard, not ${operation}`);
}

/**
 * Moves the one unit that `store` holds into `lake` (see the module comment): its ids made stable,
 * its run ids cleared, then its leaderboard written as the leaderboard's unit and its tables as
 * the unit's files. `store` is changed on the way and is meant to be closed after. Resolves to
 * the count of the unit's rows written (its leaderboard's too).
 * @example const rows = await moveSyncUnitToLake(unitStore, "./lake", plan, startUnix);
 */
export async function moveSyncUnitToLake(
  store: Store,
  lake: string,
  plan: SyncUnitPlan,
  startUnix: number,
): Promise<number> {
  await giveLakeIds(store, LAKE_ID_CODES);
  await clearRunIds(store, [...SYNC_UNIT_TABLES, "leaderboard_rows"]);
  const leaderboards = await storedLeaderboards(store);
  const unit: LakeUnit = {
    key: syncUnitKey(plan, startUnix),
    competition: plan.competition,
    asset: plan.asset,
    date: lakeTimes(startUnix).date,
  };
  // a unit stores one leaderboard, the ranking of its competition: its own lake unit, first
  if (leaderboards.length > 1) {
    throw new Error(
      `sync --lake: unit ${unit.key} holds ${leaderboards.length} leaderboards; a sync unit stores one`,
    );
  }
  const written: Record<string, number>[] = [];
  for (const { operation, asOfUnix } of leaderboards) {
    const leaderboard: LakeUnit = {
      key: leaderboardLakeKey(plan.competition, operation, asOfUnix),
      competition: plan.competition,
      asset: "all",
      date: lakeTimes(asOfUnix).date,
    };
    written.push(await writeLakeUnit(lake, leaderboard, store, ["leaderboard_rows"]));
  }
  // then the unit's own tables, published whole
  written.push(await writeLakeUnit(lake, unit, store, SYNC_UNIT_TABLES));
  return written.flatMap(Object.values).reduce((sum, rows) => sum + rows, 0);
}

/**
 * The venue edges of several units as one run's: counts added, the `limit` largest edges of all,
 * as `runVenueEdges` orders them.
 * @example mergeVenueEdges([first, second], 5).edges.length // => at most 5
 */
export function mergeVenueEdges(parts: readonly VenueEdges[], limit: number): VenueEdges {
  const sum = (field: "markets" | "decided" | "beyondSpread" | "tradable") =>
    parts.reduce((total, part) => total + part[field], 0);
  const edges = parts
    .flatMap((part) => part.edges)
    // as the store orders them: tradable first, net edge, then asset, operation and market by
    // their bytes
    .sort(
      (a, b) =>
        Number(b.tradable) - Number(a.tradable) ||
        b.netEdge - a.netEdge ||
        byBytes(a.asset, b.asset) ||
        byBytes(a.operation, b.operation) ||
        byBytes(a.market, b.market),
    )
    .slice(0, limit);
  return {
    markets: sum("markets"),
    decided: sum("decided"),
    beyondSpread: sum("beyondSpread"),
    tradable: sum("tradable"),
    edges,
  };
}

function byBytes(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}
