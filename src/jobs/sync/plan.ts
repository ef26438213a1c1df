/**
 * What a sync does: its units (asset × horizon), the competition whose ranking picks each unit's
 * miners, and the insight and venue operations fetched, recomputed and cross-checked per unit.
 */

import {
  canonicalAsset,
  COMPETITION_ASSETS,
  COMPETITION_HORIZONS,
  COMPETITIONS,
  HORIZONS,
  PREDICTION_ASSETS,
  type Competition,
  type Horizon,
} from "../../domain/assets.ts";
import { insightKind } from "../../domain/insightKindLists.ts";
import { isoSeconds } from "../../domain/time.ts";
import { lakeTimes } from "../../store/lakeTimes.ts";
import { RECOMPUTABLE_PATHS, type RecomputablePath } from "../../insights/recompute.ts";
import { DEFAULT_SYNC_ASSETS } from "../harness/defaults.ts";
import { UsageError } from "../../service/usageError.ts";

/**
 * One unit of a sync: an asset at a horizon, the competition that ranks its miners, and the
 * operations of the unit (those whose asset list has the asset, and whose horizon is the unit's).
 * @example
 * const unit: SyncUnitPlan = { asset: "BTC", horizon: "1h", competition: "crypto-1h", operations: ["/insights/liquidation"] };
 */
export interface SyncUnitPlan {
  /** The symbol the prediction operations take (`SPYX` for `SPY`). */
  readonly asset: string;
  readonly horizon: Horizon;
  readonly competition: Competition;
  readonly operations: readonly RecomputablePath[];
  /**
   * A forecast start of the past (Unix seconds) that the unit asks for: every request carries
   * `start_time` (the service's historical data of that time), and the miners are ranked by the
   * meta-leaderboard history at that time. Undefined: the service's latest forecast.
   */
  readonly startUnix?: number;
}

/**
 * How messages name a unit: its asset and horizon, and the start of a unit of the past.
 * @example unitLabel({ asset: "BTC", horizon: "1h", startUnix: 1763719200 }) // => "BTC 1h 2025-11-21T10:00:00Z"
 */
export function unitLabel(plan: Pick<SyncUnitPlan, "asset" | "horizon" | "startUnix">): string {
  const start = plan.startUnix === undefined ? "" : ` ${isoSeconds(plan.startUnix)}`;
  return `${plan.asset} ${plan.horizon}${start}`;
}

/**
 * The competition whose meta-leaderboard ranks the miners of `asset` at `horizon`: among the
 * competitions of that horizon, the one scoring the asset (`crypto-24h` for BTC 24h, `com-equ-24h`
 * for XAU 24h), else the horizon's first (`crypto-1h` for XAU 1h: no 1h competition scores
 * XAU, and the 1h miners are the ones that answer its 1h prompts).
 * @example competitionFor("SPYX", "24h") // => "com-equ-24h"
 */
export function competitionFor(asset: string, horizon: Horizon): Competition {
  const ofHorizon = COMPETITIONS.filter(
    (competition) => COMPETITION_HORIZONS[competition] === horizon,
  );
  const scoring = ofHorizon.find((competition) =>
    (COMPETITION_ASSETS[competition] as readonly string[]).includes(asset),
  );
  return scoring ?? ofHorizon[0];
}

/**
 * The operations of a unit, in the order of the recompute table: the kinds whose sync horizons
 * have the unit's (the insights every horizon; the venue comparisons their default horizon: daily
 * ones at 24h, hourly, 15-minute and 5-minute ones at 1h), each only where its asset list has the
 * asset.
 * @example unitOperations("XAU", "24h").includes("/insights/option-pricing") // => false (not in OPT)
 */
export function unitOperations(asset: string, horizon: Horizon): RecomputablePath[] {
  return RECOMPUTABLE_PATHS.filter((path) => {
    const kind = insightKind(path);
    return kind.assets.includes(asset) && kind.syncHorizons.includes(horizon);
  });
}

/**
 * The units of a sync of `assets` × `horizons`, asset by asset. Assets are taken as the service
 * takes them (`SPY` → `SPYX`, case-insensitive); duplicates are dropped. Throws `UsageError`
 * naming the value for an asset without path sets or an unknown horizon.
 * @example
 * planSyncUnits(["btc", "SPY"], ["24h"]).map((unit) => `${unit.asset} ${unit.competition}`)
 * // => ["BTC crypto-24h", "SPYX com-equ-24h"]
 */
export function planSyncUnits(
  assets: readonly string[] = DEFAULT_SYNC_ASSETS,
  horizons: readonly string[] = HORIZONS,
): SyncUnitPlan[] {
  const canonical = [...new Set(assets.map((asset) => canonicalAsset(asset.trim().toUpperCase())))];
  for (const asset of canonical) {
    if (!(PREDICTION_ASSETS as readonly string[]).includes(asset)) {
      throw new UsageError(
        `sync: asset ${JSON.stringify(asset)}: expected one whose paths the prediction operations serve (${PREDICTION_ASSETS.join(", ")}; SPY, NVDA, GOOGL, TSLA, AAPL also name them), got ${JSON.stringify(asset)}`,
      );
    }
  }
  const wanted = [...new Set(horizons.map((horizon) => horizon.trim()))];
  for (const horizon of wanted) {
    if (!(HORIZONS as readonly string[]).includes(horizon)) {
      throw new UsageError(
        `sync: horizon: expected ${HORIZONS.join(" or ")}, got ${JSON.stringify(horizon)}`,
      );
    }
  }
  if (canonical.length === 0 || wanted.length === 0) {
    throw new UsageError(
      `sync: expected at least one asset and one horizon, got ${canonical.length} assets and ${wanted.length} horizons`,
    );
  }
  return canonical.flatMap((asset) =>
    (wanted as Horizon[]).map((horizon) => ({
      asset,
      horizon,
      competition: competitionFor(asset, horizon),
      operations: unitOperations(asset, horizon),
    })),
  );
}

/**
 * The natural key of a sync unit: the queue's job id and the name of its lake files.
 * @example syncUnitKey({ asset: "BTC", horizon: "1h" }, 1763719200) // => "sync.BTC.1h.20251121T100000Z"
 */
export function syncUnitKey(
  plan: Pick<SyncUnitPlan, "asset" | "horizon">,
  startUnix: number,
): string {
  return `${syncUnitKeyPrefix(plan)}${lakeTimes(startUnix).key}`;
}

/**
 * What the keys (`syncUnitKey`) of an asset and horizon's units begin with.
 * @example syncUnitKeyPrefix({ asset: "BTC", horizon: "1h" }) // => "sync.BTC.1h."
 */
export function syncUnitKeyPrefix(plan: Pick<SyncUnitPlan, "asset" | "horizon">): string {
  return `sync.${plan.asset}.${plan.horizon}.`;
}
