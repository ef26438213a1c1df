/**
 * Stages 2 and 3 of the score job for one prompt, as the validator scores it: the pool (every
 * miner the service scored, with pathlab's CRPS where it has the path set and the service's where
 * it has not), the candidate as one more miner (its CRPS, −1 for an invalid file, or the fill when
 * it did not answer), and the prompt scores under the rule of the prompt's era.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { PathSet } from "../../paths/pathSet.ts";
import { promptScores } from "../../scoring/promptScores.ts";
import { scoreMiners, type MinerPromptScore } from "../../scoring/scoreMiners.ts";
import type { ScoringThreads } from "../../scoring/scoringThreads.ts";
import type { ScoredPrompt } from "../../scoring/smoothedScores.ts";
import { PREDICTION_ASSETS } from "../../domain/assets.ts";
import type { EraSettings } from "../../domain/eras.ts";
import type { RealizedPath, ScoreRow } from "../../domain/records/validation.ts";
import { isoSeconds } from "../../domain/time.ts";
import {
  CANDIDATE_MINER_UID,
  loadCandidatePathSet,
  type CandidateFolderFile,
} from "./candidate.ts";
import type { MinerKeys } from "./minerKeys.ts";
import { fetchMinerPathSet, type MinerPathSet } from "./minerPathSet.ts";
import { candidateInPool, scoredPromptOf } from "./poolScores.ts";
import type { PlannedPrompt } from "./rangePrompts.ts";

/**
 * Why the candidate has CRPS −1 on a prompt of its competition and assets it has no file for:
 * the validator scores a miner that did not answer at the prompt's fill.
 * @example CANDIDATE_DID_NOT_ANSWER // => "no candidate file for this prompt: scored as a miner that did not answer"
 */
export const CANDIDATE_DID_NOT_ANSWER =
  "no candidate file for this prompt: scored as a miner that did not answer";

/** One miner's (or the candidate's) entry on a prompt. */
export interface PoolEntry {
  readonly minerUid: number;
  /** The miner's key (uid and hotkey, `MinerKeys`); −1 for the candidate. */
  readonly minerKey: number;
  /** `network`: pathlab's CRPS; `service`: the service's (path set not available); `candidate`. */
  readonly source: "network" | "service" | "candidate";
  readonly score: MinerPromptScore | undefined;
  readonly crps: number;
  readonly reason: string | null;
}

/** A prompt scored: the pool's prompt scores, with and without the candidate, and the entries. */
export interface PromptPool {
  readonly prompt: PlannedPrompt;
  /** Realized path, when anything was recomputed (else `undefined`: nothing to score against). */
  readonly realized: RealizedPath | undefined;
  /** The validator's prompt: every pooled miner's prompt score, keyed by miner key. */
  readonly scored: ScoredPrompt;
  /** The same prompt with the candidate in the pool; `undefined` when it takes no part. */
  readonly candidateScored: ScoredPrompt | undefined;
  /** The selected network miners' entries. */
  readonly network: readonly PoolEntry[];
  /** Prompt score per miner uid (network) of the pool without the candidate. */
  readonly promptScoreOf: ReadonlyMap<number, number>;
  readonly candidate: PoolEntry | undefined;
  /** The candidate's prompt score in the pool with it. */
  readonly candidatePromptScore: number | null;
  readonly candidateFile: CandidateFolderFile | undefined;
}

/** What {@link scorePromptPool} needs besides the prompt. */
export interface PoolContext {
  readonly client: PathlabClient;
  /** Where a prompt's miners are scored: these threads, or (`undefined`) this thread. */
  readonly scoringThreads: ScoringThreads | undefined;
  readonly keys: MinerKeys;
  /** Fetch no miner's path set: every network miner takes the service's CRPS. */
  readonly ownOnly: boolean;
  /** The miners whose path sets are recomputed (`undefined`: every miner the service scored). */
  readonly selected: readonly number[] | undefined;
  readonly eraSettings: EraSettings;
}

/**
 * The candidate on one prompt: whether it takes part (it covers the prompt's competition and
 * asset), its file for the prompt if any, and that file's path set when the folder's reading kept
 * it (`takeCandidatePathSet`; otherwise the file is read again).
 * @example const candidate: PromptCandidate = { takesPart: true, file, pathSet: undefined };
 */
