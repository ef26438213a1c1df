/**
 * Who holds each uid over time. Fixed uids keep one hotkey since before the markets' history;
 * churning uids change hands every `tenureDays` (at seeded phases), and each new holder draws a
 * profile of its own. A new holder answers only after a warm-up, and a leaving one stops answering
 * some hours before it is replaced — so miners join and leave, and the validator back-fills.
 */

import { MARKET_HISTORY_START_UNIX } from "./markets.ts";
import { CHURN_PROFILES, MINER_SLOTS, type MinerProfile, type MinerSlot } from "./minerProfiles.ts";
import { RandomStream, streamSeed } from "./randomStream.ts";

/** Stream namespace of the roster's draws. */
const ROSTER_STREAM = 10;
/** Hours after registration before a new holder of a churning uid answers. */
const WARM_UP_SECONDS = 2 * 3600;
/** Hours before its replacement during which a leaving holder no longer answers. */
const LEAVING_SECONDS = 3 * 3600;
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * One hotkey's tenure of a uid.
 * @example roster.holderAt(47, nowUnix)?.hotkey // => "5F…" (48 characters)
 */
export interface MinerHolder {
  readonly uid: number;
  /** 0 for a fixed uid; the tenure number for a churning uid. */
  readonly holderIndex: number;
  /**
   * The validator's identity of this hotkey: holderIndex × 1000 + uid. Scores are grouped by it,
   * so a new hotkey on a uid starts afresh (and is back-filled).
   */
  readonly holderKey: number;
  readonly hotkey: string;
  readonly coldkey: string;
  readonly ipAddress: string;
  /** Stake, in the network's token (V1 leaderboard). */
  readonly stake: number;
  /** When the hotkey was first seen on the uid, unix seconds. */
  readonly registeredUnix: number;
  /** When the next hotkey replaced it (Infinity for a fixed uid). */
  readonly replacedUnix: number;
  /** The span in which it answers prompts: [answersFromUnix, answersUntilUnix). */
  readonly answersFromUnix: number;
  readonly answersUntilUnix: number;
  readonly profile: MinerProfile;
}

/**
 * The uids and their holders, as {@link createMinerRoster} returns them.
 * @example const holder = createMinerRoster(7).holderAt(47, nowUnix);
 */
export interface MinerRoster {
  /** Every uid, ascending. */
  readonly uids: readonly number[];
  /** The holder of `uid` at `atUnix`; `undefined` for an unknown uid or before its first holder. */
  holderAt(uid: number, atUnix: number): MinerHolder | undefined;
  /** Every holder first seen in [fromUnix, toUnix], by registration time then uid. */
  holdersRegisteredBetween(fromUnix: number, toUnix: number): MinerHolder[];
}

/**
 * The roster of the world with `seed`: the first `miners` uids of {@link MINER_SLOTS} (default
 * all of them).
 * @example createMinerRoster(7).uids.length // => 36
 */
