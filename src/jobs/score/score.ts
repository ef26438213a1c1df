/**
 * The score job (`pathlab score`): benchmarks miners over a range of prompts exactly as the
 * network's validator does, compares every number with the service's own, stores it all with
 * calibration and rank history, and places a candidate model among the miners as one more miner.
 * The stages live in `score/`: prompts (`rangePrompts`) → pool and prompt scores
 * (`scorePromptPool`) → stored (`storePrompt`) → updates (`rankOverTime`) → comparison
 * (`serviceComparison`), one competition at a time (`scoreCompetition`).
 */

import { createClient } from "../../client/create-client.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { availableParallelism } from "node:os";
import { ScoringThreads } from "../../scoring/scoringThreads.ts";
import { UnitPool } from "../harness/unitPool.ts";
import { LIVE_PATHS } from "../../domain/default-paths.ts";
import { openStore, type Store } from "../../store/openStore.ts";
import { finishRun, startRun, type Run } from "../../store/runs.ts";
import { withoutSecrets } from "../../store/withoutSecrets.ts";
import type { EmbeddedSandbox } from "../../service/embeddedSandbox.ts";
import {
  beginRecording,
  prepareRecordReplay,
  recordReplaySummary,
} from "../../service/recordReplay.ts";
import type { ReplayServer } from "../../service/replay.ts";
import { JobInterruptedError } from "../harness/interruptedError.ts";
import { DEFAULT_DATABASE, DEFAULT_UNIT_DEADLINE_MS } from "../harness/defaults.ts";
import { resolveService, secretsOf } from "../../service/resolveService.ts";
import { readCandidateFolder } from "./candidate.ts";
import type { CompetitionScores, ScoreFailure, ScoreSummary } from "./summary.ts";
import { UsageError } from "../../service/usageError.ts";
import { AgreementTally } from "./agreement.ts";
import { matchCandidateFiles } from "./candidateMatch.ts";
import { fetchMinerKeys, minerKeysSpan } from "./minerKeys.ts";
import { planRange } from "./rangePrompts.ts";
import { scoreCompetition, type JobContext } from "./scoreCompetition.ts";
import { lakeOutput } from "./lakeOutput.ts";
import { dataOf, isLiveNaming, unitPoolThreads } from "../../service/clientData.ts";
import { storedPromptKeys, withoutStored } from "./storedPrompts.ts";
import { checkScoreOptions, type ScoreOptions } from "./options.ts";
import { smoothedScoresSelector } from "./serviceComparison.ts";

export type { MinerSelection, ScoreOptions } from "./options.ts";

/**
 * Runs `pathlab score`: for each competition in force over [from, to] (the validator's era
 * table), pulls the validator's prompts (those already scored) with the service's score rows;
 * recomputes each selected miner's prompt CRPS from its path set where it can (the service's CRPS
 * where the path set is not available, and for every miner with `ownOnly`), the candidate's from
 * its file (−1 for an invalid file, the fill where it did not answer), the prompt scores over
 * the prompt's full pool, smoothed scores and reward weights at every update of the range (miners
 * keyed by hotkey) and at the service's latest update, compared with the service's; stores every
 * prompt in one transaction. Throws `UsageError` for options that cannot work.
 * @example
 * const summary = await runScore({ from: "2026-11-20T10:00:00Z", to: "2026-11-21T11:00:00Z" });
 * summary.competitions[0].leaderboard[0].rank // => 1
 */
