/**
 * The members of the service's insight ensemble for one prompt, fetched as the service picks them:
 * miners in meta-leaderboard order, each one's prediction set for the prompt, the first ten that
 * make valid path sets (the service's insight conventions; the sandbox's `world.ensemble` does the same).
 */

import { AuthenticationError, BadRequestError, PaymentRequiredError } from "../../client/errors.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { Horizon } from "../../domain/assets.ts";
import { ENSEMBLE_SIZE, HORIZON_LAYOUTS } from "../../domain/insightConventions.ts";
import type { PredictionHistoricalParams } from "../../domain/params.ts";
import type { PathSet } from "../../paths/pathSet.ts";
import { PathSetError } from "../../paths/pathSetError.ts";
import { fetchPredictionSets, type FetchedPredictionSet } from "./fetchPredictionSets.ts";

/**
 * A prediction set that did not make a valid path set, with the validator's reason: `replaced`
 * when every copy fetched was invalid (the miner is left out and the next one takes its place),
 * `corrected` when a later copy was valid and used (the first was damaged on the way).
 * @example const rejected: RejectedPathSet = { minerUid: 23, outcome: "replaced", reason: "miner 23: path 0: Number of time points is incorrect: expected 61, got 60" };
 */
export interface RejectedPathSet {
  readonly minerUid: number;
  readonly outcome: "replaced" | "corrected";
  /** The validator's words for the (first) invalid copy. */
  readonly reason: string;
}

/**
 * What {@link fetchEnsembleMembers} found.
 * @example const { members, rejected, absent } = await fetchEnsembleMembers(client, request);
 */
export interface EnsembleMembers {
  /** The path sets, in ranking order (at most `size`). */
  readonly members: readonly PathSet[];
  /** Invalid sets the service sent (see {@link RejectedPathSet}). */
  readonly rejected: readonly RejectedPathSet[];
  /** Miners asked for that have no prediction set for the prompt. */
  readonly absent: readonly number[];
  /**
   * Each miner's answer (see {@link KnownAnswer}). Passed as a request's `known`, only the miners
   * whose set was invalid on every copy are asked again.
   */
  readonly known: ReadonlyMap<number, KnownAnswer>;
}

/**
 * What to fetch.
 * @example
 * const request: EnsembleRequest = { asset: "BTC", horizon: "24h", startUnix: 1772063100, ranked: [47, 150, 144] };
 */
export interface EnsembleRequest {
  /** The prediction operations' symbol (`SPYX`, not `SPY`). */
  readonly asset: string;
  readonly horizon: Horizon;
  /** The prompt's start (`forecast_start_time`), Unix seconds. */
  readonly startUnix: number;
  /** Miner uids, best first (the meta-leaderboard's `neuron_uid`s). */
  readonly ranked: readonly number[];
  /** Members wanted; default `ENSEMBLE_SIZE` (10). */
  readonly size?: number;
  /**
   * Copies of an invalid set fetched before the miner is left out (the first valid copy is used);
   * default 2.
   */
  readonly copies?: number;
  /**
   * Answers of an earlier fetch (its result's `known`): a member or an absence is used as it is
   * (a corrected set still reported as such); a miner whose set was invalid is asked again
   * (`copies` times), its earlier reason kept.
   */
  readonly known?: ReadonlyMap<number, KnownAnswer>;
}

/**
 * One miner's answer: no set (`absent`), a valid path set (`member`; `firstReason` when a first
 * copy was invalid and a later one valid), or invalid on every copy (`rejected`, the validator's
 * reason for the first).
 * @example const known: KnownAnswer = { kind: "rejected", reason: "miner 23: path 0: Number of time points is incorrect: expected 61, got 60" };
 */
export type KnownAnswer =
  | { readonly kind: "absent" }
  | { readonly kind: "member"; readonly pathSet: PathSet; readonly firstReason?: string }
  | { readonly kind: "rejected"; readonly reason: string };

/**
 * Fetches the top-`size` ensemble of a prompt from `/v2/prediction/historical` (each set read from
 * the response's bytes, `fetchPredictionSets.ts`): the first `size` miners of `ranked`, one
 * request each (in parallel, as many at once as the client allows), then,
 * for each miner without a set or whose set is not a valid path set, the next miners of the
 * ranking, until `size` members or the end of the ranking. Valid is `pathSetFromPrediction`'s
 * check (the validator's counts, every price finite and positive) plus the `miner_uid` and
 * `start_time` asked for. An invalid set is fetched again (`copies` in all) before the miner is
 * left out, so that a set damaged on the way does not change the ensemble. A request that fails after the
 * client's retries is also made once more (not for 400, 401, 402, 403); if it fails again the
 * error is thrown: the ensemble would not be the service's without that miner.
 * @param client - the client of the service.
 * @param request - the prompt (asset, horizon, start), the ranking of its miners, and how many
 *   members to fetch (10 by default).
 * @example
 * const { members } = await fetchEnsembleMembers(client, { asset: "ETH", horizon: "1h", startUnix, ranked });
 * ensembleOf(members);
 */
