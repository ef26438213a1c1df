/**
 * Stage 5 of the score job: the competition's smoothed scores and reward weights at the service's
 * latest update of the range, recomputed the validator's way and compared with the service's
 * smoothed scores and leaderboard; and the candidate's smoothed score placed among them.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { smoothedScores, type ScoredPrompt } from "../../scoring/smoothedScores.ts";
import { VALIDATION_ASSETS, type ValidationAsset } from "../../domain/assets.ts";
import { UPDATE_DELAY_SECONDS, type EraSettings } from "../../domain/eras.ts";
import type { LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import type { SmoothedScoreRow } from "../../domain/records/validation.ts";
import type { CompetitionName } from "../../domain/competitions.ts";
import type { SmoothedScoresParams } from "../../domain/params.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import type { SmoothedScoreEntry } from "../../store/smoothedScoreRows.ts";
import { CANDIDATE_MINER_UID } from "./candidate.ts";
import type { Agreement, ScoreLeaderboardRow } from "./summary.ts";
import { agreementOf, combined } from "./agreement.ts";
import type { MinerKeys } from "./minerKeys.ts";
import { parametersAt, rankMiners, uidOfKey, type RankedMiner } from "./rankOverTime.ts";
import type { RangeCompetition } from "./rangePrompts.ts";
import { pooledPrompts, type PromptPool } from "./scorePromptPool.ts";

/** The smoothed-scores operation allows at most 7 days; ask for the last 6. */
const SMOOTHED_LOOKBACK_SECONDS = 6 * 86400;

/** What the comparison found. */
export interface ServiceComparison {
  /** The service's latest update in the range, or `undefined` when it shows none. */
  readonly asOfUnix: number | undefined;
  readonly windowPromptsMissing: number;
  readonly leaderboard: ScoreLeaderboardRow[];
  /** The candidate's smoothed score and rank at that update (among the miners holding uids). */
  readonly candidate:
    | {
        readonly smoothedScore: number;
        readonly rewardWeight: number;
        readonly rank: number;
        readonly of: number;
      }
    | undefined;
}

/**
 * The competition parameter of the smoothed-scores request as the deployment takes it:
 * `competition`, or `prompt_name` (the live `/rewards/scores`, and the legacy names).
 */
export type SmoothedScoresSelector = (
  competition: CompetitionName,
) => Pick<SmoothedScoresParams, "competition" | "prompt_name">;

/**
 * The selector of a deployment: `prompt_name` for the live naming and the legacy names,
 * `competition` otherwise.
 * @example smoothedScoresSelector(false)("crypto-1h") // => { competition: "crypto-1h" }
 */
export function smoothedScoresSelector(live: boolean): SmoothedScoresSelector {
  return (name) =>
    live || name === "low" || name === "high" ? { prompt_name: name } : { competition: name };
}

/**
 * The rows of `smoothed_scores` of a comparison: each miner of its leaderboard beside the
 * service's numbers, and the candidate with its smoothed score and reward weight among them (not
 * compared).
 * @example await writeSmoothedScores(store, competition, asOfUnix, smoothedScoreEntries(comparison), runId);
 */
export function smoothedScoreEntries(comparison: ServiceComparison): SmoothedScoreEntry[] {
  const stored: SmoothedScoreEntry[] = comparison.leaderboard.map((row) => ({
    source: "network",
    minerUid: row.minerUid,
    hotkey: row.hotkey,
    smoothedScore: row.smoothedScore,
    rewardWeight: row.rewardWeight,
    serviceSmoothedScore: row.serviceSmoothedScore,
    serviceRewardWeight: row.serviceRewardWeight,
    verdict: row.agreement,
  }));
  if (comparison.candidate !== undefined) {
    stored.push({
      source: "candidate",
      minerUid: CANDIDATE_MINER_UID,
      smoothedScore: comparison.candidate.smoothedScore,
      rewardWeight: comparison.candidate.rewardWeight,
      serviceSmoothedScore: null,
      serviceRewardWeight: null,
      verdict: "not compared",
    });
  }
  return stored;
}

