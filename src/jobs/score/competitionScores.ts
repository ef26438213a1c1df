/**
 * What `score` reports for one competition: the era, the prompts, the comparison's leaderboard,
 * the miners on the service's CRPS, and the candidate's placing per prompt and over time.
 */

import { PREDICTION_ASSETS } from "../../domain/assets.ts";
import type { CompetitionParameters } from "../../domain/competitions.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { RankHistoryEntry } from "../../store/rankHistory.ts";
import type { CandidatePlacing, CompetitionScores } from "./summary.ts";
import type { CompetitionPrompts, RangeCompetition } from "./rangePrompts.ts";
import type { PromptPool } from "./scorePromptPool.ts";
import type { ServiceComparison } from "./serviceComparison.ts";

/**
 * The competition's results, as `ScoreSummary` lists them.
 * @example const scores = competitionScores(competition, planned, pools, comparison, { parameters, updates, history });
 */
export function competitionScores(
  competition: RangeCompetition,
  planned: CompetitionPrompts,
  pools: readonly PromptPool[],
  comparison: ServiceComparison,
  at: {
    readonly parameters: CompetitionParameters;
    readonly updates: number;
    readonly history: readonly RankHistoryEntry[];
  },
): CompetitionScores {
  const serviceCrps: Record<string, number> = {};
  for (const pool of pools) {
    for (const entry of pool.network) {
      if (entry.source !== "service") continue;
      const why =
        (entry.reason ?? "").replace(/; the service's CRPS is used$/, "") || "path set not read";
      serviceCrps[why] = (serviceCrps[why] ?? 0) + 1;
    }
  }
  return {
    competition: competition.name,
    era: pools.at(-1)?.prompt.era.label ?? "no prompt scored",
    eras: [...new Set(pools.map((pool) => pool.prompt.era.label))],
    rewardShare: at.parameters.rewardShare,
    softmaxBeta: at.parameters.softmaxBeta,
    intervals: at.parameters.scoringIntervals,
    timeIncrement: competition.timeIncrement,
    timeLength: competition.timeLength,
    asOf: comparison.asOfUnix === undefined ? null : isoSeconds(comparison.asOfUnix),
    windowPromptsMissing: comparison.windowPromptsMissing,
    promptsScored: pools.length,
    promptsSkipped: planned.skipped,
    promptsWithoutPathSets: pools.filter(
      (pool) => !(PREDICTION_ASSETS as readonly string[]).includes(pool.prompt.asset),
    ).length,
    serviceCrps,
    updates: at.updates,
    leaderboard: comparison.leaderboard,
    candidate: candidateResult(pools, comparison, at.history),
  };
}

/** The candidate's placing on each prompt it answered, its smoothed rank, and its trajectory. */
function candidateResult(
  pools: readonly PromptPool[],
  comparison: ServiceComparison,
  history: readonly RankHistoryEntry[],
): CompetitionScores["candidate"] {
  const taking = pools.filter((pool) => pool.candidate !== undefined);
  if (taking.length === 0) return undefined;
  const prompts: CandidatePlacing[] = taking
    .filter((pool) => pool.candidateFile !== undefined)
    .map((pool) => {
      const candidate = pool.candidate!;
      // The field: the pool's CRPS (pathlab's or the service's), and selected miners it scored.
      const field = new Map(pool.prompt.rows.map((row) => [row.miner_uid, row.crps]));
      for (const entry of pool.network) field.set(entry.minerUid, entry.crps);
      const valid = candidate.crps !== -1;
      return {
        asset: pool.prompt.asset,
        startTime: isoSeconds(pool.prompt.startUnix),
        file: pool.candidateFile!.file,
        crps: valid ? candidate.crps : null,
        rank: valid
          ? 1 + [...field.values()].filter((crps) => crps !== -1 && crps < candidate.crps).length
          : null,
        of: field.size + 1,
        reason: candidate.reason ?? undefined,
      };
    });
  return {
    prompts,
    promptsNotAnswered: taking.length - prompts.length,
    smoothedScore: comparison.candidate?.smoothedScore ?? null,
    rewardWeight: comparison.candidate?.rewardWeight ?? null,
    smoothedRank: comparison.candidate?.rank ?? null,
    of: comparison.candidate?.of ?? comparison.leaderboard.length + 1,
    trajectory: history
      .filter((row) => row.source === "candidate")
      .map((row) => ({
        updatedAt: isoSeconds(row.updatedAtUnix),
        rank: row.rank,
        of: row.of,
        smoothedScore: row.smoothedScore,
        rewardWeight: row.rewardWeight,
        windowInRange: row.windowInRange,
      })),
  };
}