export async function fetchEnsembleMembers(
  client: PathlabClient,
  request: EnsembleRequest,
): Promise<EnsembleMembers> {
  const size = request.size ?? ENSEMBLE_SIZE;
  const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[request.horizon];
  const prompt = { asset: request.asset, timeIncrement, timeLength: horizonMinutes * 60 };
  const params = (minerUid: number): PredictionHistoricalParams => ({
    asset: request.asset as PredictionHistoricalParams["asset"],
    time_increment: timeIncrement as PredictionHistoricalParams["time_increment"],
    time_length: prompt.timeLength as PredictionHistoricalParams["time_length"],
    start_time: new Date(request.startUnix * 1000).toISOString(),
    miner: [minerUid],
  });
  const fetchSet = async (minerUid: number) => {
    try {
      return await fetchPredictionSets(client, params(minerUid), prompt);
    } catch (error) {
      if (isPermanent(error)) throw error;
      return fetchPredictionSets(client, params(minerUid), prompt);
    }
  };
  /** The set's path set, or the validator's reason why it is none; undefined without a set. */
  const validate = (sets: readonly FetchedPredictionSet[], minerUid: number) => {
    const set = sets.find((candidate) => candidate.minerUid === minerUid) ?? sets[0];
    if (set === undefined) return undefined;
    const reason = mismatch(set, minerUid, request.startUnix);
    if (reason !== undefined) return reason;
    try {
      return set.pathSet();
    } catch (error) {
      if (!(error instanceof PathSetError)) throw error;
      return error.message;
    }
  };
  const copies = Math.max(1, request.copies ?? 2);
  const answer = async (minerUid: number): Promise<KnownAnswer> => {
    const settled = request.known?.get(minerUid);
    if (settled !== undefined && settled.kind !== "rejected") return settled;
    let first = settled?.reason;
    let copy = 0;
    if (first === undefined) {
      const answered = validate(await fetchSet(minerUid), minerUid);
      copy = 1;
      if (answered === undefined) return { kind: "absent" };
      if (typeof answered !== "string") return { kind: "member", pathSet: answered };
      first = answered;
    }
    for (copy += 1; copy <= copies; ++copy) {
      const again = validate(await fetchSet(minerUid), minerUid);
      if (again !== undefined && typeof again !== "string") {
        return { kind: "member", pathSet: again, firstReason: first };
      }
    }
    return { kind: "rejected", reason: first };
  };
  const members: PathSet[] = [];
  const rejected: RejectedPathSet[] = [];
  const absent: number[] = [];
  const known = new Map<number, KnownAnswer>();
  let next = 0;
  while (members.length < size && next < request.ranked.length) {
    const batch = request.ranked.slice(next, next + size - members.length);
    next += batch.length;
    const answers = await Promise.all(batch.map(answer));
    answers.forEach((found, index) => {
      const minerUid = batch[index];
      known.set(minerUid, found);
      if (found.kind === "absent") absent.push(minerUid);
      else if (found.kind === "rejected") {
        rejected.push({ minerUid, outcome: "replaced", reason: found.reason });
      } else {
        if (found.firstReason !== undefined) {
          rejected.push({ minerUid, outcome: "corrected", reason: found.firstReason });
        }
        members.push(found.pathSet);
      }
    });
  }
  return { members, rejected, absent, known };
}

/** Client errors that a second request would only repeat: the request or the key is wrong. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof BadRequestError ||
    error instanceof AuthenticationError ||
    error instanceof PaymentRequiredError
  );
}

function mismatch(
  set: FetchedPredictionSet,
  minerUid: number,
  startUnix: number,
): string | undefined {
  if (set.minerUid !== minerUid) {
    return `miner ${minerUid}: miner_uid: expected ${minerUid}, got ${String(set.minerUid)}`;
  }
  if (set.startTime !== startUnix) {
    return `miner ${minerUid}: start_time: expected ${startUnix} (the prompt's start), got ${String(set.startTime)}`;
  }
  return undefined;
}
