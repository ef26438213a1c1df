/**
 * One network miner's path set for a prompt, as the validator saw it: fetched, checked with the
 * validator's response rules of the prompt's date, and read into a PathSet — or why not.
 */

import { AuthenticationError, PathlabHttpError, ResponseDecodeError } from "../../client/errors.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { PathSet, PathSetAllocation } from "../../paths/pathSet.ts";
import { PathSetError } from "../../paths/pathSetError.ts";
import type { EraSettings } from "../../domain/eras.ts";
import type { PredictionHistoricalParams } from "../../domain/params.ts";
import { CORRECT_REASON, validateResponse } from "../../domain/responseValidation.ts";
import { isoSeconds } from "../../domain/time.ts";
import { fetchPredictionSets } from "../sync/fetchPredictionSets.ts";

/**
 * What fetching a miner's path set gave: the path set, a valid response whose prompt CRPS is −1
 * (a price ≤ 0), the validator's reason to reject it, or why it is not available (not served,
 * refused, past retention).
 */
export type MinerPathSet =
  | { readonly kind: "path set"; readonly pathSet: PathSet }
  | { readonly kind: "scored -1"; readonly reason: string }
  | { readonly kind: "invalid"; readonly reason: string }
  | { readonly kind: "unavailable"; readonly reason: string };

/** The prompt and miner of {@link fetchMinerPathSet}. */
export interface MinerPrompt {
  readonly asset: string;
  readonly startUnix: number;
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly minerUid: number;
}

/**
 * Fetches `prompt.minerUid`'s path set for the prompt (`/v2/prediction/historical`, read from its
 * bytes: `fetchPredictionSets.ts`). A refusal or
 * an answer without the miner (HTTP 4xx: no access, past retention) is `unavailable`; a set that
 * fails the validator's response rules at the prompt's start (`validateResponse`), or a body that
 * cannot be decoded, is `invalid`, with the reason. Server failures that outlast the client's retries throw.
 * @example const fetched = await fetchMinerPathSet(client, { asset: "BTC", startUnix, timeIncrement: 300, timeLength: 86400, minerUid: 17 }, { shared: false }, {});
 */
export async function fetchMinerPathSet(
  client: PathlabClient,
  prompt: MinerPrompt,
  allocation: PathSetAllocation,
  eraSettings: EraSettings,
): Promise<MinerPathSet> {
  const params: PredictionHistoricalParams = {
    asset: prompt.asset as PredictionHistoricalParams["asset"],
    time_increment: prompt.timeIncrement as PredictionHistoricalParams["time_increment"],
    time_length: prompt.timeLength as PredictionHistoricalParams["time_length"],
    start_time: isoSeconds(prompt.startUnix),
    miner: [prompt.minerUid],
  };
  const layout = { timeIncrement: prompt.timeIncrement, timeLength: prompt.timeLength };
  let fetched;
  try {
    fetched = await fetchPredictionSets(
      client,
      params,
      { asset: prompt.asset, ...layout },
      allocation,
    );
  } catch (error) {
    if (error instanceof ResponseDecodeError) {
      return { kind: "invalid", reason: `path set unreadable: ${error.message}` };
    }
    // A key the service refuses fails the job: a wrong key and a key without access to raw path
    // sets look alike here, and neither may pass for "this miner's set is not served".
    if (error instanceof AuthenticationError) throw error;
    const status = error instanceof PathlabHttpError ? error.status : undefined;
    if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
      return { kind: "unavailable", reason: `path set not available (HTTP ${status})` };
    }
    throw error;
  }
  const set = fetched.find((candidate) => candidate.minerUid === prompt.minerUid);
  if (set === undefined) {
    return { kind: "unavailable", reason: "no path set served for the prompt" };
  }
  const reason = validateResponse(
    [set.startTime, prompt.timeIncrement, ...set.validatorPaths()],
    { startTimeUnix: prompt.startUnix, ...layout },
    { at: prompt.startUnix, eraSettings },
  );
  if (reason !== CORRECT_REASON) return { kind: "invalid", reason };
  try {
    return { kind: "path set", pathSet: set.pathSet() };
  } catch (error) {
    if (!(error instanceof PathSetError)) throw error;
    const where = `path ${error.path}, point ${error.point}`;
    // A response the validator accepted that holds a zero price: its CRPS is −1 (the validator's CRPS).
    if (error.point !== undefined && Number(error.got) === 0) {
      return {
        kind: "scored -1",
        reason: `price ${error.got} at ${where}: the validator scores −1`,
      };
    }
    return { kind: "invalid", reason: error.message.replace(/^miner -?\d+: /, "") };
  }
}