export function createMinerRoster(seed: number, miners = MINER_SLOTS.length): MinerRoster {
  const slots = MINER_SLOTS.slice(0, miners);
  const slotsByUid = new Map<number, MinerSlot>();
  for (const minerSlot of slots) slotsByUid.set(minerSlot.uid, minerSlot);
  const uids = Object.freeze([...slotsByUid.keys()].sort((first, second) => first - second));
  const holders = new Map<number, MinerHolder>();

  /** First registration of a churning uid: at or before the start of history. */
  function churnPhaseUnix(minerSlot: MinerSlot): number {
    const tenureSeconds = Math.round(minerSlot.tenureDays! * 86400);
    const stream = new RandomStream(streamSeed(seed, ROSTER_STREAM, minerSlot.uid, -1));
    return MARKET_HISTORY_START_UNIX - Math.floor(stream.uniform() * tenureSeconds);
  }

  function holder(minerSlot: MinerSlot, holderIndex: number): MinerHolder {
    const holderKey = holderIndex * 1000 + minerSlot.uid;
    const cached = holders.get(holderKey);
    if (cached !== undefined) return cached;
    const stream = new RandomStream(streamSeed(seed, ROSTER_STREAM, minerSlot.uid, holderIndex));
    const hotkey = ss58Like(stream);
    const coldkey = ss58Like(stream);
    const ipAddress = `${10 + stream.integer(200)}.${stream.integer(256)}.${stream.integer(256)}.${1 + stream.integer(254)}`;
    const stake = Math.round(stream.uniform() * 5000 * 100) / 100;
    let registeredUnix: number;
    let replacedUnix: number;
    let profile: MinerProfile;
    let answersFromUnix: number;
    let answersUntilUnix: number;
    if (minerSlot.tenureDays === undefined) {
      registeredUnix =
        MARKET_HISTORY_START_UNIX - (1 + stream.integer(120)) * 86400 - stream.integer(86400);
      replacedUnix = Infinity;
      profile = minerSlot.profile;
      answersFromUnix = registeredUnix;
      answersUntilUnix = Infinity;
    } else {
      const tenureSeconds = Math.round(minerSlot.tenureDays * 86400);
      registeredUnix = churnPhaseUnix(minerSlot) + holderIndex * tenureSeconds;
      replacedUnix = registeredUnix + tenureSeconds;
      const drawn = CHURN_PROFILES[stream.integer(CHURN_PROFILES.length)];
      profile = Object.freeze({ ...drawn, competitions: minerSlot.profile.competitions });
      answersFromUnix = registeredUnix + WARM_UP_SECONDS;
      answersUntilUnix = replacedUnix - LEAVING_SECONDS;
    }
    const created: MinerHolder = Object.freeze({
      uid: minerSlot.uid,
      holderIndex,
      holderKey,
      hotkey,
      coldkey,
      ipAddress,
      stake,
      registeredUnix,
      replacedUnix,
      answersFromUnix,
      answersUntilUnix,
      profile,
    });
    holders.set(holderKey, created);
    return created;
  }

  function holderAt(uid: number, atUnix: number): MinerHolder | undefined {
    const minerSlot = slotsByUid.get(uid);
    if (minerSlot === undefined) return undefined;
    if (minerSlot.tenureDays === undefined) {
      const fixed = holder(minerSlot, 0);
      return atUnix >= fixed.registeredUnix ? fixed : undefined;
    }
    const tenureSeconds = Math.round(minerSlot.tenureDays * 86400);
    const holderIndex = Math.floor((atUnix - churnPhaseUnix(minerSlot)) / tenureSeconds);
    return holderIndex < 0 ? undefined : holder(minerSlot, holderIndex);
  }

  function holdersRegisteredBetween(fromUnix: number, toUnix: number): MinerHolder[] {
    const found: MinerHolder[] = [];
    for (const minerSlot of slots) {
      if (minerSlot.tenureDays === undefined) {
        const fixed = holder(minerSlot, 0);
        if (fixed.registeredUnix >= fromUnix && fixed.registeredUnix <= toUnix) found.push(fixed);
        continue;
      }
      const tenureSeconds = Math.round(minerSlot.tenureDays * 86400);
      const phase = churnPhaseUnix(minerSlot);
      const first = Math.max(0, Math.ceil((fromUnix - phase) / tenureSeconds));
      for (let index = first; phase + index * tenureSeconds <= toUnix; index++) {
        found.push(holder(minerSlot, index));
      }
    }
    return found.sort(
      (first, second) => first.registeredUnix - second.registeredUnix || first.uid - second.uid,
    );
  }

  return { uids, holderAt, holdersRegisteredBetween };
}

/** A 48-character base58 key starting with "5", shaped like an SS58 address. */
function ss58Like(stream: RandomStream): string {
  let key = "5";
  for (let index = 1; index < 48; index++) key += BASE58[stream.integer(BASE58.length)];
  return key;
}
