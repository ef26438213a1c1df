/**
 * The score units of a lake read back for its reduce step (`pathlab lake reduce`): each prompt's
 * pool is the miners the service scored (`service_scores`), each with pathlab's CRPS where the
 * unit recomputed it (`miner_scores`) and the service's elsewhere, with the rule of its era
 * (`prompts.score_rule`); its entries are the unit's `miner_scores` rows, and a candidate's row
 * (`score --lake --candidate`) comes apart.
 */

import type { PromptScoreRule } from "../domain/eras.ts";
import { openLake } from "./lake.ts";
import { queryRows } from "./queryRows.ts";

/**
 * One prompt of a lake: its place, its score rule, the service's miners with the CRPS its pool
 * takes, and the unit's own entries.
 * @example const prompts: LakePrompt[] = await readLakePrompts("./lake", range);
 */
export interface LakePrompt {
  readonly competition: string;
  readonly asset: string;
  readonly startUnix: number;
  readonly scoredTimeUnix: number;
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly rule: PromptScoreRule;
  /** The miners the service scored (none: the validator pooled no such prompt). */
  readonly uids: readonly number[];
  /** Their CRPS in the pool: pathlab's where the unit has it, the service's elsewhere. */
  readonly raw: readonly number[];
  /** The unit's `miner_scores` rows but the candidate's. */
  readonly entries: readonly {
    readonly uid: number;
    readonly crps: number;
    readonly source: "network" | "service";
  }[];
  /** The candidate's CRPS on the prompt (−1: no valid answer), when it took part. */
  readonly candidateCrps: number | null;
}

const SELECT_LAKE_PROMPTS = `
WITH pool AS (
  SELECT asset, time_increment, time_length, start_time,
    list(s.miner_uid ORDER BY s.miner_uid) AS uids,
    list(coalesce(m.crps, s.crps) ORDER BY s.miner_uid) AS raw
  FROM service_scores s
  LEFT JOIN miner_scores m USING (asset, time_increment, time_length, start_time, miner_uid)
  WHERE m.source IS NULL OR m.source <> 'candidate'
  GROUP BY ALL),
own AS (
  SELECT asset, time_increment, time_length, start_time,
    list({'uid': miner_uid, 'crps': crps, 'source': source} ORDER BY miner_uid) AS entries
  FROM miner_scores WHERE source <> 'candidate' GROUP BY ALL),
candidate AS (
  SELECT asset, time_increment, time_length, start_time, any_value(crps) AS candidate_crps
  FROM miner_scores WHERE source = 'candidate' GROUP BY ALL)
SELECT p.competition, p.asset, epoch(p.start_time)::BIGINT::DOUBLE AS start,
  epoch(p.scored_time)::BIGINT::DOUBLE AS scored, p.time_increment::DOUBLE,
  p.time_length::DOUBLE, p.score_rule, pool.uids, pool.raw, own.entries,
  candidate.candidate_crps
FROM prompts p
LEFT JOIN pool USING (asset, time_increment, time_length, start_time)
LEFT JOIN own USING (asset, time_increment, time_length, start_time)
LEFT JOIN candidate USING (asset, time_increment, time_length, start_time)
WHERE epoch(p.start_time) BETWEEN $from AND $to
ORDER BY start, p.asset`;

/**
 * The lake's prompts whose start is in `range` (every one without it), by start, then asset.
 * @example const prompts = await readLakePrompts("./lake", { fromUnix, toUnix });
 */
export async function readLakePrompts(
  lake: string,
  range: { readonly fromUnix: number; readonly toUnix: number } | undefined,
): Promise<LakePrompt[]> {
  const store = await openLake(lake, ["prompts", "service_scores", "miner_scores"]);
  try {
    const { rows } = await queryRows(
      store,
      SELECT_LAKE_PROMPTS,
      // epoch() of a TIMESTAMP reads it as UTC, whatever the session's time zone
      { from: range?.fromUnix ?? -1e12, to: range?.toUnix ?? 1e12 },
    );
    return rows.map((row) => {
      const [competition, asset, start, scored, increment, length, rule, uids, raw, entries, crps] =
        row as [
          string,
          string,
          number,
          number,
          number,
          number,
          PromptScoreRule,
          number[] | null,
          number[] | null,
          LakePrompt["entries"] | null,
          number | null,
        ];
      return {
        competition,
        asset,
        startUnix: start,
        scoredTimeUnix: scored,
        timeIncrement: increment,
        timeLength: length,
        rule,
        uids: uids ?? [],
        raw: raw ?? [],
        entries: entries ?? [],
        candidateCrps: crps,
      };
    });
  } finally {
    await store.close();
  }
}
