/**
 * The score units of a lake read back as the score job's prompt pools, for the reduce step
 * (`lakeReduce.ts`): each prompt's pool is the miners the service scored (`service_scores`), each
 * with pathlab's CRPS where the unit recomputed it (`miner_scores`) and the service's elsewhere,
 * made prompt scores by the rule of its era (`prompts.score_rule`), as `scorePromptPool` makes
 * them; its entries are the unit's `miner_scores` rows. A candidate's row (`score --lake
 * --candidate`) joins the pool as one more miner, as `scorePromptPool` joins it.
 */

import type { PromptScoreRule } from "../../scoring/promptScores.ts";
import { promptScores } from "../../scoring/promptScores.ts";
import { validatorEraAt, type EraSettings } from "../../domain/eras.ts";
import type { CompetitionName } from "../../domain/competitions.ts";
import { openLake } from "../../store/lake.ts";
import { queryRows } from "../../store/queryRows.ts";
import type { MinerKeys } from "./minerKeys.ts";
import { candidateInPool, scoredPromptOf } from "./poolScores.ts";
import type { PoolEntry, PromptPool } from "./scorePromptPool.ts";
import type { SyncRange } from "../sync/range.ts";

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

/**
 * The lake's prompts whose start is in `range` (every one without it), by start, then asset.
 * @example const prompts = await readLakePrompts("./lake", { fromUnix, toUnix });
 */
export async function readLakePrompts(
  lake: string,
  range: SyncRange | undefined,
): Promise<LakePrompt[]> {
  const store = await openLake(lake);
  try {
    const { rows } = await queryRows(
      store,
      `WITH pool AS (
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
       ORDER BY start, p.asset`,
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

/**
 * The prompt pool of a lake prompt, as `scorePromptPool` makes it, without what the lake does not
 * keep (the realized path, the path sets' scores, the candidate's file): what rank history and
 * the comparison of smoothed scores read, the candidate's place among the miners included.
 * @example const pools = prompts.map((prompt) => lakePool(prompt, keys, {}));
 */
export function lakePool(prompt: LakePrompt, keys: MinerKeys, settings: EraSettings): PromptPool {
  const pooled = prompt.uids.length === 0 ? null : promptScores(prompt.raw, { rule: prompt.rule });
  const place = { scoredTimeUnix: prompt.scoredTimeUnix, asset: prompt.asset };
  const poolKeys = prompt.uids.map((uid) => keys.keyAt(uid, prompt.startUnix));
  const scored = scoredPromptOf(
    { ...place, worstScore: pooled?.worstScore },
    poolKeys,
    pooled?.scores,
  );
  // the candidate as one more miner of the pool (`scorePromptPool`)
  const candidate =
    prompt.candidateCrps === null
      ? { candidateScored: undefined, candidatePromptScore: null }
      : candidateInPool(
          place,
          { raw: prompt.raw, keys: poolKeys, rule: prompt.rule, scored },
          prompt.candidateCrps,
        );
  const network: PoolEntry[] = prompt.entries.map((entry) => ({
    minerUid: entry.uid,
    minerKey: keys.keyAt(entry.uid, prompt.startUnix),
    source: entry.source,
    score: undefined,
    crps: entry.crps,
    reason: null,
  }));
  return {
    prompt: {
      competition: prompt.competition as CompetitionName,
      asset: prompt.asset,
      startUnix: prompt.startUnix,
      scoredTimeUnix: prompt.scoredTimeUnix,
      timeIncrement: prompt.timeIncrement,
      timeLength: prompt.timeLength,
      rows: [],
      era: validatorEraAt(prompt.scoredTimeUnix, settings),
    },
    realized: undefined,
    scored,
    candidateScored: candidate.candidateScored,
    network,
    promptScoreOf: new Map(
      pooled === null ? [] : prompt.uids.map((uid, index) => [uid, pooled.scores[index]]),
    ),
    candidate: undefined,
    // (where the service scored no one, `score` pools the candidate with the selected miners,
    // whom the lake does not pool: no prompt score then)
    candidatePromptScore: prompt.uids.length === 0 ? null : candidate.candidatePromptScore,
    candidateFile: undefined,
  };
}
