/**
 * The backtest job (`pathlab backtest`): a user's model, in any language, answers every prompt of
 * a range as the validators would put it (`answers.ts`), and is then scored and ranked among the
 * network's miners by the score job (`score --candidate` on the answers' folder), with an estimate
 * of what its reward weight would earn. Two jobs in a row, on one clock: an embedded sandbox
 * without `--now` is pinned to the minute the backtest started, so that both see the same world.
 */

import { COMPETITIONS, type Competition } from "../../domain/assets.ts";
import { checkServiceRequest, type ServiceChoice } from "../../service/resolveService.ts";
import { UsageError } from "../../service/usageError.ts";
import { baselineFileName } from "../baseline/file.ts";
import { promptCloses, rangeValidatorPrompts } from "../baseline/plan.ts";
import { DEFAULT_JOB_DEADLINE_MS, timeRangeOption } from "../harness/defaults.ts";
import { JobStoppedError } from "../harness/interruptedError.ts";
import { runJob } from "../harness/runJob.ts";
import { runScore, type MinerSelection } from "../score/score.ts";
import type { ScoreSummary } from "../score/summary.ts";
import { askModel, checkModelCommand, historySeconds, type ModelFailure } from "./answers.ts";
import type { ModelPrompt } from "./modelPrompt.ts";
import { modelModuleOf, ModelThreads } from "./modelThreads.ts";

/**
 * The emission normalization factor of the official backtester (synth-lib): reward weight × the
 * daily miner pool × this factor estimates a miner's USD per day, as calibrated there against
 * on-chain emissions.
 * @example EMISSION_FACTOR // => 0.6935
 */
export const EMISSION_FACTOR = 0.6935;

/**
 * Options of {@link runBacktest}.
 * @example const options: BacktestOptions = { model: "python3 examples/models/gbm.py", competition: "crypto-1h", from: "2026-11-21T08:00:00Z", to: "2026-11-21T10:00:00Z", out: "./backtest" };
 */
