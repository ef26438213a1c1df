/**
 * One competition of the score job, stage by stage as the validator works: its prompts scored one
 * by one (pool → prompt scores → stored), the rank at every update of the range, and the
 * comparison with the service at its latest update.
 */

import { availableParallelism } from "node:os";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { ScoringThreads } from "../../scoring/scoringThreads.ts";
import type { EraSettings } from "../../domain/eras.ts";
import { isoSeconds } from "../../domain/time.ts";
import { unitPoolThreads } from "../../service/clientData.ts";
import { threadClientOptions } from "../../service/jobClient.ts";
import type { TaskClientOptions } from "../../service/threadClients.ts";
import type { Store } from "../../store/openStore.ts";
import { writeRankHistory, type RankHistoryEntry } from "../../store/rankHistory.ts";
import { writeSmoothedScores } from "../../store/smoothedScoreRows.ts";
import { DEFAULT_UNIT_DEADLINE_MS } from "../harness/defaults.ts";
import type { Job } from "../harness/runJob.ts";
import { runUnitsInOrder, UnitRunner } from "../harness/unitRunner.ts";
import { deadlineMessage, type UnitDeadline } from "../harness/unitDeadline.ts";
import type { Agreement, CompetitionScores, ScoreEvent, ScoreFailure } from "./summary.ts";
import type { AgreementTally } from "./agreement.ts";
import type { CandidateMatches } from "./candidateMatch.ts";
import { lakeOutput } from "./lakeOutput.ts";
import type { MinerKeys } from "./minerKeys.ts";
import type { CheckedScoreRun, MinerSelection, ScoreOptions } from "./options.ts";
import type { ScorePlan } from "./planScore.ts";
import { parametersAt, rankHistory, updateTimes } from "./rankOverTime.ts";
import type { CompetitionPrompts, PlannedPrompt, RangeCompetition } from "./rangePrompts.ts";
import { pooledPrompts, scorePromptPool, type PromptPool } from "./scorePromptPool.ts";
import { competitionScores } from "./competitionScores.ts";
import {
  compareWithService,
  smoothedScoreEntries,
  type ServiceComparison,
  type SmoothedScoresSelector,
} from "./serviceComparison.ts";
import { selectedMiners } from "./selectedMiners.ts";
import { storePromptPool } from "./storePrompt.ts";

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
   * Where prompts are scored: on the unit runner's pool threads, each with a client of
   * `threadClient`'s options, or on this thread with `client` and `scoringThreads`.
   */
  readonly runner: UnitRunner;
  readonly threadClient: TaskClientOptions;
  /** Called once a prompt is stored (`--lake` moves its rows on); its failure fails the prompt. */
  readonly afterStore?: (name: RangeCompetition["name"], prompt: PlannedPrompt) => Promise<void>;
}

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

/**
 * Stages 2, 3 and 6 for every prompt: pooled and scored by the unit runner (on its pool, as many
 * prompts at once as it has threads, or here, one by one), then compared and stored one by one
 * in the prompts' order.
 */
async function scorePrompts(
  context: JobContext & { readonly selected: readonly number[] | undefined },
  competition: RangeCompetition,
  planned: CompetitionPrompts,
): Promise<{ pools: PromptPool[]; verdicts: Map<number, Agreement>[] }> {
  const pools: PromptPool[] = [];
  const verdicts: Map<number, Agreement>[] = [];
  const prompts = planned.prompts;
  const window = context.runner.capacity;
  await runUnitsInOrder(
    prompts,
    window,
    (prompt) => startPrompt(context, competition, prompt, window),
    async (prompt, { scored, deadline }, index) => {
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
            deadline.passed && !storing
              ? deadline.message
              : error instanceof Error
                ? error.message
                : String(error),
        });
      }
      context.emit({
        type: "prompt",
        competition: competition.name,
        asset: prompt.asset,
        startTime: isoSeconds(prompt.startUnix),
        done: index + 1,
        of: prompts.length,
        miners,
      });
    },
  );
  return { pools, verdicts };
}

/**
 * Starts pooling and scoring one prompt under its own deadline: on the unit runner's pool when it
 * has threads (the deadline then runs from when a thread starts the prompt), else here with the
 * job's client (its calls stop at the deadline, which runs from now).
 */
function startPrompt(
  context: JobContext & { readonly selected: readonly number[] | undefined },
  competition: RangeCompetition,
  prompt: PlannedPrompt,
  inFlight: number,
): { scored: Promise<PromptPool>; deadline: UnitDeadline; stop: () => void } {
  const { matches, runner } = context;
  const file = matches.fileFor(competition.name, prompt.asset, prompt.startUnix);
  // On the validator's prompts of its assets (the fill where it has no file); elsewhere only
  // where it answered.
  const candidate = {
    takesPart:
      matches.covers(competition.name, prompt.asset) &&
      (prompt.rows.length > 0 || file !== undefined),
    file,
  };
  const message = deadlineMessage("prompt", context.unitDeadlineMs);
  const deadline = runner.deadline(context.unitDeadlineMs, message, inFlight);
  let scored: Promise<PromptPool>;
  if (runner.onThreads) {
    scored = runner.pool.scorePrompt(
      {
        kind: "score prompt",
        client: context.threadClient,
        keys: context.keys.changes,
        prompt,
        ownOnly: context.ownOnly,
        selected: context.selected,
        eraSettings: context.eraSettings,
        candidate,
        deadlineMs: context.unitDeadlineMs,
        deadlineMessage: message,
      },
      deadline.signal,
    );
  } else {
    deadline.start();
    const client = context.client.withSignal(deadline.signal);
    scored = scorePromptPool({ ...context, client }, prompt, candidate);
  }
  // Read in turn by scorePrompts; a failure before then is not an unhandled one.
  scored.catch(() => {});
  return { scored, deadline, stop: () => deadline.stop() };
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
