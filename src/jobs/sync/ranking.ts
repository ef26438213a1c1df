/**
 * The ranking that picks a sync unit's ensemble: the meta-leaderboard (14 days) of the unit's
 * competition, the latest one for the service's latest forecast, the one of the unit's time for a
 * unit of the past. Fetched once and shared by the units that need the same one.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { ENSEMBLE_DAYS } from "../../domain/insightConventions.ts";
import type { LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { SyncUnitPlan } from "./plan.ts";

/**
 * A unit's ranking, best first, and the operation that gave it (stored with its rows).
 * @example const ranking: UnitRanking = { operation: "/v2/meta-leaderboard/latest", rows };
 */
export interface UnitRanking {
  readonly operation: "/v2/meta-leaderboard/latest" | "/v2/meta-leaderboard/historical";
  readonly rows: readonly LeaderboardV2Row[];
}

/** Rankings kept: the units running at once share a few; a long range must not keep them all. */
const KEPT = 16;

/**
 * A function from a unit's plan to its ranking, each fetched once while it is kept (the most
 * recently used 16); a failed fetch is not kept, so the next unit asks again.
 *
 * A unit of the past (`plan.startUnix`) is ranked by the meta-leaderboard history at its start.
 * When the service has no ranking that old (an empty history: its validator had not begun
 * scoring, as the sandbox's validator, which began shortly before its clock), the service pools
 * its historical insights from its latest ranking, and so does the unit.
 * @example
 * const ranking = createUnitRankings(client);
 * const { rows } = await ranking(plan);
 */
export function createUnitRankings(
  client: PathlabClient,
): (plan: SyncUnitPlan) => Promise<UnitRanking> {
  const kept = new Map<string, Promise<UnitRanking>>();
  const get = (key: string, fetch: () => Promise<UnitRanking>): Promise<UnitRanking> => {
    let entry = kept.get(key);
    if (entry === undefined) {
      entry = fetch();
      entry.catch(() => kept.delete(key));
    }
    kept.delete(key);
    kept.set(key, entry);
    for (const oldest of kept.keys()) {
      if (kept.size <= KEPT) break;
      kept.delete(oldest);
    }
    return entry;
  };
  const common = (plan: SyncUnitPlan) => ({ days: ENSEMBLE_DAYS, prompt_name: plan.competition });
  const latest = (plan: SyncUnitPlan) =>
    get(`${plan.competition}|latest`, async () => ({
      operation: "/v2/meta-leaderboard/latest",
      rows: await client.request("/v2/meta-leaderboard/latest", common(plan)),
    }));
  return (plan) => {
    const { startUnix } = plan;
    if (startUnix === undefined) return latest(plan);
    return get(`${plan.competition}|${startUnix}`, async () => {
      const rows = await client.request("/v2/meta-leaderboard/historical", {
        ...common(plan),
        start_time: isoSeconds(startUnix),
      });
      return rows.length > 0
        ? { operation: "/v2/meta-leaderboard/historical", rows }
        : await latest(plan);
    });
  };
}