export async function runScore(options: ScoreOptions): Promise<ScoreSummary> {
  const started = performance.now();
  const secrets = secretsOf(options.apiKey);
  const {
    recorder,
    recording,
    client: deployment,
  } = await prepareRecordReplay("score", options, secrets);
  // A replay of a service's recording asks what that run asked: own-only by the same default.
  const replayOfService = recording?.info.service.kind === "service";
  const checked = checkScoreOptions(
    replayOfService && options.ownOnly === undefined
      ? { ...options, ownOnly: (options.miners ?? "all") === "all" }
      : options,
  );
  const { fromUnix, toUnix } = checked;
  const eraSettings = options.eraSettings ?? {};
  const candidateFiles =
    options.candidate === undefined ? [] : await readCandidateFolder(options.candidate);
  if (options.lake !== undefined && options.database !== undefined) {
    throw new UsageError("score: --lake and --db name two places to write; give one");
  }
  const database = options.lake === undefined ? (options.database ?? DEFAULT_DATABASE) : ":memory:";
  const store = await openStore(database);
  let sandbox: EmbeddedSandbox | undefined;
  let replay: ReplayServer | undefined;
  let client: PathlabClient | undefined;
  const threads = options.threads ?? availableParallelism();
  const units = new UnitPool(unitPoolThreads(threads, options.client, recorder !== undefined));
  // Without the unit pool, one prompt's miners are spread over the threads instead.
  const scoringThreads =
    units.threads === 0 && threads > 0 ? new ScoringThreads(threads) : undefined;
  try {
    const resolved = await resolveService({ ...options, client: deployment }, secrets, recording);
    ({ sandbox, replay } = resolved);
    const service: ScoreSummary["service"] = resolved.service;
    const nowUnix = resolved.clockUnix ?? Math.floor(Date.now() / 1000);
    const live = deployment.naming !== undefined && isLiveNaming(deployment.naming);
    const paths = { ...(live ? LIVE_PATHS : {}), ...deployment.paths };
    await beginRecording(recorder, {
      service,
      clockUnix: nowUnix,
      naming: deployment.naming,
      paths,
    });
    try {
      client = createClient({
        maxRetries: 4,
        concurrency: 8,
        ...options.client,
        ...deployment,
        baseUrl: service.baseUrl,
        apiKey: resolved.apiKey,
        paths,
        ...(recorder !== undefined && { onExchange: recorder.onExchange }),
        ...(options.signal !== undefined && { signal: options.signal }),
      });
    } catch (error) {
      // The caller's naming or paths: the other options were checked before.
      if (error instanceof TypeError) throw new UsageError(`score: ${error.message}`);
      throw error;
    }
    const run = await startRun(store, {
      command: "score",
      args: {
        from: options.from,
        to: options.to,
        competitions: checked.competitions,
        assets: options.assets ?? null,
        miners: checked.miners,
        ownOnly: checked.ownOnly,
        candidate: options.candidate ?? null,
        database,
        service,
        eraSettings,
        ...(options.replay !== undefined && { replay: options.replay }),
      },
      secrets,
      startedAtUnix: Date.now() / 1000,
    });
    const tally = new AgreementTally();
    const failures: ScoreFailure[] = [];
    const results: CompetitionScores[] = [];
    let unmatched: { file: string; reason: string }[] = [];
    let alreadyStored = 0;
    try {
      let planned = await planRange(client, checked, {
        nowUnix,
        assets: options.assets,
        settings: eraSettings,
      });
      const matches = matchCandidateFiles(candidateFiles, planned, { fromUnix, toUnix });
      unmatched = [...matches.unmatched];
      // Candidate files are matched over the whole range: a stored prompt's file is no stray.
      if (options.skipStored === true) {
        const stored = await storedPromptKeys(store, options.lake);
        ({ fresh: planned, alreadyStored } = withoutStored(planned, stored));
      }
      const span = minerKeysSpan(fromUnix, toUnix, nowUnix);
      const keys = await fetchMinerKeys(client, span.fromUnix, span.toUnix);
      const smoothedParams = smoothedScoresSelector(live);
      const context: JobContext = {
        client,
        store,
        scoringThreads,
        keys,
        runId: run.id,
        fromUnix,
        toUnix,
        nowUnix,
        miners: checked.miners,
        ownOnly: checked.ownOnly,
        eraSettings,
        smoothedParams,
        matches,
        tally,
        failures,
        emit: (event) => options.onEvent?.(event),
        signal: options.signal,
        unitDeadlineMs: options.unitDeadlineMs ?? DEFAULT_UNIT_DEADLINE_MS,
        ...(options.lake !== undefined && { afterStore: lakeOutput(options.lake, store) }),
        units:
          units.threads === 0
            ? undefined
            : {
                pool: units,
                client: {
                  maxRetries: 4,
                  ...dataOf(options.client),
                  ...dataOf(deployment),
                  // The run's 8 requests in flight, shared among the threads' clients.
                  concurrency: Math.max(1, Math.ceil(8 / units.threads)),
                  baseUrl: service.baseUrl,
                  apiKey: resolved.apiKey,
                  paths,
                },
              },
      };
      for (const { competition, prompts } of planned) {
        results.push(await scoreCompetition(context, competition, prompts));
      }
    } catch (error) {
      return await failedRun(store, run, tally, error, options.signal);
    }
    const rejectedCandidateFiles = candidateFiles
      .filter((file) => file.reason !== undefined)
      .map((file) => ({ file: file.file, reason: file.reason as string }));
    const exitCode =
      tally.counts.disagree === 0 && unmatched.length === 0 && failures.length === 0 ? 0 : 1;
    await finishRun(store, run, {
      status: exitCode === 0 ? "ok" : "partial",
      failures: [...failures, ...tally.disagreements, ...unmatched],
    });
    return withoutSecrets(
      {
        command: "score",
        runId: run.id,
        database,
        ...(options.lake !== undefined && { lake: options.lake }),
        service,
        from: options.from,
        to: options.to,
        durationMs: Math.round(performance.now() - started),
        competitions: results,
        agreement: tally.counts,
        disagreements: tally.disagreements,
        failures,
        ownOnly: checked.ownOnly,
        ...(options.skipStored === true && { promptsAlreadyStored: alreadyStored }),
        rejectedCandidateFiles,
        unmatchedCandidateFiles: unmatched,
        exitCode,
        ...(await recordReplaySummary(recorder, replay)),
      },
      secrets,
    ) as ScoreSummary;
  } finally {
    await units.close();
    await scoringThreads?.close();
    await client?.close();
    await sandbox?.close();
    await replay?.close();
    await recorder?.finish().catch(() => {}); // its failure, if any, was reported above
    await store.close();
  }
}

/**
 * Records how a run that threw ended (`interrupted` when `signal` aborted it, else `failed`, with
 * the disagreements so far and the reason) and rethrows: a `JobInterruptedError` for Ctrl-C.
 */
async function failedRun(
  store: Store,
  run: Run,
  tally: AgreementTally,
  error: unknown,
  signal: AbortSignal | undefined,
): Promise<never> {
  const interrupted = signal?.aborted === true;
  // The signal's reason says what interrupted it (the CLI's: "… interrupted (SIGTERM)").
  const cause: unknown = interrupted ? signal!.reason : error;
  const reason =
    interrupted && !(cause instanceof Error)
      ? "interrupted"
      : cause instanceof Error
        ? cause.message
        : String(cause);
  await finishRun(store, run, {
    status: interrupted ? "interrupted" : "failed",
    failures: [...tally.disagreements, { reason }],
  });
  if (!interrupted) throw error;
  throw new JobInterruptedError(
    `score: interrupted; the prompts scored until then are stored (run ${run.id})`,
    { cause: error },
  );
}