export interface BacktestOptions extends ServiceChoice {
  /**
   * The model: an ES module file that exports `simulate(prompt)` (`./model.mjs`, one argument
   * ending in `.mjs` or `.js`), run on worker threads; otherwise a command line, run through the
   * shell (see `modelProcess.ts`).
   */
  readonly model: string;
  readonly competition: Competition;
  readonly from: string;
  readonly to: string;
  readonly assets?: readonly string[];
  /**
   * The miners recomputed from their path sets, as `score --miners` takes them (the others take the
   * service's CRPS); default every miner, and none against a service (own-only).
   */
  readonly miners?: MinerSelection;
  /** The folder of the model's answers (created when missing; answers there are kept). */
  readonly out: string;
  /** The database the score job writes (default ./pathlab.duckdb); not with `lake`. */
  readonly database?: string;
  /** A Parquet lake the score job writes instead of a database (as `score --lake`). */
  readonly lake?: string;
  /** Copies of the model asked at a time (default 1). */
  readonly concurrency?: number;
  /** Seconds a model call may take (default 60). */
  readonly modelTimeoutSeconds?: number;
  /** Restarts of the model allowed before the run stops (default 3). */
  readonly maxRestarts?: number;
  /** Seconds of realized prices before each start in the prompt's `history` (default 86,400). */
  readonly lookbackSeconds?: number;
  /** The miners' pool in USD per day, for the earnings estimate (none: no estimate). */
  readonly poolUsdPerDay?: number;
  /** The emission factor of the estimate (default {@link EMISSION_FACTOR}). */
  readonly emissionFactor?: number;
  /**
   * The longest the whole backtest (the model's answers and their scoring) may take, in ms;
   * default {@link DEFAULT_JOB_DEADLINE_MS}. Past it, the model is stopped, the answers written
   * are kept, and it throws `JobStoppedError`.
   */
  readonly deadlineMs?: number;
  /** Told of each answer written. */
  readonly onAnswer?: (prompt: ModelPrompt, file: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * One competition of a backtest, as its table and `--json` show it.
 * @example const row: BacktestCompetition = { competition: "crypto-1h", prompts: 12, valid: 11, invalid: 1, mean_crps: 41.2, rank: 7, of: 37, smoothed_score: 0.83, reward_weight: 0.021, estimated_usd_per_day: null, updates: [] };
 */
export interface BacktestCompetition {
  readonly competition: string;
  /** The range's prompts of the competition's assets. */
  readonly prompts: number;
  /** Answers the validator accepts. */
  readonly valid: number;
  /** Prompts without a valid answer (rejected, or no answer): scored with the validator's penalty. */
  readonly invalid: number;
  readonly mean_crps: number | null;
  readonly rank: number | null;
  readonly of: number;
  readonly smoothed_score: number | null;
  readonly reward_weight: number | null;
  /** reward weight × pool per day × emission factor: an estimate; null without `--pool-usd-per-day`. */
  readonly estimated_usd_per_day: number | null;
  /** The same at every validator update of the range, oldest first. */
  readonly updates: readonly {
    readonly updated_at: string;
    readonly rank: number;
    readonly of: number;
    readonly smoothed_score: number;
    readonly reward_weight: number;
    readonly estimated_usd_per_day: number | null;
  }[];
}

/**
 * What a backtest did: the answers asked and kept, the model's failures, each competition's
 * result, and the score job's summary behind them.
 * @example const { competitions } = await runBacktest(options);
 */
export interface BacktestSummary {
  readonly command: "backtest";
  readonly out: string;
  readonly asked: number;
  /** Answers already in the folder, not asked again. */
  readonly kept: number;
  readonly failures: readonly ModelFailure[];
  /**
   * Answers to prompts of the range that the service has not scored (not yet, or it has no scores
   * for them): left out of the results, as `score --candidate` leaves them.
   */
  readonly notScored: number;
  readonly competitions: readonly BacktestCompetition[];
  readonly emissionFactor: number;
  readonly poolUsdPerDay: number | null;
  readonly score: ScoreSummary;
  /** 0 every prompt answered, its answer valid, and the scoring without a failure; 1 otherwise. */
  readonly exitCode: number;
}

function checkBacktestOptions(options: BacktestOptions): Competition {
  checkModelCommand(options.model);
  timeRangeOption("backtest", options.from, options.to);
  const usage = (option: string, expected: string, got: unknown) =>
    new UsageError(`backtest: ${option}: expected ${expected}, got ${JSON.stringify(got)}`);
  if (!(COMPETITIONS as readonly string[]).includes(options.competition)) {
    throw usage("--competition", `one of ${COMPETITIONS.join(", ")}`, options.competition);
  }
  if (options.out === "") throw usage("--out", "a folder", options.out);
  checkServiceRequest("backtest", options);
  return options.competition;
}

/**
 * Runs `pathlab backtest` (see the module comment): asks the model for the range's prompts it has
 * no answer for yet, then scores every answer of the folder with `runScore` and summarizes each
 * competition. Throws `UsageError` for options that cannot work, and an Error when the model
 * fails more than `maxRestarts` times after restarts.
 * @param options - the model's command, the range and competition, the folder and database, the
 *   model's deadlines and the earnings estimate's pool.
 * @example const summary = await runBacktest({ model: "python3 examples/models/gbm.py", competition: "crypto-1h", from, to, out: "./backtest" });
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestSummary> {
  const onSandbox = options.baseUrl === undefined;
  // one clock for both jobs: the embedded sandbox's minute, pinned
  const now =
    options.now ??
    (onSandbox ? new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString() : undefined);
  const pinned = { ...options, ...(now !== undefined && { now }) };
  // one deadline for both jobs: the scoring gets what the answers left of it
  const deadlineMs = options.deadlineMs ?? DEFAULT_JOB_DEADLINE_MS;
  const started = performance.now();
  const concurrency = options.concurrency ?? 1;
  const definition = {
    command: "backtest",
    check: checkBacktestOptions,
    writes: "nothing" as const,
    defaultDeadlineMs: deadlineMs,
    interruptedMessage: (_job: unknown, why: string) =>
      `backtest: ${why}; the answers until then are kept in ${options.out}`,
  };
  const module = modelModuleOf(options.model);
  const threads = module === undefined ? undefined : new ModelThreads(module, concurrency);
  const answers = await runJob(definition, pinned, async (job) => {
    // a module that does not load is a usage error, before any prompt is asked
    await threads?.check();
    const { fromUnix, toUnix } = timeRangeOption("backtest", options.from, options.to);
    const range = await rangeValidatorPrompts(job, job.checked, fromUnix, toUnix, options.assets);
    const lookbackSeconds = options.lookbackSeconds ?? 86400;
    const closes = await promptCloses(job, range.prompts, historySeconds(lookbackSeconds));
    return askModel(range.prompts, closes, {
      command: options.model,
      ...(threads !== undefined && { threads }),
      out: options.out,
      concurrency,
      deadlineMs: (options.modelTimeoutSeconds ?? 60) * 1000,
      maxRestarts: options.maxRestarts ?? 3,
      lookbackSeconds,
      timeIncrement: range.timeIncrement,
      timeLength: range.timeLength,
      fileName: (asset, startUnix) => baselineFileName(asset, startUnix, range.timeLength),
      signal: job.signal,
      onAnswer: options.onAnswer,
    });
  }).finally(() => threads?.close());
  const score = await runScore({
    ...pinned,
    competition: options.competition,
    candidate: options.out,
    deadlineMs: Math.max(1, Math.round(deadlineMs - (performance.now() - started))),
  }).catch((error: unknown) => {
    // the score job's own deadline is what is left of the backtest's: say it as the backtest's
    if (!(error instanceof JobStoppedError) || !error.message.includes("(--deadline)")) throw error;
    throw new JobStoppedError(
      `backtest: stopped at its deadline of ${deadlineMs / 1000} s (--deadline) while scoring; the answers are kept in ${options.out}`,
      { cause: error },
    );
  });
  const emissionFactor = options.emissionFactor ?? EMISSION_FACTOR;
  const pool = options.poolUsdPerDay ?? null;
  const competitions = candidateCompetitions(score, pool, emissionFactor);
  const allValid = competitions.every((row) => row.invalid === 0);
  const scored = competitions.reduce((sum, row) => sum + row.prompts, 0);
  return {
    command: "backtest",
    out: options.out,
    asked: answers.asked,
    kept: answers.kept,
    failures: answers.failures,
    notScored: score.unmatchedCandidateFiles.length,
    competitions,
    emissionFactor,
    poolUsdPerDay: pool,
    score,
    exitCode:
      allValid && answers.failures.length === 0 && score.failures.length === 0 && scored > 0
        ? 0
        : 1,
  };
}

/**
 * The candidate's place in each competition of a score run with a candidate (`runScore` with
 * `candidate`): its prompts, valid answers, mean CRPS, smoothed rank, score and reward weight at
 * the end, and at every validator update; the estimate of USD per day when `pool` is given.
 * @param score - the summary of the score run.
 * @param pool - the miners' pool in USD per day, or null for no estimate.
 * @param emissionFactor - the estimate's emission factor.
 * @example const [first] = candidateCompetitions(summary, null, EMISSION_FACTOR);
 */
export function candidateCompetitions(
  score: ScoreSummary,
  pool: number | null,
  emissionFactor: number,
): BacktestCompetition[] {
  const estimate = (weight: number | null) =>
    weight === null || pool === null ? null : weight * pool * emissionFactor;
  return score.competitions.map((competition): BacktestCompetition => {
    const candidate = competition.candidate;
    const placings = candidate?.prompts ?? [];
    const valid = placings.filter((placing) => placing.crps !== null);
    const crps = valid.map((placing) => placing.crps as number);
    const weight = candidate?.rewardWeight ?? null;
    const prompts = placings.length + (candidate?.promptsNotAnswered ?? 0);
    return {
      competition: competition.competition,
      prompts,
      valid: valid.length,
      invalid: prompts - valid.length,
      mean_crps: crps.length > 0 ? crps.reduce((sum, value) => sum + value, 0) / crps.length : null,
      rank: candidate?.smoothedRank ?? null,
      of: candidate?.of ?? 0,
      smoothed_score: candidate?.smoothedScore ?? null,
      reward_weight: weight,
      estimated_usd_per_day: estimate(weight),
      updates: (candidate?.trajectory ?? []).map((update) => ({
        updated_at: update.updatedAt,
        rank: update.rank,
        of: update.of,
        smoothed_score: update.smoothedScore,
        reward_weight: update.rewardWeight,
        estimated_usd_per_day: estimate(update.rewardWeight),
      })),
    };
  });
}