/**
 * Compares the competition's smoothed scores at the service's latest update (see the module
 * comment). `pools` are the prompts scored, in order; `verdicts` each prompt's per-uid verdicts.
 * @example const comparison = await compareWithService(context, competition, pools, verdicts);
 */
export async function compareWithService(
  context: {
    readonly client: PathlabClient;
    readonly keys: MinerKeys;
    readonly toUnix: number;
    readonly fromUnix: number;
    readonly nowUnix: number;
    readonly eraSettings: EraSettings;
    readonly smoothedParams: SmoothedScoresSelector;
  },
  competition: RangeCompetition,
  pools: readonly PromptPool[],
  verdicts: readonly ReadonlyMap<number, Agreement>[],
): Promise<ServiceComparison> {
  const { client, keys } = context;
  const asOfLimit = Math.min(
    context.toUnix + competition.timeLength + UPDATE_DELAY_SECONDS,
    context.nowUnix,
  );
  const serviceRows = await client.request("/validation/smoothed-scores", {
    from: isoSeconds(Math.max(asOfLimit - SMOOTHED_LOOKBACK_SECONDS, context.fromUnix)),
    to: isoSeconds(asOfLimit),
    ...context.smoothedParams(competition.name),
  });
  let latest = -Infinity;
  for (const row of serviceRows) latest = Math.max(latest, parseIsoTimeMs(row.updated_at) / 1000);
  const asOfUnix = Number.isFinite(latest) ? latest : undefined;
  const at = asOfUnix ?? asOfLimit;
  const serviceAt = new Map<number, SmoothedScoreRow>();
  for (const row of serviceRows) {
    if (parseIsoTimeMs(row.updated_at) / 1000 === asOfUnix) serviceAt.set(row.miner_uid, row);
  }
  const parameters = parametersAt(competition.parameters, at, context.eraSettings);
  const { network: validatorPrompts, withCandidate: candidatePrompts } = pooledPrompts(pools);
  const byKey = holdersAt(
    smoothedScores(validatorPrompts, { competition: parameters, now: at }),
    keys,
    at,
  );
  const uidOf = uidOfKey(keys);
  // The leaderboard shows the miners pathlab scored (all, or the selected ones).
  const scoredKeys = new Set(pools.flatMap((pool) => pool.network.map((entry) => entry.minerKey)));
  const ranked = rankMiners(byKey, parameters, uidOf).filter((miner) =>
    scoredKeys.has(miner.minerKey),
  );
  const missing = await promptsMissingFromWindow(client, competition, at, validatorPrompts);
  const leaderboardAt = new Map<number, LeaderboardV2Row>();
  if (missing === 0) {
    const rows = await client.request("/v2/leaderboard/latest", {
      prompt_name: competition.name as "crypto-1h",
    });
    for (const row of rows) {
      if (parseIsoTimeMs(row.updated_at) / 1000 === asOfUnix)
        leaderboardAt.set(row.neuron_uid, row);
    }
  } else {
    // The smoothed scores pool every prompt of the window: with some missing they cannot agree.
    serviceAt.clear();
  }
  const leaderboard = ranked.map((miner, index) =>
    leaderboardRow(miner, index + 1, keys, pools, verdicts, {
      smoothed: serviceAt.get(keys.minerOf(miner.minerKey).uid),
      leaderboard: leaderboardAt.get(keys.minerOf(miner.minerKey).uid),
    }),
  );
  let candidate: ServiceComparison["candidate"];
  if (candidatePrompts !== undefined) {
    // Every miner as the pools with the candidate score them: its prompt scores move theirs.
    const field = holdersAt(
      smoothedScores(candidatePrompts, { competition: parameters, now: at }),
      keys,
      at,
      CANDIDATE_MINER_UID,
    );
    const score = field.get(CANDIDATE_MINER_UID);
    if (score !== undefined) {
      const placed = rankMiners(field, parameters, uidOf);
      const index = placed.findIndex((miner) => miner.minerKey === CANDIDATE_MINER_UID);
      const rewardWeight = placed[index].rewardWeight;
      candidate = { smoothedScore: score, rewardWeight, rank: index + 1, of: placed.length };
    }
  }
  return { asOfUnix, windowPromptsMissing: missing, leaderboard, candidate };
}

