/**
 * The score job (`pathlab score`): benchmarks miners over a range of prompts exactly as the
 * network's validator does, compares every number with the service's own, stores it all with
 * calibration and rank history, and places a candidate model among the miners as one more miner.
 * Plan (`planScore`: the validator's prompts, the candidate's files) → units (`scoreCompetition`:
 * each prompt pooled, scored and stored, then the competition's rank history and comparison) →
 * reduce (`reduceScore`); the run harness (`runJob`) does the rest.
 */

import { DEFAULT_JOB_DEADLINE_MS } from "../harness/defaults.ts";
import { runJob } from "../harness/runJob.ts";
import { checkScoreRun, type ScoreOptions } from "./options.ts";
import { planScore } from "./planScore.ts";
import { reduceScore } from "./reduceScore.ts";
import { scoreCompetitions } from "./scoreCompetition.ts";
import type { ScoreSummary } from "./summary.ts";

export type { MinerSelection, ScoreOptions } from "./options.ts";

/**
 * Runs `pathlab score`: for each competition in force over [from, to] (the validator's era
 * table), pulls the validator's prompts (those already scored) with the service's score rows;
 * recomputes each selected miner's prompt CRPS from its path set where it can (the service's CRPS
 * where the path set is not available, and for every miner with `ownOnly`), the candidate's from
 * its file (−1 for an invalid file, the fill where it did not answer), the prompt scores over
 * the prompt's full pool, smoothed scores and reward weights at every update of the range (miners
 * keyed by hotkey) and at the service's latest update, compared with the service's; stores every
 * prompt in one transaction. Throws `UsageError` for options that cannot work, and
 * `JobInterruptedError` when `signal` aborts (the prompts scored until then are stored).
 * @param options - the range, and the competitions, assets, miners, candidate, store and service
 *   when not the defaults.
 * @example
 * const summary = await runScore({ from: "2026-11-20T10:00:00Z", to: "2026-11-21T11:00:00Z" });
 * summary.competitions[0].leaderboard[0].rank // => 1
 */
export async function runScore(options: ScoreOptions): Promise<ScoreSummary> {
  const definition = {
    command: "score",
    check: checkScoreRun,
    defaultDeadlineMs: DEFAULT_JOB_DEADLINE_MS,
    unit: "prompt",
    interruptedMessage: (job: { runId: number | undefined }, why: string) =>
      `score: ${why}; the prompts scored until then are stored (run ${job.runId})`,
  };
  return runJob(definition, options, async (job) => {
    // the job's signal: it aborts when the job is interrupted, past its deadline or by its breaker
    const jobOptions = { ...options, signal: job.signal };
    const plan = await planScore(job, jobOptions);
    const competitions = await scoreCompetitions(job, plan, jobOptions);
    return reduceScore(job, jobOptions, plan, competitions);
  });
}
