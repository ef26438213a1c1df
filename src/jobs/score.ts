/**
 * The score job (`pathlab score`): scores miners' path sets exactly as the network's validator
 * does over a range of prompts, compares every number with the service's own, stores it all with
 * calibration, and places a candidate model among the miners.
 *
 * Over 300 lines: the job's steps (prompts, realized paths, scores, comparisons, smoothing, the
 * candidate) share one competition context and the per-prompt results, and read in order here.
 */

import { createClient } from "../client/create-client.ts";
import type { PathlabClient } from "../client/pathlab-client.ts";
import { pathSetFromPrediction } from "../paths/fromPrediction.ts";
import type { PathSet, PathSetAllocation } from "../paths/pathSet.ts";
import { PathSetError } from "../paths/pathSetError.ts";
import { promptScoreRuleAt, promptScores } from "../scoring/promptScores.ts";
import { rewardWeights } from "../scoring/rewardWeights.ts";
import type { MinerPromptScore } from "../scoring/scoringCall.ts";
import { ScoringPool } from "../scoring/scoringPool.ts";
import { competitionParameters } from "../scoring/scoringTarget.ts";
import { smoothedScores, type ScoredPrompt } from "../scoring/smoothedScores.ts";
import {
  COMPETITION_ASSETS,
  COMPETITION_HORIZONS,
  COMPETITIONS,
  PREDICTION_ASSETS,
  VALIDATION_ASSETS,
  type Competition,
} from "../spec/assets.ts";
import { ENSEMBLE_DAYS, HORIZON_LAYOUTS } from "../spec/insightConventions.ts";
import type { PredictionHistoricalParams } from "../spec/params.ts";
import type { LeaderboardV2Row } from "../spec/records/leaderboard.ts";
import type { RealizedPath, ScoreRow, SmoothedScoreRow } from "../spec/records/validation.ts";
import { parseIsoTimeMs } from "../spec/time.ts";
import { openStore, type Store } from "../store/openStore.ts";
import { finishRun, startRun } from "../store/runs.ts";
import { writeScoredPrompt, type MinerScoreEntry } from "../store/scoredPrompts.ts";
import { writeSmoothedScores, type SmoothedScoreEntry } from "../store/smoothedScoreRows.ts";
import { withoutSecrets } from "../store/withoutSecrets.ts";
import type { EmbeddedSandbox } from "./embeddedSandbox.ts";
import { JobInterruptedError } from "./jobInterruptedError.ts";
import { resolveService } from "./resolveService.ts";
import { DEFAULT_DATABASE } from "./jobDefaults.ts";
import { CANDIDATE_MINER_UID, readCandidateFolder, type CandidateFile } from "./scoreCandidate.ts";
import type {
  Agreement,
  CandidatePlacing,
  CandidateResult,
  CompetitionScores,
  ScoreDisagreement,
  ScoreEvent,
  ScoreLeaderboardRow,
  ScoreSummary,
} from "./scoreSummary.ts";
import { SyncUsageError } from "./syncUsageError.ts";

/**
 * Which miners to score: the first `top` of the competition's meta-leaderboard, these uids, or
 * (the default, `"all"`) every miner the service scored on each prompt.
 * @example const miners: MinerSelection = { top: 10 };
 */
export type MinerSelection =
  "all" | { readonly top: number } | { readonly uids: readonly number[] };

/**
 * Options of {@link runScore}.
 * @example const options: ScoreOptions = { from: "2026-11-20T10:00:00Z", to: "2026-11-21T11:00:00Z", competition: "crypto-1h" };
 */
export interface ScoreOptions {
  /** Prompts starting from this time (ISO 8601), inclusive. */
  readonly from: string;
  /** Prompts starting up to this time (ISO 8601), inclusive. */
  readonly to: string;
  /** One competition or `all` (default). */
  readonly competition?: Competition | "all";
  /** Only these assets (default every asset of the competitions). */
  readonly assets?: readonly string[];
  readonly miners?: MinerSelection;
  /** A folder of candidate prediction files (see `readCandidateFolder`). */
  readonly candidate?: string;
  readonly database?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** The embedded sandbox's clock (ISO 8601). */
  readonly now?: string;
  readonly seed?: number;
  /** Worker threads of the scoring pool (default: the machine's parallelism; 0 = this thread). */
  readonly threads?: number;
  readonly onEvent?: (event: ScoreEvent) => void;
  /**
   * Interrupts the job: requests in flight are cancelled, the prompt being written is rolled back,
   * the run is recorded as `interrupted`, and `runScore` rejects with a `JobInterruptedError`.
   */
  readonly signal?: AbortSignal;
}

