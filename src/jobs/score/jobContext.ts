/**
 * What every competition of a score run shares: the client, store and threads, the range and
 * miners, the candidate's matches, the tallies and failures, and where prompts are scored.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { ScoringThreads } from "../../scoring/scoringThreads.ts";
import type { EraSettings } from "../../domain/eras.ts";
import type { TaskClientOptions } from "../../service/threadClients.ts";
import type { Store } from "../../store/openStore.ts";
import type { Breaker } from "../harness/breaker.ts";
import type { UnitRunner } from "../harness/unitRunner.ts";
import type { ScoreEvent, ScoreFailure } from "./summary.ts";
import type { AgreementTally } from "./agreement.ts";
import type { CandidateMatches } from "./candidateMatch.ts";
import type { MinerKeys } from "./minerKeys.ts";
import type { MinerSelection } from "./options.ts";
import type { PlannedPrompt, RangeCompetition } from "./rangePrompts.ts";
import type { SmoothedScoresSelector } from "./serviceComparison.ts";

/**
 * What every competition of a run shares.
 * @example const context: JobContext = { client, store, scoringThreads, keys, runId, … };
 */
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
  /** Told how each prompt ended: it stops the job once prompts fail alike in a row. */
  readonly breaker?: Breaker;
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
