/**
 * One competition of the score job, stage by stage as the validator works: its prompts scored one
 * by one (pool → prompt scores → stored), the rank at every update of the range, and the
 * comparison with the service at its latest update.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { ScoringPool } from "../../scoring/scoringPool.ts";
import type { EraSettings } from "../../spec/eras.ts";
import { isoSeconds } from "../../spec/time.ts";
import type { Store } from "../../store/openStore.ts";
import { writeRankHistory } from "../../store/rankHistory.ts";
import { writeSmoothedScores, type SmoothedScoreEntry } from "../../store/smoothedScoreRows.ts";
import { PREDICTION_ASSETS } from "../../spec/assets.ts";
import { ENSEMBLE_DAYS } from "../../spec/insightConventions.ts";
import { CANDIDATE_MINER_UID } from "../scoreCandidate.ts";
import type {
  Agreement,
  CandidatePlacing,
  CompetitionScores,
  ScoreEvent,
} from "../scoreSummary.ts";
import type { AgreementTally } from "./agreement.ts";
import type { CandidateMatches } from "./candidateMatch.ts";
import type { MinerKeys } from "./minerKeys.ts";
import { parametersAt, rankHistory, updateTimes } from "./rankOverTime.ts";
import type { CompetitionPrompts, RangeCompetition } from "./rangePrompts.ts";
import { scorePromptPool, type PromptPool } from "./scorePromptPool.ts";
import type { MinerSelection } from "./scoreOptions.ts";
import { compareWithService, type SmoothedScoresSelector } from "./serviceComparison.ts";
import { storePromptPool } from "./storePrompt.ts";

/** What every competition of a run shares. */
export interface JobContext {
  readonly client: PathlabClient;
  readonly store: Store;
  readonly pool: ScoringPool;
  readonly keys: MinerKeys;
  readonly runId: number;
  readonly fromUnix: number;
  readonly toUnix: number;
  readonly nowUnix: number;
  readonly miners: MinerSelection;
  readonly ownOnly: boolean;
  readonly eraSettings: EraSettings;
  readonly smoothedParams: SmoothedScoresSelector;
  readonly matches: CandidateMatches;
  readonly tally: AgreementTally;
  readonly emit: (event: ScoreEvent) => void;
  readonly signal: AbortSignal | undefined;
}

/**
 * Scores `competition`'s prompts of the range and returns its results (see the module comment).
 * @example const scores = await scoreCompetition(context, competition, prompts);
 */
