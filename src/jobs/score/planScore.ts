/**
 * The plan step of the score job: its run's row, the validator's prompts of the range (those not
 * stored yet, for a tick of a watch), which prompt each candidate file answers, and the uid holders
 * that key the miners.
 */

import type { Run } from "../../store/runs.ts";
import type { Job } from "../harness/runJob.ts";
import { isLiveNaming } from "../../service/jobClient.ts";
import { AgreementTally } from "./agreement.ts";
import { matchCandidateFiles, type CandidateMatches } from "./candidateMatch.ts";
import { fetchMinerKeys, minerKeysSpan, type MinerKeys } from "./minerKeys.ts";
import type { CheckedScoreRun, ScoreOptions } from "./options.ts";
import { planRange, type CompetitionPrompts, type RangeCompetition } from "./rangePrompts.ts";
import { smoothedScoresSelector, type SmoothedScoresSelector } from "./serviceComparison.ts";
import { storedPromptKeys, withoutStored } from "./storedPrompts.ts";
import type { ScoreFailure } from "./summary.ts";

/**
 * What a score run scores, and what its competitions share.
 * @example const { competitions, keys } = await planScore(job, options);
 */
export interface ScorePlan {
  readonly run: Run;
  /** Each competition in force over the range, with its prompts, in the order they are scored. */
  readonly competitions: readonly {
    readonly competition: RangeCompetition;
    readonly prompts: CompetitionPrompts;
  }[];
  readonly matches: CandidateMatches;
  /** Prompts of the range left out because they are stored already (`skipStored`). */
  readonly alreadyStored: number;
  readonly keys: MinerKeys;
  /** Where the service's smoothed scores are read (the live deployment's endpoint, or pathlab's). */
  readonly smoothedParams: SmoothedScoresSelector;
  /** Each number compared with the service's, tallied. */
  readonly tally: AgreementTally;
  /** What failed (a prompt, a competition's comparison), with the reason; the run goes on. */
  readonly failures: ScoreFailure[];
}

/**
 * Plans a score run (see the module comment) and starts its row; the run's failures and
 * disagreements so far are stored with it if a later step throws.
 * @example const plan = await planScore(job, options);
 */
export async function planScore(
  job: Job<CheckedScoreRun>,
  options: ScoreOptions,
): Promise<ScorePlan> {
  const { checked } = job;
  const eraSettings = options.eraSettings ?? {};
  const run = await job.startRun({
    from: options.from,
    to: options.to,
    competitions: checked.competitions,
    assets: options.assets ?? null,
    miners: checked.miners,
    ownOnly: checked.ownOnly,
    candidate: options.candidate ?? null,
    database: job.database,
    service: job.service,
    eraSettings,
    ...(options.replay !== undefined && { replay: options.replay }),
  });
  const tally = new AgreementTally();
  const failures: ScoreFailure[] = [];
  // a run the breaker or the deadline stops keeps each prompt's failure, as a finished run does
  job.failuresSoFar = () => [...failures, ...tally.disagreements];
  const planned = await planRange(job.client, checked, {
    nowUnix: job.nowUnix,
    assets: options.assets,
    settings: eraSettings,
  });
  // Candidate files are matched over the whole range: a stored prompt's file is no stray.
  const matches = matchCandidateFiles(checked.candidateFiles, planned, checked);
  const { fresh, alreadyStored } =
    options.skipStored === true
      ? withoutStored(planned, await storedPromptKeys(job.store, job.lake))
      : { fresh: planned, alreadyStored: 0 };
  const span = minerKeysSpan(checked.fromUnix, checked.toUnix, job.nowUnix);
  const keys = await fetchMinerKeys(job.client, span.fromUnix, span.toUnix);
  const live = isLiveNaming(job.deployment.naming);
  return {
    run,
    competitions: fresh,
    matches,
    alreadyStored,
    keys,
    smoothedParams: smoothedScoresSelector(live),
    tally,
    failures,
  };
}
