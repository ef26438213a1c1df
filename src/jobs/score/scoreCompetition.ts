/**
 * One competition of the score job, stage by stage as the validator works: its prompts scored one
 * by one (pool → prompt scores → stored), the rank at every update of the range, and the
 * comparison with the service at its latest update.
 */

import { availableParallelism } from "node:os";
import { ScoringThreads } from "../../scoring/scoringThreads.ts";
import { isoSeconds } from "../../domain/time.ts";
import { unitPoolThreads } from "../../service/clientData.ts";
import { threadClientOptions } from "../../service/jobClient.ts";
import { writeRankHistory, type RankHistoryEntry } from "../../store/rankHistory.ts";
import { writeSmoothedScores } from "../../store/smoothedScoreRows.ts";
import { DEFAULT_UNIT_DEADLINE_MS } from "../harness/defaults.ts";
import type { Job } from "../harness/runJob.ts";
import { UnitRunner } from "../harness/unitRunner.ts";
import type { CompetitionScores } from "./summary.ts";
import type { JobContext } from "./jobContext.ts";
import { lakeOutput } from "./lakeOutput.ts";
import type { CheckedScoreRun, ScoreOptions } from "./options.ts";
import type { ScorePlan } from "./planScore.ts";
import { parametersAt, rankHistory, updateTimes } from "./rankOverTime.ts";
import type { CompetitionPrompts, RangeCompetition } from "./rangePrompts.ts";
import { pooledPrompts, type PromptPool } from "./scorePromptPool.ts";
import { scorePrompts } from "./scorePrompts.ts";
import { competitionScores } from "./competitionScores.ts";
import {
  compareWithService,
  smoothedScoreEntries,
  type ServiceComparison,
} from "./serviceComparison.ts";
import { selectedMiners } from "./selectedMiners.ts";

/**
 * Scores every competition of `plan`, one after the other (see {@link scoreCompetition}), with
 * the run's scoring threads: whole prompts on the unit runner's pool threads (`threads`, default
 * the machine's parallelism), or, when prompts must stay on this thread (a recording, client
 * options that are functions), one prompt's miners spread over those threads.
 * @example const competitions = await scoreCompetitions(job, plan, options);
 */
export async function scoreCompetitions(
  job: Job<CheckedScoreRun>,
  plan: ScorePlan,
  options: ScoreOptions,
): Promise<CompetitionScores[]> {
  const { checked } = job;
  const threads = options.threads ?? availableParallelism();
  const runner = new UnitRunner(
    unitPoolThreads(threads, options.client, job.recorder !== undefined),
    options.signal,
  );
  job.defer(() => runner.close());
  // Without the unit pool, one prompt's miners are spread over the threads instead.
  const scoringThreads = !runner.onThreads && threads > 0 ? new ScoringThreads(threads) : undefined;
  if (scoringThreads !== undefined) job.defer(() => scoringThreads.close());
  const context: JobContext = {
    client: job.client,
    store: job.store,
    scoringThreads,
    keys: plan.keys,
    runId: plan.run.id,
    fromUnix: checked.fromUnix,
    toUnix: checked.toUnix,
    nowUnix: job.nowUnix,
    miners: checked.miners,
    ownOnly: checked.ownOnly,
    eraSettings: options.eraSettings ?? {},
    smoothedParams: plan.smoothedParams,
    matches: plan.matches,
    tally: plan.tally,
    failures: plan.failures,
    emit: (event) => options.onEvent?.(event),
    signal: options.signal,
    breaker: job.breaker,
    unitDeadlineMs: options.unitDeadlineMs ?? DEFAULT_UNIT_DEADLINE_MS,
    ...(job.lake !== undefined && { afterStore: lakeOutput(job.lake, job.store) }),
    runner,
    // The run's 8 requests in flight, shared among the threads' clients.
    threadClient: threadClientOptions(
      job.clientOptions,
      Math.max(1, Math.ceil(8 / runner.pool.threads)),
    ),
  };
  const results: CompetitionScores[] = [];
  for (const { competition, prompts } of plan.competitions) {
    results.push(await scoreCompetition(context, competition, prompts));
  }
  return results;
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
  context.emit({ type: "plan", competition: competition.name, prompts: planned.prompts.length });
  const selected = await selectedMiners(context.client, context.miners, competition.name);
  const { pools, verdicts } = await scorePrompts({ ...context, selected }, competition, planned);
  let comparison: ServiceComparison;
  try {
    comparison = await compareWithService(context, competition, pools, verdicts);
  } catch (error) {
    if (context.signal?.aborted === true) throw error;
    context.failures.push({
      where: `${competition.name} smoothed scores`,
      reason: error instanceof Error ? error.message : String(error),
    });
    comparison = {
      asOfUnix: undefined,
      windowPromptsMissing: 0,
      leaderboard: [],
      candidate: undefined,
    };
  }
  const where = `${competition.name} smoothed at ${isoSeconds(comparison.asOfUnix ?? context.nowUnix)}`;
  for (const row of comparison.leaderboard) {
    context.tally.add(row.agreement, () => ({
      what: "smoothed score / reward weight",
      where,
      minerUid: row.minerUid,
      ours: row.smoothedScore,
      service: row.serviceSmoothedScore,
    }));
  }
  const history = await storeRankHistory(context, competition, pools);
  const asOf = comparison.asOfUnix ?? history.updates.at(-1) ?? context.nowUnix;
  await storeSmoothedScores(context, competition.name, asOf, comparison);
  return competitionScores(competition, planned, pools, comparison, {
    parameters: parametersAt(competition.parameters, asOf, context.eraSettings),
    updates: history.updates.length,
    history: history.rows,
  });
}

/** Stage 4: the rank at every update of the range, stored in `rank_history`. */
async function storeRankHistory(
  context: JobContext,
  competition: RangeCompetition,
  pools: readonly PromptPool[],
): Promise<{ updates: number[]; rows: RankHistoryEntry[] }> {
  const { network: validatorPrompts, withCandidate } = pooledPrompts(pools);
  const updates = updateTimes(validatorPrompts, context.nowUnix);
  const rows = rankHistory(validatorPrompts, withCandidate, {
    competition: competition.parameters,
    updates,
    keys: context.keys,
    settings: context.eraSettings,
    firstScoredUnix: context.fromUnix + competition.timeLength,
  });
  await writeRankHistory(context.store, competition.name, rows, context.runId, context.signal);
  return { updates, rows };
}

/** The comparison's smoothed scores (and the candidate's) at its update, stored. */
async function storeSmoothedScores(
  context: JobContext,
  competition: string,
  asOfUnix: number,
  comparison: ServiceComparison,
): Promise<void> {
  const stored = smoothedScoreEntries(comparison);
  await writeSmoothedScores(context.store, competition, asOfUnix, stored, context.runId);
}