export async function scoreCompetition(
  context: JobContext,
  competition: RangeCompetition,
  planned: CompetitionPrompts,
): Promise<CompetitionScores> {
  const { client, matches } = context;
  context.emit({ type: "plan", competition: competition.name, prompts: planned.prompts.length });
  let selected: readonly number[] | undefined;
  if (typeof context.miners === "object" && "top" in context.miners) {
    const rows = await client.request("/v2/meta-leaderboard/latest", {
      days: ENSEMBLE_DAYS,
      prompt_name: competition.name as "crypto-1h",
    });
    selected = rows.slice(0, context.miners.top).map((row) => row.neuron_uid);
  } else if (typeof context.miners === "object") {
    selected = context.miners.uids;
  }
  const poolContext = { ...context, selected };
  const pools: PromptPool[] = [];
  const verdicts: Map<number, Agreement>[] = [];
  for (const [index, prompt] of planned.prompts.entries()) {
    const file = matches.fileFor(competition.name, prompt.asset, prompt.startUnix);
    const pool = await scorePromptPool(poolContext, prompt, {
      // On the validator's prompts of its assets (the fill where it has no file); elsewhere only
      // where it answered.
      takesPart:
        matches.covers(competition.name, prompt.asset) &&
        (prompt.rows.length > 0 || file !== undefined),
      file,
    });
    pools.push(pool);
    verdicts.push(await storePromptPool(context.store, pool, context));
    context.emit({
      type: "prompt",
      competition: competition.name,
      asset: prompt.asset,
      startTime: isoSeconds(prompt.startUnix),
      done: index + 1,
      of: planned.prompts.length,
      miners: pool.network.length,
    });
  }
  const comparison = await compareWithService(context, competition, pools, verdicts);
  for (const row of comparison.leaderboard) {
    context.tally.add(row.agreement, () => ({
      what: "smoothed score / reward weight",
      where: `${competition.name} smoothed at ${isoSeconds(comparison.asOfUnix ?? context.nowUnix)}`,
      minerUid: row.minerUid,
      ours: row.smoothedScore,
      service: row.serviceSmoothedScore,
    }));
  }
  const validatorPrompts = pools.map((pool) => pool.scored).filter((p) => p.minerScores.length > 0);
  const withCandidate = pools.some((pool) => pool.candidateScored !== undefined)
    ? pools
        .map((pool) => pool.candidateScored ?? pool.scored)
        .filter((p) => p.minerScores.length > 0)
    : undefined;
  const updates = updateTimes(validatorPrompts, context.nowUnix);
  const history = rankHistory(validatorPrompts, withCandidate, {
    competition: competition.parameters,
    updates,
    keys: context.keys,
    settings: context.eraSettings,
  });
  await writeRankHistory(context.store, competition.name, history, context.runId, context.signal);
  const asOf = comparison.asOfUnix ?? updates.at(-1) ?? context.nowUnix;
  const stored: SmoothedScoreEntry[] = comparison.leaderboard.map((row) => ({
    source: "network",
    minerUid: row.minerUid,
    hotkey: row.hotkey,
    smoothedScore: row.smoothedScore,
    rewardWeight: row.rewardWeight,
    serviceSmoothedScore: row.serviceSmoothedScore,
    serviceRewardWeight: row.serviceRewardWeight,
    verdict: row.agreement,
  }));
  if (comparison.candidate !== undefined) {
    stored.push({
      source: "candidate",
      minerUid: CANDIDATE_MINER_UID,
      smoothedScore: comparison.candidate.smoothedScore,
      rewardWeight: null,
      serviceSmoothedScore: null,
      serviceRewardWeight: null,
      verdict: "not compared",
    });
  }
  await writeSmoothedScores(context.store, competition.name, asOf, stored, context.runId);
  const parameters = parametersAt(competition.parameters, asOf, context.eraSettings);
  const serviceCrps: Record<string, number> = {};
  for (const pool of pools) {
    for (const entry of pool.network) {
      if (entry.source !== "service") continue;
      const why =
        (entry.reason ?? "").replace(/; the service's CRPS is used$/, "") || "path set not read";
      serviceCrps[why] = (serviceCrps[why] ?? 0) + 1;
    }
  }
  const eras = [...new Set(pools.map((pool) => pool.prompt.era.label))];
  return {
    competition: competition.name,
    era: pools.at(-1)?.prompt.era.label ?? "no prompt scored",
    eras,
    rewardShare: parameters.rewardShare,
    softmaxBeta: parameters.softmaxBeta,
    intervals: parameters.scoringIntervals,
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
    updates: updates.length,
    leaderboard: comparison.leaderboard,
    candidate: candidateResult(pools, comparison, history),
  };
}

function candidateResult(
  pools: readonly PromptPool[],
  comparison: Awaited<ReturnType<typeof compareWithService>>,
  history: ReturnType<typeof rankHistory>,
): CompetitionScores["candidate"] {
  const taking = pools.filter((pool) => pool.candidate !== undefined);
  if (taking.length === 0) return undefined;
  const prompts: CandidatePlacing[] = taking
    .filter((pool) => pool.candidateFile !== undefined)
    .map((pool) => {
      const candidate = pool.candidate!;
      const others = pool.network.map((entry) => entry.crps).filter((crps) => crps !== -1);
      const serviceOnly = pool.prompt.rows
        .filter((row) => !pool.network.some((entry) => entry.minerUid === row.miner_uid))
        .map((row) => row.crps)
        .filter((crps) => crps !== -1);
      const field = [...others, ...serviceOnly];
      const valid = candidate.crps !== -1;
      return {
        asset: pool.prompt.asset,
        startTime: isoSeconds(pool.prompt.startUnix),
        file: pool.candidateFile!.file,
        crps: valid ? candidate.crps : null,
        rank: valid ? 1 + field.filter((crps) => crps < candidate.crps).length : null,
        of: Math.max(pool.prompt.rows.length, pool.network.length) + 1,
        reason: candidate.reason ?? undefined,
      };
    });
  return {
    prompts,
    promptsNotAnswered: taking.length - prompts.length,
    smoothedScore: comparison.candidate?.smoothedScore ?? null,
    smoothedRank: comparison.candidate?.rank ?? null,
    of: comparison.candidate?.of ?? comparison.leaderboard.length + 1,
    trajectory: history
      .filter((row) => row.source === "candidate")
      .map((row) => ({ updatedAt: isoSeconds(row.updatedAtUnix), rank: row.rank, of: row.of })),
  };
}