/** Relative tolerance of an agreement (DOMAIN.md: validator-exact to ≤ 1e-9 relative). */
const RELATIVE_TOLERANCE = 1e-9;
/** Days of the meta-leaderboard that ranks miners for `--miners top:N`. */
const TOP_RANKING_DAYS = ENSEMBLE_DAYS;
/** The smoothed-scores operation allows at most 7 days; ask for the last 6. */
const SMOOTHED_LOOKBACK_SECONDS = 6 * 86400;
/** Why a selected miner has CRPS −1 when the service served it no path set. */
const NOT_SERVED = "no valid path set served for the prompt";

interface ScoredEntry {
  readonly minerUid: number;
  readonly score: MinerPromptScore | undefined;
  readonly crps: number;
  readonly reason: string | null;
}

interface PromptResult {
  readonly asset: string;
  readonly startUnix: number;
  readonly scored: ScoredPrompt;
  readonly candidateScored: ScoredPrompt | undefined;
  readonly network: readonly ScoredEntry[];
  /** The agreement of each network miner's CRPS and prompt score with the service's. */
  readonly verdicts: ReadonlyMap<number, Agreement>;
  readonly candidate: ScoredEntry | undefined;
  readonly candidateFile: CandidateFile | undefined;
}

/**
 * Runs `pathlab score`: for each competition, pulls the validator's prompts in [from, to] (those
 * already scored), their realized paths, the service's score rows and each selected miner's path
 * set; recomputes prompt CRPS (validator-exact, with calibration), prompt scores (over the
 * prompt's full pool: pathlab's CRPS for the selected miners, the service's for the others),
 * smoothed scores and reward weights at the service's latest update; compares each with the
 * service's; stores every prompt in one transaction; and places the candidate model. Throws
 * {@link SyncUsageError} for options that cannot work.
 * @example
 * const summary = await runScore({ from: "2026-11-20T10:00:00Z", to: "2026-11-21T11:00:00Z" });
 * summary.competitions[0].leaderboard[0].rank // => 1
 */
