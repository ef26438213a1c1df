/**
 * Miners as the validator knows them: by hotkey, not by uid. A uid that changed hands is a new
 * miner (back-filled like any late joiner), so the smoothed scores are keyed by (uid, hotkey),
 * read from the service's uid holders (the validator's dated rules).
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";

/** The uid-holders operation answers at most 30 days per request. */
const HOLDER_REQUEST_DAYS = 30;

/**
 * Who held each uid over a span, and a numeric key per (uid, hotkey) for the scoring functions,
 * which take numbers as miner ids. The holder of a uid at time t is the last hotkey first seen on
 * it at or before t; before the first one seen in the span it is the hotkey that held the uid
 * since before the span (`null`: pathlab did not read it), itself a miner of its own.
 *
 * A key depends only on the uid and which of its holders it is (`uid × 2²⁰ + holder index + 1`),
 * not on the order keys are asked for, so that keys made in another thread from the same changes
 * (the unit pool's workers) are the same numbers.
 * @example const keys: MinerKeys = await fetchMinerKeys(client, fromUnix, toUnix);
 */
export interface MinerKeys {
  /** The key of the miner holding `uid` at `timeUnix`. */
  keyAt(uid: number, timeUnix: number): number;
  /** The uid and hotkey of a key. */
  minerOf(key: number): { readonly uid: number; readonly hotkey: string | null };
  /** Whether the miner of `key` still holds its uid at `timeUnix` (else it left the network). */
  holdsAt(key: number, timeUnix: number): boolean;
  /** The holder changes the keys were made from (to make the same keys elsewhere). */
  readonly changes: ReadonlyMap<number, readonly { timeUnix: number; hotkey: string }[]>;
}

/** The longest smoothing window (days): uid holders are read this far before a range. */
const LONGEST_WINDOW_DAYS = 10;

/**
 * The span whose uid holders key the miners of the prompts that start from `fromUnix` to
 * `toUnix`: from the longest smoothing window before the range to the last prompt's scoring (and
 * its update) after it, not after `nowUnix`. What `score`, its queued units and `lake reduce`
 * read, so that they key miners alike.
 * @example const { fromUnix, toUnix } = minerKeysSpan(rangeFrom, rangeTo, nowUnix);
 */
export function minerKeysSpan(
  fromUnix: number,
  toUnix: number,
  nowUnix: number,
): { fromUnix: number; toUnix: number } {
  return {
    fromUnix: fromUnix - LONGEST_WINDOW_DAYS * 86400,
    toUnix: Math.min(nowUnix, toUnix + 86400 + 3600),
  };
}

/** Holder indices per uid in a key (the index + 1 is below it). */
const KEY_STRIDE = 2 ** 20;

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
  /** Index of the holder at `timeUnix` among the uid's changes (−1: since before them). */
  const holderIndex = (uid: number, timeUnix: number): number => {
    const list = changes.get(uid);
    if (list === undefined) return -1;
    let index = -1;
    while (index + 1 < list.length && list[index + 1].timeUnix <= timeUnix) index++;
    return index;
  };
  const minerOfKey = (key: number): { uid: number; index: number } => {
    const uid = Math.floor(key / KEY_STRIDE);
    const index = (key % KEY_STRIDE) - 1;
    const known = Number.isSafeInteger(key) && key >= 0 && index < (changes.get(uid)?.length ?? 0);
    if (!known) throw new RangeError(`minerOf requires a known key, got ${key}`);
    return { uid, index };
  };
  return {
    keyAt(uid, timeUnix) {
      if (!(Number.isSafeInteger(uid) && uid >= 0 && uid < 2 ** 32)) {
        throw new RangeError(`keyAt requires a uid that is an integer in [0, 2³²), got ${uid}`);
      }
      return uid * KEY_STRIDE + holderIndex(uid, timeUnix) + 1;
    },
    minerOf(key) {
      const { uid, index } = minerOfKey(key);
      return { uid, hotkey: index < 0 ? null : changes.get(uid)![index].hotkey };
    },
    holdsAt(key, timeUnix) {
      if (!(Number.isSafeInteger(key) && key >= 0)) return false;
      const uid = Math.floor(key / KEY_STRIDE);
      return holderIndex(uid, timeUnix) === (key % KEY_STRIDE) - 1;
    },
    changes,
  };
}