/** One miner's line of the leaderboard, with its prompts of the range and the service's numbers. */
function leaderboardRow(
  miner: RankedMiner,
  rank: number,
  keys: MinerKeys,
  pools: readonly PromptPool[],
  verdicts: readonly ReadonlyMap<number, Agreement>[],
  service: {
    readonly smoothed: SmoothedScoreRow | undefined;
    readonly leaderboard: LeaderboardV2Row | undefined;
  },
): ScoreLeaderboardRow {
  const uid = keys.minerOf(miner.minerKey).uid;
  const own = pools.flatMap((pool) =>
    pool.network.filter((entry) => entry.minerKey === miner.minerKey),
  );
  const agreeing = pools.filter(
    (pool, poolIndex) =>
      pool.network.some((entry) => entry.minerKey === miner.minerKey) &&
      verdicts[poolIndex].get(uid) === "agree",
  ).length;
  const valid = own.filter((entry) => entry.crps !== -1);
  let covered = 0;
  let observed = 0;
  for (const entry of own) {
    const calibration = entry.source === "network" ? entry.score?.calibration : undefined;
    const level = calibration?.levels.indexOf(0.9) ?? -1;
    if (calibration === undefined || level < 0) continue;
    covered += calibration.coveredCounts[level];
    observed += calibration.observedPoints;
  }
  const serviceRow = service.smoothed;
  const leaderboardRow = service.leaderboard;
  return {
    rank,
    minerUid: uid,
    hotkey: keys.minerOf(miner.minerKey).hotkey,
    smoothedScore: miner.smoothedScore,
    rewardWeight: miner.rewardWeight,
    serviceSmoothedScore: serviceRow?.smoothed_score ?? null,
    serviceRewardWeight: serviceRow?.reward_weight ?? null,
    leaderboardRewards: leaderboardRow?.rewards ?? null,
    meanCrps: valid.length === 0 ? null : valid.reduce((sum, e) => sum + e.crps, 0) / valid.length,
    coverage90: observed === 0 ? null : covered / observed,
    prompts: own.length,
    promptsAgreeing: agreeing,
    serviceCrpsPrompts: own.filter((entry) => entry.source === "service").length,
    agreement: combined([
      agreementOf(miner.smoothedScore, serviceRow?.smoothed_score ?? null, 1e-9),
      agreementOf(miner.rewardWeight, serviceRow?.reward_weight ?? null, 1e-15),
      agreementOf(miner.rewardWeight, leaderboardRow?.rewards ?? null, 1e-15),
    ]),
  };
}

/** The finite smoothed scores of the miners that hold their uid at `timeUnix` (and `keep`), by key. */
function holdersAt(
  smoothed: ReadonlyMap<number, number>,
  keys: MinerKeys,
  timeUnix: number,
  keep?: number,
): Map<number, number> {
  return new Map(
    [...smoothed].filter(
      ([minerKey, score]) =>
        Number.isFinite(score) && (minerKey === keep || keys.holdsAt(minerKey, timeUnix)),
    ),
  );
}

/**
 * How many prompts the service scored in the window of the update at `updateUnix` (every asset
 * of the competition) are not among `scored`: 0 when the smoothed scores can be compared.
 */
async function promptsMissingFromWindow(
  client: PathlabClient,
  competition: RangeCompetition,
  updateUnix: number,
  scored: readonly ScoredPrompt[],
): Promise<number> {
  const have = new Set(scored.map((prompt) => `${prompt.asset}|${prompt.scoredTimeUnix}`));
  const validation = new Set<string>(VALIDATION_ASSETS);
  let missing = 0;
  for (const asset of competition.assets) {
    if (!validation.has(asset)) continue;
    const rows = await client.request("/validation/scores/historical", {
      from: isoSeconds(updateUnix - competition.parameters.windowDays * 86400 + 1),
      to: isoSeconds(updateUnix - 61),
      asset: asset as ValidationAsset,
      time_increment: competition.timeIncrement as 300,
      time_length: competition.timeLength as 86400,
    });
    const times = new Set(rows.map((row) => parseIsoTimeMs(row.scored_time) / 1000));
    for (const time of times) if (!have.has(`${asset}|${time}`)) missing++;
  }
  return missing;
}
