/**
 * Miners as the validator knows them: by hotkey, not by uid. A uid that changed hands is a new
 * miner (back-filled like any late joiner), so the smoothed scores are keyed by (uid, hotkey),
 * read from the service's uid holders (DOMAIN.md §3b).
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { isoSeconds, parseIsoTimeMs } from "../../spec/time.ts";

/** The uid-holders operation answers at most 30 days per request. */
const HOLDER_REQUEST_DAYS = 30;

/**
 * Who held each uid over a span, and a numeric key per (uid, hotkey) for the scoring functions,
 * which take numbers as miner ids. The holder of a uid at time t is the last hotkey first seen on
 * it at or before t; before the first one seen in the span it is the hotkey that held the uid
 * since before the span (`null`: pathlab did not read it), itself a miner of its own.
 */
export interface MinerKeys {
  /** The key of the miner holding `uid` at `timeUnix`. */
  keyAt(uid: number, timeUnix: number): number;
  /** The uid and hotkey of a key. */
  minerOf(key: number): { readonly uid: number; readonly hotkey: string | null };
  /** Whether the miner of `key` still holds its uid at `timeUnix` (else it left the network). */
  holdsAt(key: number, timeUnix: number): boolean;
}

/**
 * Reads the uid holders first seen in [fromUnix, toUnix] (in requests of 30 days) and returns
 * the {@link MinerKeys} they define.
 * @example const keys = await fetchMinerKeys(client, fromUnix, toUnix); keys.keyAt(47, startUnix)
 */
export async function fetchMinerKeys(
  client: PathlabClient,
  fromUnix: number,
  toUnix: number,
): Promise<MinerKeys> {
  const changes = new Map<number, { timeUnix: number; hotkey: string }[]>();
  for (let start = fromUnix; start <= toUnix; start += HOLDER_REQUEST_DAYS * 86400) {
    const end = Math.min(toUnix, start + HOLDER_REQUEST_DAYS * 86400 - 1);
    const rows = await client.request("/validation/uid-holders", {
      from: isoSeconds(start),
      to: isoSeconds(end),
    });
    for (const row of rows) {
      const list = changes.get(row.miner_uid) ?? [];
      list.push({ timeUnix: parseIsoTimeMs(row.created_at) / 1000, hotkey: row.hotkey });
      changes.set(row.miner_uid, list);
    }
  }
  for (const list of changes.values()) list.sort((a, b) => a.timeUnix - b.timeUnix);
  return minerKeysOf(changes);
}

/**
 * The {@link MinerKeys} of the holder changes of each uid (ascending by time).
 * @example minerKeysOf(new Map([[47, [{ timeUnix: 100, hotkey: "5F…" }]]])).keyAt(47, 50)
 */
export function minerKeysOf(
  changes: ReadonlyMap<number, readonly { timeUnix: number; hotkey: string }[]>,
): MinerKeys {
  const keys = new Map<string, number>();
  const miners: { uid: number; hotkey: string | null; index: number }[] = [];
  const keyOf = (uid: number, hotkey: string | null, index: number): number => {
    const text = `${uid}|${index}|${hotkey ?? ""}`;
    let key = keys.get(text);
    if (key === undefined) {
      key = miners.length;
      keys.set(text, key);
      miners.push({ uid, hotkey, index });
    }
    return key;
  };
  /** Index of the holder at `timeUnix` among the uid's changes (−1: since before them). */
  const holderIndex = (uid: number, timeUnix: number): number => {
    const list = changes.get(uid);
    if (list === undefined) return -1;
    let index = -1;
    while (index + 1 < list.length && list[index + 1].timeUnix <= timeUnix) index++;
    return index;
  };
  return {
    keyAt(uid, timeUnix) {
      const index = holderIndex(uid, timeUnix);
      return keyOf(uid, index < 0 ? null : changes.get(uid)![index].hotkey, index);
    },
    minerOf(key) {
      const miner = miners[key];
      if (miner === undefined) throw new RangeError(`minerOf requires a known key, got ${key}`);
      return { uid: miner.uid, hotkey: miner.hotkey };
    },
    holdsAt(key, timeUnix) {
      const miner = miners[key];
      return miner !== undefined && holderIndex(miner.uid, timeUnix) === miner.index;
    },
  };
}