export async function runScore(options: ScoreOptions): Promise<ScoreSummary> {
  const started = performance.now();
  const fromUnix = timeOption("--from", options.from);
  const toUnix = timeOption("--to", options.to);
  if (toUnix < fromUnix) {
    throw new SyncUsageError(
      `score: --to: expected a time at or after --from (${options.from}), got ${options.to}`,
    );
  }
  const competitions: readonly Competition[] =
    options.competition === undefined || options.competition === "all"
      ? COMPETITIONS
      : [checkCompetition(options.competition)];
  checkAssets(options.assets, competitions);
  checkMiners(options.miners ?? "all");
  if (options.baseUrl !== undefined && (options.apiKey === undefined || options.apiKey === "")) {
    throw new SyncUsageError(
      "score: a service (--base-url or PATHLAB_BASE_URL) needs an API key: pass --api-key or set PATHLAB_API_KEY",
    );
  }
  if (options.baseUrl !== undefined && (options.now !== undefined || options.seed !== undefined)) {
    throw new SyncUsageError(
      "score: --now and --seed set the embedded sandbox; they cannot be used with a service (--base-url)",
    );
  }
  const candidateFiles =
    options.candidate === undefined ? [] : await readCandidateFolder(options.candidate);
  const database = options.database ?? DEFAULT_DATABASE;
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  const store = await openStore(database);
  let sandbox: EmbeddedSandbox | undefined;
  let client: PathlabClient | undefined;
  const pool = new ScoringPool(options.threads === undefined ? {} : { threads: options.threads });
  try {
    const resolved = await resolveService(options, secrets);
    sandbox = resolved.sandbox;
    const { apiKey } = resolved;
    const service: ScoreSummary["service"] = resolved.service;
    const nowUnix = resolved.clockUnix ?? Math.floor(Date.now() / 1000);
    client = createClient({
      maxRetries: 4,
      concurrency: 8,
      baseUrl: service.baseUrl,
      apiKey,
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    const run = await startRun(store, {
      command: "score",
      args: {
        from: options.from,
        to: options.to,
        competitions,
        assets: options.assets ?? null,
        miners: options.miners ?? "all",
        candidate: options.candidate ?? null,
        database,
        service,
      },
      secrets,
      startedAtUnix: Date.now() / 1000,
    });
    const disagreements: ScoreDisagreement[] = [];
    const counts = { agree: 0, disagree: 0, notCompared: 0 };
    const tally = (verdict: Agreement, disagreement: () => ScoreDisagreement) => {
      if (verdict === "agree") counts.agree++;
      else if (verdict === "not compared") counts.notCompared++;
      else {
        counts.disagree++;
        disagreements.push(disagreement());
      }
    };
    const context: CompetitionContext = {
      client,
      store,
      pool,
      runId: run.id,
      fromUnix,
      toUnix,
      nowUnix,
      assets: options.assets,
      miners: options.miners ?? "all",
      candidateFiles,
      tally,
      emit: (event) => options.onEvent?.(event),
      signal: options.signal,
    };
    const results: CompetitionScores[] = [];
    try {
      for (const competition of competitions) {
        results.push(await scoreCompetition(context, competition));
      }
    } catch (error) {
      const interrupted = options.signal?.aborted === true;
      const reason = interrupted
        ? "interrupted (SIGINT)"
        : error instanceof Error
          ? error.message
          : String(error);
      await finishRun(store, run, {
        status: interrupted ? "interrupted" : "failed",
        failures: [...disagreements, { reason }],
      });
      if (!interrupted) throw error;
      throw new JobInterruptedError(
        `score: interrupted; the prompts scored until then are stored (run ${run.id})`,
        { cause: error },
      );
    }
    const rejectedCandidateFiles = candidateFiles
      .filter((file) => file.reason !== undefined)
      .map((file) => ({ file: file.file, reason: file.reason as string }));
    const exitCode = counts.disagree === 0 ? 0 : 1;
    await finishRun(store, run, {
      status: exitCode === 0 ? "ok" : "partial",
      failures: disagreements,
    });
    return withoutSecrets(
      {
        command: "score",
        runId: run.id,
        database,
        service,
        from: options.from,
        to: options.to,
        durationMs: Math.round(performance.now() - started),
        competitions: results,
        agreement: counts,
        disagreements,
        rejectedCandidateFiles,
        exitCode,
      },
      secrets,
    ) as ScoreSummary;
  } finally {
    await pool.close();
    await client?.close();
    await sandbox?.close();
    await store.close();
  }
}

interface CompetitionContext {
  readonly client: PathlabClient;
  readonly store: Store;
  readonly pool: ScoringPool;
  readonly runId: number;
  readonly fromUnix: number;
  readonly toUnix: number;
  readonly nowUnix: number;
  readonly assets: readonly string[] | undefined;
  readonly miners: MinerSelection;
  readonly candidateFiles: readonly CandidateFile[];
  readonly tally: (verdict: Agreement, disagreement: () => ScoreDisagreement) => void;
  readonly emit: (event: ScoreEvent) => void;
  readonly signal: AbortSignal | undefined;
}

async function scoreCompetition(
  context: CompetitionContext,
  competition: Competition,
): Promise<CompetitionScores> {
  const { client } = context;
  const parameters = competitionParameters(competition);
  const horizon = COMPETITION_HORIZONS[competition];
  const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[horizon];
  const timeLength = horizonMinutes * 60;
  const validation = new Set<string>(VALIDATION_ASSETS);
  const assets = (COMPETITION_ASSETS[competition] as readonly string[]).filter(
    (asset) =>
      validation.has(asset) && (context.assets === undefined || context.assets.includes(asset)),
  );
  const shape = {
    time_increment: timeIncrement as 300,
    time_length: timeLength as 86400,
  };
  // The prompts of the range, with the service's score rows (by scored time = start + length).
  const planned: { asset: string; startUnix: number; rows: ScoreRow[] }[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  for (const asset of assets) {
    const validationAsset = asset as "BTC";
    const { start_times: starts } = await client.request("/validation/prompts", {
      from: isoOf(context.fromUnix),
      to: isoOf(context.toUnix),
      asset: validationAsset,
      ...shape,
    });
    const rowsByStart = new Map<number, ScoreRow[]>();
    const scoredUntil = Math.min(context.toUnix + timeLength, context.nowUnix);
    if (scoredUntil >= context.fromUnix + timeLength) {
      const rows = await client.request("/validation/scores/historical", {
        from: isoOf(context.fromUnix + timeLength),
        to: isoOf(scoredUntil),
        asset: validationAsset,
        ...shape,
      });
      for (const row of rows) {
        if (row.time_length !== timeLength) continue;
        const start = parseIsoTimeMs(row.scored_time) / 1000 - timeLength;
        const list = rowsByStart.get(start) ?? [];
        list.push(row);
        rowsByStart.set(start, list);
      }
    }
    for (const start of starts) {
      const startUnix = parseIsoTimeMs(start) / 1000;
      const rows = rowsByStart.get(startUnix) ?? [];
      if (startUnix + timeLength > context.nowUnix) {
        skip("not scored yet");
      } else if (rows.length === 0 && context.miners === "all") {
        skip("no score rows at the service");
      } else {
        planned.push({ asset, startUnix, rows });
      }
    }
  }
  planned.sort(
    (first, second) => first.startUnix - second.startUnix || compareText(first.asset, second.asset),
  );
  context.emit({ type: "plan", competition, prompts: planned.length });
  let ranked: readonly number[] | undefined;
  if (typeof context.miners === "object" && "top" in context.miners) {
    const rows = await client.request("/v2/meta-leaderboard/latest", {
      days: TOP_RANKING_DAYS,
      prompt_name: competition,
    });
    ranked = rows.slice(0, context.miners.top).map((row) => row.neuron_uid);
  } else if (typeof context.miners === "object") {
    ranked = context.miners.uids;
  }
  const results: PromptResult[] = [];
  for (const [index, prompt] of planned.entries()) {
    const result = await scoreOnePrompt(context, competition, prompt, ranked, {
      timeIncrement,
      timeLength,
    });
    results.push(result);
    context.emit({
      type: "prompt",
      competition,
      asset: prompt.asset,
      startTime: isoOf(prompt.startUnix),
      done: index + 1,
      of: planned.length,
      miners: result.network.length,
    });
  }
  // Smoothed scores and reward weights at the service's latest update in the range.
  const asOfLimit = Math.min(context.toUnix + timeLength, context.nowUnix);
  const serviceRows = await client.request("/validation/smoothed-scores", {
    from: isoOf(Math.max(asOfLimit - SMOOTHED_LOOKBACK_SECONDS, context.fromUnix)),
    to: isoOf(asOfLimit),
    competition,
  });
  const latestUpdate = serviceRows.reduce(
    (latest, row) => Math.max(latest, parseIsoTimeMs(row.updated_at) / 1000),
    -Infinity,
  );
  const asOfUnix = Number.isFinite(latestUpdate) ? latestUpdate : asOfLimit;
  const serviceAtUpdate = new Map<number, SmoothedScoreRow>();
  for (const row of serviceRows) {
    if (parseIsoTimeMs(row.updated_at) / 1000 === asOfUnix) serviceAtUpdate.set(row.miner_uid, row);
  }
  const validatorPrompts = results.filter((result) => result.scored.minerScores.length > 0);
  const smoothed = finiteOnly(
    smoothedScores(
      validatorPrompts.map((result) => result.scored),
      { competition, now: asOfUnix },
    ),
  );
  const weights = rewardWeights(smoothed, {
    beta: parameters.softmaxBeta,
    share: parameters.rewardShare,
  });
  const missing = await promptsMissingFromWindow(
    client,
    competition,
    asOfUnix,
    parameters.windowDays,
    validatorPrompts,
    { timeIncrement, timeLength },
  );
  const leaderboardAtUpdate = new Map<number, LeaderboardV2Row>();
  if (missing === 0) {
    const leaderboard = await client.request("/v2/leaderboard/latest", {
      prompt_name: competition,
    });
    for (const row of leaderboard) {
      if (parseIsoTimeMs(row.updated_at) / 1000 === asOfUnix)
        leaderboardAtUpdate.set(row.neuron_uid, row);
    }
  } else {
    // The smoothed scores pool every prompt of the window: with some missing they cannot agree.
    serviceAtUpdate.clear();
  }
  const selected = new Set(
    results.flatMap((result) => result.network.map((entry) => entry.minerUid)),
  );
  const rows = leaderboardRows(
    results,
    smoothed,
    weights,
    serviceAtUpdate,
    leaderboardAtUpdate,
    selected,
  );
  for (const row of rows) {
    const where = `${competition} smoothed at ${isoOf(asOfUnix)}`;
    context.tally(row.agreement, () => ({
      what: "smoothed score / reward weight",
      where,
      minerUid: row.minerUid,
      ours: row.smoothedScore,
      service: row.serviceSmoothedScore,
    }));
  }
  const candidate = candidateResult(results, competition, asOfUnix, smoothed);
  const stored: SmoothedScoreEntry[] = rows.map((row) => ({
    source: "network",
    minerUid: row.minerUid,
    smoothedScore: row.smoothedScore,
    rewardWeight: row.rewardWeight,
    serviceSmoothedScore: row.serviceSmoothedScore,
    serviceRewardWeight: row.serviceRewardWeight,
    verdict: row.agreement,
  }));
  if (candidate?.smoothedScore !== undefined && candidate.smoothedScore !== null) {
    stored.push({
      source: "candidate",
      minerUid: CANDIDATE_MINER_UID,
      smoothedScore: candidate.smoothedScore,
      rewardWeight: null,
      serviceSmoothedScore: null,
      serviceRewardWeight: null,
      verdict: "not compared",
    });
  }
  await writeSmoothedScores(context.store, competition, asOfUnix, stored, context.runId);
  return {
    competition,
    intervals: parameters.scoringIntervals,
    timeIncrement,
    timeLength,
    asOf: Number.isFinite(latestUpdate) ? isoOf(asOfUnix) : null,
    windowPromptsMissing: missing,
    promptsScored: results.length,
    promptsSkipped: skipped,
    promptsWithoutPathSets: results.filter(
      (result) => !(PREDICTION_ASSETS as readonly string[]).includes(result.asset),
    ).length,
    leaderboard: rows,
    candidate,
  };
}

async function scoreOnePrompt(
  context: CompetitionContext,
  competition: Competition,
  prompt: { asset: string; startUnix: number; rows: ScoreRow[] },
  ranked: readonly number[] | undefined,
  layout: { timeIncrement: number; timeLength: number },
): Promise<PromptResult> {
  const { client } = context;
  const { asset, startUnix, rows } = prompt;
  const { timeIncrement, timeLength } = layout;
  const where = `${competition} ${asset} ${isoOf(startUnix)}`;
  const realized: RealizedPath = await client.request("/validation/realized-path", {
    start_time: isoOf(startUnix),
    asset: asset as "BTC",
    time_increment: timeIncrement as 300,
    time_length: timeLength as 86400,
  });
  // Assets without path sets at the prediction operations are checked on the service's CRPS only.
  const served = (PREDICTION_ASSETS as readonly string[]).includes(asset);
  const minerUids = served ? (ranked ?? rows.map((row) => row.miner_uid)) : [];
  // In shared memory when the pool has workers: they read the prices in place, without the
  // calling thread copying 2.3 MB per 24h miner into shared memory first.
  const allocation = { shared: context.pool.threads > 0 };
  const fetched = await Promise.all(
    minerUids.map((minerUid) =>
      fetchPathSet(client, { asset, startUnix, timeIncrement, timeLength, minerUid }, allocation),
    ),
  );
  const valid = fetched.filter((entry): entry is PathSet => typeof entry !== "string");
  const target = { competition };
  const scores = await context.pool.scoreMiners(valid, realized, target, { calibration: true });
  const scoreOf = new Map(scores.map((score) => [score.minerUid, score]));
  const serviceRow = new Map(rows.map((row) => [row.miner_uid, row]));
  // A selected miner the service did not score and that served no path set was not queried.
  const network: ScoredEntry[] = minerUids
    .map((minerUid, index) => {
      const score = scoreOf.get(minerUid);
      const answer = fetched[index];
      return {
        minerUid,
        score,
        crps: score?.crps ?? -1,
        reason:
          typeof answer === "string"
            ? answer
            : (score?.invalidReason ?? (score?.crps === -1 ? "non-finite CRPS" : null)),
      };
    })
    .filter(
      (entry) => rows.length === 0 || serviceRow.has(entry.minerUid) || entry.score !== undefined,
    );
  // The prompt's pool: every miner the service scored, pathlab's CRPS where it has one (only the
  // selected miners when the service has no rows for the prompt).
  const own = new Map(network.map((entry) => [entry.minerUid, entry.crps]));
  const poolUids = rows.length > 0 ? rows.map((row) => row.miner_uid) : [...minerUids];
  const raw = poolUids.map(
    (minerUid) => own.get(minerUid) ?? (serviceRow.get(minerUid)?.crps as number),
  );
  const scoredTimeUnix = startUnix + timeLength;
  const rule = promptScoreRuleAt(scoredTimeUnix);
  const pooled = promptScores(raw, { rule });
  const promptScoreOf = new Map(
    poolUids.map((minerUid, index) => [minerUid, pooled?.scores[index] ?? Number.NaN]),
  );
  const scored: ScoredPrompt = {
    scoredTimeUnix,
    asset,
    worstScore: pooled?.worstScore ?? Number.NaN,
    minerScores:
      rows.length === 0 || pooled === null
        ? []
        : poolUids.map((minerUid) => ({ minerUid, promptScore: promptScoreOf.get(minerUid)! })),
  };
  const entries: MinerScoreEntry[] = network.map((entry) => {
    const service = serviceRow.get(entry.minerUid);
    const promptScore = promptScoreOf.get(entry.minerUid) ?? null;
    const crpsVerdict = agreementOf(entry.crps, service?.crps ?? null, 1e-9);
    const scoreVerdict = agreementOf(promptScore, service?.prompt_score ?? null, 1e-9);
    context.tally(crpsVerdict, () => ({
      what: "prompt CRPS",
      where,
      minerUid: entry.minerUid,
      ours: entry.crps,
      service: service?.crps ?? null,
    }));
    context.tally(scoreVerdict, () => ({
      what: "prompt score",
      where,
      minerUid: entry.minerUid,
      ours: promptScore,
      service: service?.prompt_score ?? null,
    }));
    return {
      source: "network",
      minerUid: entry.minerUid,
      crps: entry.crps,
      intervals: entry.score?.intervals ?? {},
      promptScore,
      invalidReason: entry.reason,
      serviceCrps: service?.crps ?? null,
      servicePromptScore: service?.prompt_score ?? null,
      verdict: combined([crpsVerdict, scoreVerdict]),
      calibration: entry.score?.calibration,
    };
  });
  // The candidate, had it competed on this prompt.
  const candidateFile = context.candidateFiles.find(
    (file) =>
      file.asset === asset &&
      file.startTimeUnix === startUnix &&
      file.timeIncrement === timeIncrement &&
      file.timeLength === timeLength,
  );
  let candidate: ScoredEntry | undefined;
  let candidateScored: ScoredPrompt | undefined;
  if (candidateFile !== undefined) {
    let score: MinerPromptScore | undefined;
    if (candidateFile.pathSet !== undefined) {
      [score] = await context.pool.scoreMiners([candidateFile.pathSet], realized, target, {
        calibration: true,
      });
    }
    candidate = {
      minerUid: CANDIDATE_MINER_UID,
      score,
      crps: score?.crps ?? -1,
      reason: candidateFile.reason ?? score?.invalidReason ?? null,
    };
    const withCandidate = promptScores([...raw, candidate.crps], { rule });
    if (withCandidate !== null && scored.minerScores.length > 0) {
      candidateScored = {
        scoredTimeUnix,
        asset,
        worstScore: withCandidate.worstScore,
        minerScores: [...poolUids, CANDIDATE_MINER_UID].map((minerUid, index) => ({
          minerUid,
          promptScore: withCandidate.scores[index],
        })),
      };
    }
    entries.push({
      source: "candidate",
      minerUid: CANDIDATE_MINER_UID,
      crps: candidate.crps,
      intervals: score?.intervals ?? {},
      promptScore: withCandidate?.scores.at(-1) ?? null,
      invalidReason: candidate.reason,
      serviceCrps: null,
      servicePromptScore: null,
      verdict: "not compared",
      calibration: score?.calibration,
    });
  }
  await writeScoredPrompt(
    context.store,
    {
      asset,
      timeIncrement,
      timeLength,
      startTimeUnix: startUnix,
      competition,
      scoreRule: rule,
      realizedPrices: realized.real_prices,
      serviceRows: rows,
      minerScores: entries,
    },
    context.runId,
    context.signal,
  );
  const verdicts = new Map(entries.map((entry) => [entry.minerUid, entry.verdict as Agreement]));
  return { asset, startUnix, scored, candidateScored, network, verdicts, candidate, candidateFile };
}

/**
 * How many prompts the service scored in the smoothed window ending at `asOfUnix` (every asset of
 * the competition) are not among `scored`: 0 when the smoothed scores can be compared.
 */
async function promptsMissingFromWindow(
  client: PathlabClient,
  competition: Competition,
  asOfUnix: number,
  windowDays: number,
  scored: readonly PromptResult[],
  layout: { timeIncrement: number; timeLength: number },
): Promise<number> {
  const have = new Set(scored.map((result) => `${result.asset}|${result.scored.scoredTimeUnix}`));
  const validation = new Set<string>(VALIDATION_ASSETS);
  let missing = 0;
  for (const asset of COMPETITION_ASSETS[competition] as readonly string[]) {
    if (!validation.has(asset)) continue;
    const rows = await client.request("/validation/scores/historical", {
      from: isoOf(asOfUnix - windowDays * 86400 + 1),
      to: isoOf(asOfUnix),
      asset: asset as "BTC",
      time_increment: layout.timeIncrement as 300,
      time_length: layout.timeLength as 86400,
    });
    const times = new Set(rows.map((row) => parseIsoTimeMs(row.scored_time) / 1000));
    for (const time of times) if (!have.has(`${asset}|${time}`)) missing++;
  }
  return missing;
}

async function fetchPathSet(
  client: PathlabClient,
  prompt: {
    asset: string;
    startUnix: number;
    timeIncrement: number;
    timeLength: number;
    minerUid: number;
  },
  allocation: PathSetAllocation,
): Promise<PathSet | string> {
  const params: PredictionHistoricalParams = {
    asset: prompt.asset as PredictionHistoricalParams["asset"],
    time_increment: prompt.timeIncrement as PredictionHistoricalParams["time_increment"],
    time_length: prompt.timeLength as PredictionHistoricalParams["time_length"],
    start_time: isoOf(prompt.startUnix),
    miner: [prompt.minerUid],
  };
  const sets = await client.request("/v2/prediction/historical", params);
  const set = sets.find((candidate) => candidate.miner_uid === prompt.minerUid);
  if (set === undefined) return NOT_SERVED;
  if (set.start_time !== prompt.startUnix) {
    return `start_time: expected ${prompt.startUnix} (the prompt's start), got ${set.start_time}`;
  }
  try {
    return pathSetFromPrediction(
      set,
      { asset: prompt.asset, timeIncrement: prompt.timeIncrement, timeLength: prompt.timeLength },
      allocation,
    );
  } catch (error) {
    if (error instanceof PathSetError) return error.message;
    throw error;
  }
}

function leaderboardRows(
  results: readonly PromptResult[],
  smoothed: ReadonlyMap<number, number>,
  weights: ReadonlyMap<number, number>,
  service: ReadonlyMap<number, SmoothedScoreRow>,
  leaderboard: ReadonlyMap<number, LeaderboardV2Row>,
  selected: ReadonlySet<number>,
): ScoreLeaderboardRow[] {
  const uids = new Set<number>([...smoothed.keys(), ...service.keys()]);
  const rows = [...uids]
    .filter((minerUid) => selected.has(minerUid))
    .map((minerUid) => {
      const own = results.flatMap((result) =>
        result.network.filter((entry) => entry.minerUid === minerUid),
      );
      const agreeing = results.filter((result) => result.verdicts.get(minerUid) === "agree").length;
      const valid = own.filter((entry) => entry.crps !== -1);
      let covered = 0;
      let observed = 0;
      for (const entry of own) {
        const calibration = entry.score?.calibration;
        if (calibration === undefined) continue;
        const level = calibration.levels.indexOf(0.9);
        if (level < 0) continue;
        covered += calibration.coveredCounts[level];
        observed += calibration.observedPoints;
      }
      const smoothedScore = smoothed.get(minerUid) ?? null;
      const rewardWeight = smoothedScore === null ? null : (weights.get(minerUid) ?? 0);
      const serviceRow = service.get(minerUid);
      const leaderboardRow = leaderboard.get(minerUid);
      const verdicts = [
        agreementOf(smoothedScore, serviceRow?.smoothed_score ?? null, 1e-9),
        agreementOf(rewardWeight, serviceRow?.reward_weight ?? null, 1e-15),
        agreementOf(rewardWeight, leaderboardRow?.rewards ?? null, 1e-15),
      ];
      return {
        rank: 0,
        minerUid,
        smoothedScore,
        rewardWeight,
        serviceSmoothedScore: serviceRow?.smoothed_score ?? null,
        serviceRewardWeight: serviceRow?.reward_weight ?? null,
        leaderboardRewards: leaderboardRow?.rewards ?? null,
        meanCrps:
          valid.length === 0
            ? null
            : valid.reduce((sum, entry) => sum + entry.crps, 0) / valid.length,
        coverage90: observed === 0 ? null : covered / observed,
        prompts: own.length,
        promptsAgreeing: agreeing,
        agreement: combined(verdicts),
      };
    });
  rows.sort(
    (first, second) =>
      (second.rewardWeight ?? -1) - (first.rewardWeight ?? -1) ||
      (first.smoothedScore ?? Infinity) - (second.smoothedScore ?? Infinity) ||
      first.minerUid - second.minerUid,
  );
  return rows.map((row, index) => ({ ...row, rank: index + 1 }));
}

function candidateResult(
  results: readonly PromptResult[],
  competition: Competition,
  asOfUnix: number,
  smoothed: ReadonlyMap<number, number>,
): CandidateResult | undefined {
  const answered = results.filter((result) => result.candidateFile !== undefined);
  if (answered.length === 0) return undefined;
  const prompts: CandidatePlacing[] = answered.map((result) => {
    const candidate = result.candidate as ScoredEntry;
    const others = result.network.map((entry) => entry.crps).filter((crps) => crps !== -1);
    const valid = candidate.crps !== -1;
    return {
      asset: result.asset,
      startTime: isoOf(result.startUnix),
      file: (result.candidateFile as CandidateFile).file,
      crps: valid ? candidate.crps : null,
      rank: valid ? 1 + others.filter((crps) => crps < candidate.crps).length : null,
      of: result.network.length + 1,
      reason: candidate.reason ?? undefined,
    };
  });
  // Smoothed: every prompt with the candidate in its pool where it answered, as scored otherwise.
  const withCandidate = results
    .filter((result) => result.scored.minerScores.length > 0)
    .map((result) => result.candidateScored ?? result.scored);
  const candidateSmoothed = smoothedScores(withCandidate, { competition, now: asOfUnix }).get(
    CANDIDATE_MINER_UID,
  );
  const finite = candidateSmoothed !== undefined && Number.isFinite(candidateSmoothed);
  return {
    prompts,
    smoothedScore: finite ? candidateSmoothed : null,
    smoothedRank: finite
      ? 1 + [...smoothed.values()].filter((score) => score < candidateSmoothed).length
      : null,
    of: smoothed.size + 1,
  };
}

/**
 * Whether `ours` equals `service` within {@link RELATIVE_TOLERANCE} relative (or `absolute`).
 */
function agreementOf(ours: number | null, service: number | null, absolute: number): Agreement {
  if (service === null) return "not compared";
  if (ours === null) return "disagree";
  if (ours === service) return "agree";
  const difference = Math.abs(ours - service);
  const scale = Math.max(Math.abs(ours), Math.abs(service));
  return difference <= RELATIVE_TOLERANCE * scale || difference <= absolute ? "agree" : "disagree";
}

function combined(verdicts: readonly Agreement[]): Agreement {
  if (verdicts.includes("disagree")) return "disagree";
  if (verdicts.includes("agree")) return "agree";
  return "not compared";
}

function finiteOnly(scores: ReadonlyMap<number, number>): Map<number, number> {
  return new Map([...scores].filter(([, score]) => Number.isFinite(score)));
}

function timeOption(name: string, text: string): number {
  const milliseconds = parseIsoTimeMs(text);
  if (Number.isNaN(milliseconds)) {
    throw new SyncUsageError(
      `score: ${name}: expected an ISO 8601 time such as 2026-02-25T23:47:00Z, got ${JSON.stringify(text)}`,
    );
  }
  return Math.floor(milliseconds / 1000);
}

function checkCompetition(name: string): Competition {
  if (!(COMPETITIONS as readonly string[]).includes(name)) {
    throw new SyncUsageError(
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
      throw new SyncUsageError(
        `score: --assets: expected assets of ${competitions.join(", ")} (${[...known].join(", ")}), got ${JSON.stringify(asset)}`,
      );
    }
  }
}

function checkMiners(miners: MinerSelection): void {
  if (miners === "all") return;
  if ("top" in miners) {
    if (!Number.isInteger(miners.top) || miners.top < 1) {
      throw new SyncUsageError(`score: --miners: expected top:N with N ≥ 1, got top:${miners.top}`);
    }
    return;
  }
  if (miners.uids.length === 0 || miners.uids.some((uid) => !Number.isInteger(uid) || uid < 0)) {
    throw new SyncUsageError(
      `score: --miners: expected uids (whole numbers ≥ 0), got ${miners.uids.join(",")}`,
    );
  }
}

function isoOf(unix: number): string {
  return new Date(unix * 1000).toISOString().replace(".000Z", "Z");
}

function compareText(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}
