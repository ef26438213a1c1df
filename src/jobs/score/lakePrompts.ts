/**
 * The score units of a lake (`readLakePrompts`) as the score job's prompt pools, for the reduce
 * step (`lakeReduce.ts`): each prompt's pool is the miners the service scored, each with pathlab's
 * CRPS where the unit recomputed it and the service's elsewhere, made prompt scores by the rule of
 * its era, as `scorePromptPool` makes them. A candidate's row (`score --lake --candidate`) joins
 * the pool as one more miner, as `scorePromptPool` joins it.
 */

import { promptScores } from "../../scoring/promptScores.ts";
import { validatorEraAt, type EraSettings } from "../../domain/eras.ts";
import type { CompetitionName } from "../../domain/competitions.ts";
import type { LakePrompt } from "../../store/lakePrompts.ts";
import type { MinerKeys } from "./minerKeys.ts";
import { candidateInPool, scoredPromptOf } from "./poolScores.ts";
import type { PoolEntry, PromptPool } from "./scorePromptPool.ts";

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
