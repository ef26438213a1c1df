/**
 * The options of the score job, checked once: each mistake is a {@link UsageError} naming the
 * option, what was expected and what was got.
 */

import type { ClientOptions } from "../../client/options.ts";
import { COMPETITION_ASSETS, COMPETITIONS, type Competition } from "../../domain/assets.ts";
import type { EraSettings } from "../../domain/eras.ts";
import type { ScoreEvent } from "./summary.ts";
import { timeRangeOption } from "../harness/defaults.ts";
import { checkServiceRequest, type ServiceChoice } from "../../service/resolveService.ts";
import type { LoadedRecording } from "../../service/replay.ts";
import { UsageError } from "../../service/usageError.ts";
import { readCandidateFolder, type CandidateFolderFile } from "./candidate.ts";

/**
 * Which miners to score: the first `top` of the competition's meta-leaderboard, these uids, or
 * (the default, `"all"`) every miner the service scored on each prompt.
 * @example const miners: MinerSelection = { top: 10 };
 */
export type MinerSelection =
  "all" | { readonly top: number } | { readonly uids: readonly number[] };

/**
 * Options of `runScore`.
 * @example const options: ScoreOptions = { from: "2026-11-20T10:00:00Z", to: "2026-11-21T11:00:00Z", competition: "crypto-1h" };
 */
export interface ScoreOptions extends ServiceChoice {
  /** Prompts starting from this time (ISO 8601), inclusive. */
  readonly from: string;
  /** Prompts starting up to this time (ISO 8601), inclusive. */
  readonly to: string;
  /**
   * One competition or `all` (default). Before 2026-06-23 the network had two competitions:
   * `crypto-1h` then selects `high` (every 1h prompt), the 24h ones select `low`.
   */
  readonly competition?: Competition | "all";
  /** Only these assets (default every asset of the competitions). */
  readonly assets?: readonly string[];
  /** Which miners to score: `all` (default), the `top` N of the meta-leaderboard, or `uids`. */
  readonly miners?: MinerSelection;
  /**
   * Recompute only the candidate: no miner's path set is fetched, every network miner takes the
   * service's CRPS (as the network's public backtester does). Default: `true` against a service
   * (`baseUrl`) unless `miners` selects miners to recompute, since miners' path sets need
   * elevated access and are kept only 6–11 days; `false` against the embedded sandbox.
   */
  readonly ownOnly?: boolean;
  /** A folder of candidate prediction files (see `readCandidateFolder`). */
  readonly candidate?: string;
  /** The DuckDB file to write (default `./pathlab.duckdb`); not with `lake`. */
  readonly database?: string;
  /**
   * A lake to write instead of a DuckDB file: each prompt's rows, once scored, as that unit's files
   * (the tables and layout `pathlab worker` writes, see `writeLakeUnit`), so that readers
   * (`pathlab query --lake`, notebooks) are never locked out while the run goes on. The run's
   * other results (the comparison with the service, rank history, smoothed scores) are in its
   * summary only.
   */
  readonly lake?: string;
  /**
   * Leave out the prompts already in the database (or the lake), as `pathlab score --watch` does
   * at each tick. Default `false`: every prompt of the range is scored and stored again.
   */
  readonly skipStored?: boolean;
  /**
   * Client settings: the deployment's naming and paths (under the live naming the smoothed scores
   * are read from `/rewards/scores?prompt_name=…`, `LIVE_PATHS`, unless `paths` says otherwise),
   * retries and timeouts (default: 4 retries, the client's own timeouts and backoff).
   */
  readonly client?: Pick<
    ClientOptions,
    "naming" | "paths" | "maxRetries" | "retryBaseMs" | "retryMaxMs" | "timeoutMs"
  >;
  /** Save every raw response into this directory (new or empty; layout in `record.ts`). */
  readonly record?: string;
  /** Answer from the recording in this directory instead of the network (`replay.ts`). */
  readonly replay?: string;
  /** The dates of the validator's undated changes (outlier cap, volatility CRPS, format rule). */
  readonly eraSettings?: EraSettings;
  /**
   * The longest one prompt may take (its path sets fetched, scored and stored), in ms; past it,
   * its requests stop and it is a failure. Default `DEFAULT_UNIT_DEADLINE_MS` (5 minutes).
   */
  readonly unitDeadlineMs?: number;
  /**
   * The longest the whole job may take, in ms; default `DEFAULT_JOB_DEADLINE_MS` (6 hours). When
   * it passes, or `BREAKER_UNITS` prompts in a row fail the same way (the breaker), the prompts in
   * flight stop, those stored are kept, the run is recorded as `failed` (the leaderboards and
   * smoothed scores of the range are not computed), and `runScore` rejects with a
   * `JobStoppedError` that says what stopped it.
   */
  readonly deadlineMs?: number;
  /**
   * Worker threads that score whole prompts, several at once (the unit pool; default: the machine's
   * parallelism; 0 = every prompt on this thread). With `record`, or client options that are
   * functions (`dispatcher`, `onEvent`, …), prompts are scored on this thread and only their
   * miners spread over this many threads.
   */
  readonly threads?: number;
  /** Receives progress events. */
  readonly onEvent?: (event: ScoreEvent) => void;
  /**
   * Interrupts the job: requests in flight are cancelled, the prompt being written is rolled back,
   * the run is recorded as `interrupted`, and `runScore` rejects with a `JobInterruptedError`.
   */
  readonly signal?: AbortSignal;
}

