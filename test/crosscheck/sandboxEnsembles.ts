/**
 * What a cross-check needs from a running sandbox, fetched over real HTTP as any client would: an
 * insight record, the top-10 ensemble of its `forecast_start_time` (meta-leaderboard, then each
 * miner's prediction set until ten valid ones with positive prices), the previous prompt's
 * ensemble, and the 1-minute closes before the forecast start (realized path, 60 s steps).
 */

import type { World } from "../../src/sandbox/world/world.ts";
import { COMPETITION_ASSETS, type Horizon } from "../../src/domain/assets.ts";
import { decode } from "../../src/domain/codec.ts";
import { HORIZON_LAYOUTS } from "../../src/domain/insightConventions.ts";
import type { OperationPath } from "../../src/domain/operations.ts";
import type { PredictionSet } from "../../src/domain/records/prediction-set.ts";
import { parseIsoTimeMs } from "../../src/domain/time.ts";
import { pathSetFromPrediction } from "../../src/paths/fromPrediction.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";

/** A sandbox to talk to. */
export interface SandboxAddress {
  readonly url: string;
  readonly apiKey: string;
}

/**
 * GET `path?query` with the API key; the body as JSON, or an Error naming the status and body.
 * Each request on a connection of its own (`Connection: close`): a sandbox in this process answers
 * a heavy request on this thread, for seconds, and a connection left idle meanwhile may be reused
 * by the next request just as the server closes it (its keep-alive time is past), which would
 * fail that request with ECONNRESET.
 */
export async function getJson(
  sandbox: SandboxAddress,
  path: string,
  query: Record<string, string | number | readonly number[]>,
): Promise<unknown> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const response = await fetch(`${sandbox.url}${path}?${search}`, {
    headers: { Authorization: `Apikey ${sandbox.apiKey}`, Connection: "close" },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}?${search}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** A decoded record of an operation (neutral naming), fetched. */
export async function fetchRecord(
  sandbox: SandboxAddress,
  path: OperationPath,
  query: Record<string, string | number>,
): Promise<unknown> {
  return decode(path, await getJson(sandbox, path, query));
}

function competitionOf(asset: string, horizon: Horizon): string {
  const crypto = (COMPETITION_ASSETS["crypto-24h"] as readonly string[]).includes(asset);
  return crypto ? `crypto-${horizon}` : "com-equ-24h";
}

/** The miners of the asset's competition in meta-leaderboard order (14 days, latest). */
export async function rankedMiners(
  sandbox: SandboxAddress,
  asset: string,
  horizon: Horizon,
): Promise<number[]> {
  const rows = (await fetchRecord(sandbox, "/v2/meta-leaderboard/latest", {
    days: 14,
    prompt_name: competitionOf(asset, horizon),
  })) as { neuron_uid: number }[];
  return rows.map((row) => row.neuron_uid);
}

/**
 * The members of the top-`count` ensemble of the prompt starting at `startUnix`: miners in
 * `ranked` order, each one's prediction set if it has one there with every price finite and
 * positive, the first `count` such (10 for the service's ensemble).
 */
export async function fetchEnsemble(
  sandbox: SandboxAddress,
  asset: string,
  horizon: Horizon,
  startUnix: number,
  ranked: readonly number[],
  count: number,
): Promise<PathSet[]> {
  const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[horizon];
  const prompt = { asset, timeIncrement, timeLength: horizonMinutes * 60 };
  const members: PathSet[] = [];
  for (let from = 0; from < ranked.length && members.length < count; from += 12) {
    const batch = ranked.slice(from, from + 12);
    const sets = (await fetchRecord(sandbox, "/v2/prediction/historical", {
      asset,
      time_increment: timeIncrement,
      time_length: horizonMinutes * 60,
      start_time: new Date(startUnix * 1000).toISOString(),
      miner: batch,
    } as never)) as PredictionSet[];
    const byUid = new Map(sets.map((set) => [set.miner_uid, set]));
    for (const uid of batch) {
      const set = byUid.get(uid);
      if (set === undefined || members.length === count) continue;
      try {
        members.push(pathSetFromPrediction(set, prompt));
      } catch {
        // A set with a zero or negative price: the service's ensemble leaves it out too.
      }
    }
  }
  return members;
}

/**
 * 1-minute closes from `fromUnix` to `toUnix` (minutes, inclusive), read from the sandbox's world
 * (the realized-path operation answers only at prompt starts); `minuteClose` gives NaN where missing
 * or outside, and `priceAt` the last close at or before a time (as the service's current price).
 */
export function minuteClosesOf(
  world: Pick<World, "minuteClose">,
  asset: string,
  fromUnix: number,
  toUnix: number,
): { minuteClose: (minuteUnix: number) => number; priceAt: (unix: number) => number } {
  const first = Math.floor(fromUnix / 60) * 60;
  const last = Math.floor(toUnix / 60) * 60;
  const minuteClose = (minuteUnix: number): number =>
    minuteUnix >= first && minuteUnix <= last ? world.minuteClose(asset, minuteUnix) : NaN;
  const priceAt = (unix: number): number => {
    for (let minute = Math.floor(unix / 60) * 60; minute >= first; minute -= 60) {
      const close = minuteClose(minute);
      if (!Number.isNaN(close)) return close;
    }
    return NaN;
  };
  return { minuteClose, priceAt };
}

/** Unix seconds of an ISO time, or an Error naming it. */
export function unixOf(text: string | undefined): number {
  const milliseconds = text === undefined ? NaN : parseIsoTimeMs(text);
  if (!Number.isFinite(milliseconds)) throw new Error(`not an ISO time: ${String(text)}`);
  return milliseconds / 1000;
}
