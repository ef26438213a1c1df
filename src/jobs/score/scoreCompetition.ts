/**
 * One competition of the score job, stage by stage as the validator works: its prompts scored one
 * by one (pool → prompt scores → stored), the rank at every update of the range, and the
 * comparison with the service at its latest update.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { ScoringThreads } from "../../scoring/scoringThreads.ts";
import type { EraSettings } from "../../domain/eras.ts";
import { setMaxListeners } from "node:events";
import { isoSeconds } from "../../domain/time.ts";
import type { Store } from "../../store/openStore.ts";
import { writeRankHistory, type RankHistoryEntry } from "../../store/rankHistory.ts";
import { writeSmoothedScores } from "../../store/smoothedScoreRows.ts";
import type { Agreement, CompetitionScores, ScoreEvent } from "./summary.ts";
import type { AgreementTally } from "./agreement.ts";
import type { ScoreFailure } from "./summary.ts";
import type { CandidateMatches } from "./candidateMatch.ts";
import type { MinerKeys } from "./minerKeys.ts";
import { parametersAt, rankHistory, updateTimes } from "./rankOverTime.ts";
import type { CompetitionPrompts, PlannedPrompt, RangeCompetition } from "./rangePrompts.ts";
import { pooledPrompts, scorePromptPool, type PromptPool } from "./scorePromptPool.ts";
import type { MinerSelection } from "./options.ts";
import { competitionScores } from "./competitionScores.ts";
import {
  compareWithService,
  smoothedScoreEntries,
  type ServiceComparison,
  type SmoothedScoresSelector,
} from "./serviceComparison.ts";
import { selectedMiners } from "./selectedMiners.ts";
import { storePromptPool } from "./storePrompt.ts";
import type { TaskClientOptions } from "../../service/threadClients.ts";
import type { UnitPool } from "../harness/unitPool.ts";

/** What every competition of a run shares. */
export interface JobContext {
  readonly client: PathlabClient;
  readonly store: Store;
  /** Where a prompt's miners are scored when it is scored here: these threads, or this thread. */
  readonly scoringThreads: ScoringThreads | undefined;
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
  /** What failed (a prompt, a competition's comparison), with the reason; the run goes on. */
  readonly failures: ScoreFailure[];
  readonly emit: (event: ScoreEvent) => void;
  readonly signal: AbortSignal | undefined;
  /** The longest one prompt may take, in ms (see `ScoreOptions.unitDeadlineMs`). */
  readonly unitDeadlineMs: number;
  /**
   * Where prompts are scored: on the unit pool's threads, each with a client of these options, or
   * (`undefined`) on this thread with `client` and `scoringThreads`.
   */
  readonly units: { readonly pool: UnitPool; readonly client: TaskClientOptions } | undefined;
  /** Called once a prompt is stored (`--lake` moves its rows on); its failure fails the prompt. */
  readonly afterStore?: (name: RangeCompetition["name"], prompt: PlannedPrompt) => Promise<void>;
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

/**
 * Stages 2, 3 and 6 for every prompt: pooled and scored (on the unit pool, several prompts at once,
 * or here, one by one), then compared and stored one by one in the prompts' order.
 */
async function scorePrompts(
  context: JobContext & { readonly selected: readonly number[] | undefined },
  competition: RangeCompetition,
  planned: CompetitionPrompts,
): Promise<{ pools: PromptPool[]; verdicts: Map<number, Agreement>[] }> {
  const pools: PromptPool[] = [];
  const verdicts: Map<number, Agreement>[] = [];
  const prompts = planned.prompts;
  const window = context.units?.pool.capacity ?? 1;
  // Each prompt in flight listens to the job's signal.
  if (context.signal !== undefined) setMaxListeners(10 + window, context.signal);
  const started: ReturnType<typeof startPrompt>[] = [];
  const start = (index: number) => {
    if (index < prompts.length) started[index] = startPrompt(context, competition, prompts[index]);
  };
  for (let index = 0; index < window; index++) start(index);
  try {
    for (const [index, prompt] of prompts.entries()) {
      const { scored, deadline, stop, deadlinePassed } = started[index];
      let storing = false;
      let miners = 0;
      try {
        const pool = await scored;
        deadline.signal.throwIfAborted();
        storing = true;
        const verdict = await storePromptPool(context.store, pool, context);
        await context.afterStore?.(competition.name, prompt);
        verdicts.push(verdict);
        pools.push(pool);
        miners = pool.network.length;
      } catch (error) {
        // One prompt that fails (a fault that outlasted the retries, a write that was rolled
        // back) is recorded with its reason; the others go on, and the run ends `partial`.
        if (context.signal?.aborted === true) throw error;
        context.failures.push({
          where: `${competition.name} ${prompt.asset} ${isoSeconds(prompt.startUnix)}`,
          // a write that failed on its own is that failure, even past the deadline
          reason:
            deadline.signal.aborted && !storing
              ? deadlinePassed
              : error instanceof Error
                ? error.message
                : String(error),
        });
      } finally {
        stop();
      }
      start(index + window);
      context.emit({
        type: "prompt",
        competition: competition.name,
        asset: prompt.asset,
        startTime: isoSeconds(prompt.startUnix),
        done: index + 1,
        of: prompts.length,
        miners,
      });
    }
  } finally {
    // Interrupted: the prompts still running stop.
    for (const entry of started) entry?.stop();
  }
  return { pools, verdicts };
}

/**
 * Starts pooling and scoring one prompt under its own deadline: on the unit pool when the job has
 * one, else here with the job's client (its calls stop at the deadline).
 */
function startPrompt(
  context: JobContext & { readonly selected: readonly number[] | undefined },
  competition: RangeCompetition,
  prompt: PlannedPrompt,
) {
  const { matches } = context;
  const file = matches.fileFor(competition.name, prompt.asset, prompt.startUnix);
  // On the validator's prompts of its assets (the fill where it has no file); elsewhere only
  // where it answered.
  const candidate = {
    takesPart:
      matches.covers(competition.name, prompt.asset) &&
      (prompt.rows.length > 0 || file !== undefined),
    file,
  };
  const deadline = new AbortController();
  const deadlinePassed = `not finished within ${context.unitDeadlineMs / 1000} s (the prompt's deadline, --unit-deadline)`;
  const stopJob = () => deadline.abort(context.signal?.reason);
  if (context.signal?.aborted === true) stopJob();
  else context.signal?.addEventListener("abort", stopJob, { once: true });
  // Here the deadline runs from now; on the unit pool, from when a thread starts the prompt.
  const timer =
    context.units === undefined
      ? setTimeout(() => deadline.abort(new Error(deadlinePassed)), context.unitDeadlineMs)
      : undefined;
  const scored =
    context.units === undefined
      ? scorePromptPool(
          { ...context, client: context.client.withSignal(deadline.signal) },
          prompt,
          candidate,
        )
      : context.units.pool.scorePrompt(
          {
            kind: "score prompt",
            client: context.units.client,
            keys: context.keys.changes,
            prompt,
            ownOnly: context.ownOnly,
            selected: context.selected,
            eraSettings: context.eraSettings,
            candidate,
            deadlineMs: context.unitDeadlineMs,
            deadlineMessage: deadlinePassed,
          },
          deadline.signal,
        );
  // Read in turn by scorePrompts; a failure before then is not an unhandled one.
  scored.catch(() => {});
  // Called once the prompt is stored or given up: whatever still runs for it stops.
  const stop = () => {
    clearTimeout(timer);
    context.signal?.removeEventListener("abort", stopJob);
    deadline.abort(new Error("the prompt's work is no longer wanted"));
  };
  return { scored, deadline, stop, deadlinePassed };
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