export interface PromptCandidate {
  readonly takesPart: boolean;
  readonly file: CandidateFolderFile | undefined;
  readonly pathSet: PathSet | undefined;
}

/**
 * Scores one prompt (see the module comment) with the candidate's file for it, if any.
 * @example const pool = await scorePromptPool(context, prompt, { takesPart: true, file });
 */
export async function scorePromptPool(
  context: PoolContext,
  prompt: PlannedPrompt,
  candidate: PromptCandidate,
): Promise<PromptPool> {
  const { asset, startUnix, rows, timeIncrement, timeLength } = prompt;
  const served = (PREDICTION_ASSETS as readonly string[]).includes(asset);
  const uids = context.selected ?? rows.map((row) => row.miner_uid);
  const recomputed = context.ownOnly || !served ? [] : uids;
  const candidatePathSet =
    candidate.pathSet ??
    (candidate.file === undefined ? undefined : await loadCandidatePathSet(candidate.file));
  const realized =
    recomputed.length > 0 || candidatePathSet !== undefined
      ? await context.client.request("/validation/realized-path", {
          start_time: isoSeconds(startUnix),
          asset: asset as "BTC",
          time_increment: timeIncrement as 300,
          time_length: timeLength as 86400,
        })
      : undefined;
  // In shared memory when scored on threads: they read the prices in place.
  const allocation = { shared: context.scoringThreads !== undefined };
  const fetched: MinerPathSet[] = await Promise.all(
    recomputed.map((minerUid) =>
      fetchMinerPathSet(
        context.client,
        { asset, startUnix, timeIncrement, timeLength, minerUid },
        allocation,
        context.eraSettings,
      ),
    ),
  );
  const valid = fetched.flatMap((entry) => (entry.kind === "path set" ? [entry.pathSet] : []));
  const scoreOf = new Map<number, MinerPromptScore>();
  for (const score of await scoreAll(context, valid, realized, prompt)) {
    scoreOf.set(score.minerUid, score);
  }
  const serviceRow = new Map(rows.map((row) => [row.miner_uid, row]));
  const network = uids.flatMap((minerUid, index) => {
    const entry = networkEntry(
      { minerUid, minerKey: context.keys.keyAt(minerUid, startUnix) },
      { score: scoreOf.get(minerUid), answer: fetched[index], service: serviceRow.get(minerUid) },
      { promptHasRows: rows.length > 0, ownOnly: context.ownOnly },
    );
    return entry === undefined ? [] : [entry];
  });
  // The prompt's pool: every miner the service scored (the selected ones only without its rows).
  const own = new Map(network.map((entry) => [entry.minerUid, entry.crps]));
  const poolUids =
    rows.length > 0 ? rows.map((row) => row.miner_uid) : network.map((e) => e.minerUid);
  const raw = poolUids.map((minerUid) => own.get(minerUid) ?? serviceRow.get(minerUid)!.crps);
  const keys = poolUids.map((minerUid) => context.keys.keyAt(minerUid, startUnix));
  const rule = prompt.era.promptScoreRule;
  // A prompt the service has no rows for is not one the validator pooled: it smooths nothing.
  const pooled = promptScores(raw, { rule });
  const scored = scoredPromptOf(prompt, keys, rows.length > 0 ? pooled?.scores : undefined);
  const promptScoreOf = new Map(
    pooled === null ? [] : poolUids.map((uid, index) => [uid, pooled.scores[index]]),
  );
  let candidateEntry: PoolEntry | undefined;
  let candidateScored: ScoredPrompt | undefined;
  let candidatePromptScore: number | null = null;
  if (candidate.takesPart) {
    const [score] =
      candidatePathSet === undefined
        ? []
        : await scoreAll(context, [candidatePathSet], realized, prompt);
    candidateEntry = candidateEntryOf(candidate.file, score);
    ({ candidateScored, candidatePromptScore } = candidateInPool(
      prompt,
      { raw, keys, rule, scored },
      candidateEntry.crps,
    ));
  }
  return {
    prompt,
    realized,
    scored: { ...scored, worstScore: pooled?.worstScore ?? Number.NaN },
    candidateScored,
    network,
    promptScoreOf,
    candidate: candidateEntry,
    candidatePromptScore,
    candidateFile: candidate.file,
  };
}

