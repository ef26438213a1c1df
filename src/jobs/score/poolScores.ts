/**
 * A prompt's pool as the smoothing functions take it (`ScoredPrompt`), and the candidate placed in
 * it as one more miner: shared by `scorePromptPool` (the score job) and `lakePool` (the lake's
 * reduce step), so that both rank the same way.
 */

import { promptScores, type PromptScoreRule } from "../../scoring/promptScores.ts";
import type { ScoredPrompt } from "../../scoring/smoothedScores.ts";
import { CANDIDATE_MINER_UID } from "./candidate.ts";
import type { PlannedPrompt } from "./rangePrompts.ts";

/**
 * A prompt as the smoothing functions take it: each key's prompt score (none without scores).
 * @example scoredPromptOf({ scoredTimeUnix, asset: "BTC", worstScore }, keys, pooled.scores)
 */
export function scoredPromptOf(
  prompt: Pick<PlannedPrompt, "scoredTimeUnix" | "asset"> & { readonly worstScore?: number },
  keys: readonly number[],
  scores: readonly number[] | undefined,
): ScoredPrompt {
  return {
    scoredTimeUnix: prompt.scoredTimeUnix,
    asset: prompt.asset,
    worstScore: prompt.worstScore ?? Number.NaN,
    minerScores:
      scores === undefined
        ? []
        : keys.map((minerKey, index) => ({ minerUid: minerKey, promptScore: scores[index] })),
  };
}

/**
 * The candidate, whose CRPS is `candidateCrps` (−1: no valid answer), as one more miner of a
 * pool: the pool's raw CRPS (keyed by `keys`, scored `scored`) made prompt scores with it by the
 * era's `rule`. Its prompt score, and the pool as the smoothing functions take it with the
 * candidate in (none where the pool smooths nothing: `scored` has no miner scores).
 * @example const { candidateScored, candidatePromptScore } = candidateInPool(prompt, { raw, keys, rule, scored }, crps);
 */
export function candidateInPool(
  prompt: Pick<PlannedPrompt, "scoredTimeUnix" | "asset">,
  pool: {
    readonly raw: readonly number[];
    readonly keys: readonly number[];
    readonly rule: PromptScoreRule;
    readonly scored: ScoredPrompt;
  },
  candidateCrps: number,
): { candidateScored: ScoredPrompt | undefined; candidatePromptScore: number | null } {
  const withCandidate = promptScores([...pool.raw, candidateCrps], { rule: pool.rule });
  return {
    candidatePromptScore: withCandidate?.scores.at(-1) ?? null,
    candidateScored:
      withCandidate !== null && pool.scored.minerScores.length > 0
        ? scoredPromptOf(
            {
              scoredTimeUnix: prompt.scoredTimeUnix,
              asset: prompt.asset,
              worstScore: withCandidate.worstScore,
            },
            [...pool.keys, CANDIDATE_MINER_UID],
            withCandidate.scores,
          )
        : undefined,
  };
}