/**
 * What the checks derive from the options.
 * @example const { fromUnix, toUnix, competitions } = checkScoreOptions(options);
 */
export interface CheckedScoreOptions {
  readonly fromUnix: number;
  readonly toUnix: number;
  /** The competitions asked for, in today's names. */
  readonly competitions: readonly Competition[];
  readonly miners: MinerSelection;
  readonly ownOnly: boolean;
}

/**
 * Checks `options` (times, competition, assets, miners, service and sandbox options together) and
 * returns what follows from them. Throws {@link UsageError} for the first mistake.
 * @example checkScoreOptions({ from: "2026-11-20T10:00:00Z", to: "2026-11-21T10:00:00Z" }).ownOnly // => false
 */
export function checkScoreOptions(options: ScoreOptions): CheckedScoreOptions {
  const { fromUnix, toUnix } = timeRangeOption("score", options.from, options.to);
  const deadline = options.unitDeadlineMs;
  if (deadline !== undefined && !(Number.isFinite(deadline) && deadline > 0)) {
    throw new UsageError(`score: unitDeadlineMs: expected a number of ms > 0, got ${deadline}`);
  }
  const competitions: readonly Competition[] =
    options.competition === undefined || options.competition === "all"
      ? COMPETITIONS
      : [checkCompetition(options.competition)];
  checkAssets(options.assets, competitions);
  const given = options.miners ?? "all";
  checkMiners(given);
  // A uid listed twice is one miner.
  const miners =
    typeof given === "object" && "uids" in given ? { uids: [...new Set(given.uids)] } : given;
  checkServiceRequest("score", options);
  // A selection of miners asks for their path sets: own-only is the default without one.
  const ownOnly = options.ownOnly ?? (options.baseUrl !== undefined && miners === "all");
  if (ownOnly && miners !== "all") {
    throw new UsageError(
      "score: --miners selects the miners whose path sets are recomputed; with --own-only none is (pass --no-own-only to recompute miners)",
    );
  }
  return { fromUnix, toUnix, competitions, miners, ownOnly };
}

/**
 * What {@link checkScoreRun} derives: the checked options, and the candidate's files read.
 * @example const { candidateFiles, ownOnly } = await checkScoreRun(options, undefined);
 */
export interface CheckedScoreRun extends CheckedScoreOptions {
  readonly candidateFiles: readonly CandidateFolderFile[];
}

/**
 * Checks a score run's options ({@link checkScoreOptions}; a replay of a service's recording asks
 * what that run asked: own-only by the same default) and reads the candidate's folder.
 * @example const checked = await checkScoreRun(options, recording);
 */
export async function checkScoreRun(
  options: ScoreOptions,
  recording: LoadedRecording | undefined,
): Promise<CheckedScoreRun> {
  const replayOfService = recording?.info.service.kind === "service";
  const checked = checkScoreOptions(
    replayOfService && options.ownOnly === undefined
      ? { ...options, ownOnly: (options.miners ?? "all") === "all" }
      : options,
  );
  const candidateFiles =
    options.candidate === undefined ? [] : await readCandidateFolder(options.candidate);
  return { ...checked, candidateFiles };
}

function checkCompetition(name: string): Competition {
  if (!(COMPETITIONS as readonly string[]).includes(name)) {
    throw new UsageError(
      `score: --competition: expected one of ${COMPETITIONS.join(", ")} or all, got ${JSON.stringify(name)}`,
    );
  }
  return name as Competition;
}

function checkAssets(assets: readonly string[] | undefined, competitions: readonly Competition[]) {
  if (assets === undefined) return;
  const known = new Set(
    competitions.flatMap((competition) => COMPETITION_ASSETS[competition] as readonly string[]),
  );
  for (const asset of assets) {
    if (!known.has(asset)) {
      throw new UsageError(
        `score: --assets: expected assets of ${competitions.join(", ")} (${[...known].join(", ")}), got ${JSON.stringify(asset)}`,
      );
    }
  }
}

function checkMiners(miners: MinerSelection): void {
  if (miners === "all") return;
  if ("top" in miners) {
    if (!Number.isInteger(miners.top) || miners.top < 1) {
      throw new UsageError(`score: --miners: expected top:N with N ≥ 1, got top:${miners.top}`);
    }
    return;
  }
  if (miners.uids.length === 0 || miners.uids.some((uid) => !Number.isInteger(uid) || uid < 0)) {
    throw new UsageError(
      `score: --miners: expected uids (whole numbers ≥ 0), got ${miners.uids.join(",")}`,
    );
  }
}
