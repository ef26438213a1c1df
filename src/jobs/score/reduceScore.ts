/**
 * The reduce step of the score job: how the run ended, recorded with its failures, disagreements
 * and stray candidate files, and the summary.
 */

import type { Job } from "../harness/runJob.ts";
import type { CheckedScoreRun, ScoreOptions } from "./options.ts";
import type { ScorePlan } from "./planScore.ts";
import type { CompetitionScores, ScoreSummary } from "./summary.ts";

/**
 * Records how the run ended (`ok` when every number agreed, every candidate file answered a prompt
 * and nothing failed; else `partial`) and returns the summary (without secrets).
 * @example const summary = await reduceScore(job, options, plan, competitions);
 */
export async function reduceScore(
  job: Job<CheckedScoreRun>,
  options: ScoreOptions,
  plan: ScorePlan,
  competitions: readonly CompetitionScores[],
): Promise<ScoreSummary> {
  const { tally, failures } = plan;
  const unmatched = plan.matches.unmatched;
  const rejectedCandidateFiles = job.checked.candidateFiles
    .filter((file) => file.reason !== undefined)
    .map((file) => ({ file: file.file, reason: file.reason as string }));
  const exitCode =
    tally.counts.disagree === 0 && unmatched.length === 0 && failures.length === 0 ? 0 : 1;
  await job.finishRun({
    status: exitCode === 0 ? "ok" : "partial",
    failures: [...failures, ...tally.disagreements, ...unmatched],
  });
  return job.redact<ScoreSummary>({
    command: "score",
    runId: plan.run.id,
    database: job.database,
    ...(job.lake !== undefined && { lake: job.lake }),
    service: job.service,
    from: options.from,
    to: options.to,
    durationMs: job.durationMs(),
    competitions,
    agreement: tally.counts,
    disagreements: tally.disagreements,
    failures,
    ownOnly: job.checked.ownOnly,
    ...(options.skipStored === true && { promptsAlreadyStored: plan.alreadyStored }),
    rejectedCandidateFiles,
    unmatchedCandidateFiles: unmatched,
    exitCode,
    ...(await job.recordReplaySummary()),
  });
}