/**
 * A network miner's entry on a prompt, from what pathlab has for it: its score (a valid path set),
 * or its fetch's answer, and the service's row. `undefined` for a miner outside the prompt's pool.
 */
function networkEntry(
  miner: { readonly minerUid: number; readonly minerKey: number },
  found: {
    readonly score: MinerPromptScore | undefined;
    readonly answer: MinerPathSet | undefined;
    readonly service: ScoreRow | undefined;
  },
  prompt: { readonly promptHasRows: boolean; readonly ownOnly: boolean },
): PoolEntry | undefined {
  const { score, answer, service } = found;
  if (score !== undefined) {
    const reason = score.invalidReason ?? (score.crps === -1 ? "non-finite CRPS" : null);
    return { ...miner, source: "network", score, crps: score.crps, reason };
  }
  const validatorRejects =
    answer?.kind === "scored -1" ||
    (answer?.kind === "invalid" &&
      (service === undefined ? !prompt.promptHasRows : service.crps === -1));
  if (validatorRejects) {
    // The validator's −1, recomputed: a price ≤ 0, or a response its rules reject.
    return { ...miner, source: "network", score, crps: -1, reason: answer!.reason };
  }
  if (service !== undefined) {
    // Not served, or a served copy that fails validation although the service scored the
    // response (damaged, or not the one it saw): the service's CRPS stands.
    const reason =
      answer === undefined
        ? prompt.ownOnly
          ? "--own-only: the service's CRPS"
          : "no path sets for this asset at the prediction operations"
        : answer.kind === "path set"
          ? null
          : `${answer.reason}; the service's CRPS is used`;
    return { ...miner, source: "service", score, crps: service.crps, reason };
  }
  if (answer !== undefined && !prompt.promptHasRows) {
    // A selected miner on a prompt the service has no rows for.
    const reason = answer.kind === "path set" ? "non-finite CRPS" : answer.reason;
    return { ...miner, source: "network", score, crps: -1, reason };
  }
  return undefined;
}

/** The candidate's entry: its score, −1 with the reason its file was rejected, or the fill. */
function candidateEntryOf(
  file: CandidateFolderFile | undefined,
  score: MinerPromptScore | undefined,
): PoolEntry {
  return {
    minerUid: CANDIDATE_MINER_UID,
    minerKey: CANDIDATE_MINER_UID,
    source: "candidate",
    score,
    crps: score?.crps ?? -1,
    reason:
      file === undefined
        ? CANDIDATE_DID_NOT_ANSWER
        : (file.reason ?? score?.invalidReason ?? (score?.crps === -1 ? "non-finite CRPS" : null)),
  };
}

async function scoreAll(
  context: PoolContext,
  pathSets: readonly PathSet[],
  realized: RealizedPath | undefined,
  prompt: PlannedPrompt,
): Promise<MinerPromptScore[]> {
  if (pathSets.length === 0 || realized === undefined) return [];
  const target = { competition: prompt.competition };
  const options = { calibration: true, eraSettings: context.eraSettings };
  return context.scoringThreads === undefined
    ? scoreMiners(pathSets, realized, target, options)
    : context.scoringThreads.scoreMiners(pathSets, realized, target, options);
}

/**
 * The validator's prompts of `pools` as the smoothing functions take them: the pools as scored
 * (prompts without the service's rows left out), and, when the candidate took part anywhere, the
 * same prompts with it in every pool it joined.
 * @example const { network, withCandidate } = pooledPrompts(pools);
 */
export function pooledPrompts(pools: readonly PromptPool[]): {
  network: ScoredPrompt[];
  withCandidate: ScoredPrompt[] | undefined;
} {
  const scored = (prompt: ScoredPrompt) => prompt.minerScores.length > 0;
  return {
    network: pools.map((pool) => pool.scored).filter(scored),
    withCandidate: pools.some((pool) => pool.candidateScored !== undefined)
      ? pools.map((pool) => pool.candidateScored ?? pool.scored).filter(scored)
      : undefined,
  };
}
