/**
 * The score unit: one prompt of one competition (competition × asset × prompt start), the grain
 * of work that `pathlab enqueue score` puts on a queue and `pathlab worker` runs. A unit is plain
 * data (it crosses Redis as JSON) and carries everything a worker needs to compute the same rows
 * as `pathlab score` would for that prompt: the service to reach (never its key), the service's
 * score rows as planned, the selected miners and the span whose uid holders key them.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { CompetitionName } from "../../domain/competitions.ts";
import { validatorEraAt, type EraSettings } from "../../domain/eras.ts";
import type { Naming } from "../../domain/operation.ts";
import type { ScoreRow } from "../../domain/records/validation.ts";
import type { LakeUnit } from "../../store/lake.ts";
import { writeLakeUnit } from "../../store/lakeWrite.ts";
import { lakeTimes } from "../../store/lakeTimes.ts";
import { openStore, type Store } from "../../store/openStore.ts";
import { SCORED_PROMPT_TABLES } from "../../store/scoredPrompts.ts";
import { AgreementTally } from "./agreement.ts";
import { fetchMinerKeys, minerKeysSpan, type MinerKeys } from "./minerKeys.ts";
import { planRange } from "./rangePrompts.ts";
import { scorePromptPool, type PromptCandidate } from "./scorePromptPool.ts";
import type { CheckedScoreOptions } from "./options.ts";
import { selectedMiners } from "./selectedMiners.ts";
import { storePromptPool } from "./storePrompt.ts";

/**
 * The service a unit is computed against: the embedded sandbox of a seed and clock (each worker
 * starts its own, which answers identically), or a service by its base URL, whose key each worker
 * reads from its own environment (`PATHLAB_API_KEY`).
 * @example const service: UnitService = { kind: "sandbox", seed: 42, now: "2026-11-20T12:00:00Z" };
 */
export type UnitService =
  | {
      readonly kind: "sandbox";
      readonly seed: number;
      readonly now: string;
      /** The sandbox's miners, when fewer than its whole network. */
      readonly miners?: number;
      readonly naming?: Naming;
      readonly paths?: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: "service";
      readonly baseUrl: string;
      readonly naming?: Naming;
      readonly paths?: Readonly<Record<string, string>>;
    };

/**
 * One prompt to score (see the module comment).
 * @example const key = scoreUnitKey(unit); // "score.crypto-24h.BTC.20261120T100000Z"
 */
export interface ScoreUnit {
  readonly kind: "score";
  readonly competition: CompetitionName;
  readonly asset: string;
  readonly startUnix: number;
  readonly timeIncrement: number;
  readonly timeLength: number;
  /** The service's score rows of the prompt, as the enqueuer planned it. */
  readonly rows: readonly ScoreRow[];
  /** The miners recomputed from their path sets; `null`: every miner the service scored. */
  readonly selected: readonly number[] | null;
  readonly ownOnly: boolean;
  /** The span whose uid holders key the miners (the enqueued range, widened as `score` does). */
  readonly keysFromUnix: number;
  readonly keysToUnix: number;
  readonly eraSettings: EraSettings;
  readonly service: UnitService;
}

/**
 * The unit's natural key: the queue's job id and the name of its lake files. Enqueueing the same
 * prompt twice gives the same key.
 * @example scoreUnitKey(unit) // => "score.crypto-24h.BTC.20261120T100000Z"
 */
export function scoreUnitKey(unit: Pick<ScoreUnit, "competition" | "asset" | "startUnix">): string {
  return `score.${unit.competition}.${unit.asset}.${lakeTimes(unit.startUnix).key}`;
}

/**
 * Where the unit's rows go in the lake: its key, competition, asset and the UTC date of its start.
 * @example lakeUnitOf(unit).date // => "2026-11-20"
 */
export function lakeUnitOf(unit: Pick<ScoreUnit, "competition" | "asset" | "startUnix">): LakeUnit {
  return {
    key: scoreUnitKey(unit),
    competition: unit.competition,
    asset: unit.asset,
    date: lakeTimes(unit.startUnix).date,
  };
}

/**
 * The units of a range, as `pathlab score` would score them: the validator's prompts of each
 * competition in force (with the service's rows), and the miners selected once, here, so that
 * every worker scores the same ones (`top:N` reads the meta-leaderboard now).
 * @example const units = await planScoreUnits(client, checked, { nowUnix, assets: undefined, service });
 */
export async function planScoreUnits(
  client: PathlabClient,
  checked: CheckedScoreOptions,
  context: {
    readonly nowUnix: number;
    readonly assets: readonly string[] | undefined;
    readonly service: UnitService;
    readonly eraSettings?: EraSettings;
  },
): Promise<ScoreUnit[]> {
  const eraSettings = context.eraSettings ?? {};
  const planned = await planRange(client, checked, {
    nowUnix: context.nowUnix,
    assets: context.assets,
    settings: eraSettings,
  });
  const { fromUnix: keysFromUnix, toUnix: keysToUnix } = minerKeysSpan(
    checked.fromUnix,
    checked.toUnix,
    context.nowUnix,
  );
  const units: ScoreUnit[] = [];
  for (const { competition, prompts } of planned) {
    const selected = (await selectedMiners(client, checked.miners, competition.name)) ?? null;
    for (const prompt of prompts.prompts) {
      units.push({
        kind: "score",
        competition: prompt.competition,
        asset: prompt.asset,
        startUnix: prompt.startUnix,
        timeIncrement: prompt.timeIncrement,
        timeLength: prompt.timeLength,
        rows: prompt.rows,
        selected,
        ownOnly: checked.ownOnly,
        keysFromUnix,
        keysToUnix,
        eraSettings,
        service: context.service,
      });
    }
  }
  return units;
}

/**
 * The uid holders of a span, fetched once per span and kept for the units that share it.
 * @example const keys = await keyCache.get(client, unit.keysFromUnix, unit.keysToUnix);
 */
export class MinerKeysCache {
  /** Spans kept, the most recently used last (a watch makes a new span at every tick). */
  private static readonly LIMIT = 8;
  private readonly entries = new Map<string, Promise<MinerKeys>>();

  get(client: PathlabClient, fromUnix: number, toUnix: number): Promise<MinerKeys> {
    const key = `${fromUnix}|${toUnix}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = fetchMinerKeys(client, fromUnix, toUnix);
      // A failed fetch is not kept: the next unit asks again.
      entry.catch(() => this.entries.delete(key));
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MinerKeysCache.LIMIT) break;
      this.entries.delete(oldest);
    }
    return entry;
  }
}

/** No candidate on the prompt: a plain score unit. */
const NO_CANDIDATE: PromptCandidate = { takesPart: false, file: undefined, pathSet: undefined };

/**
 * Runs one unit: pools and scores its prompt exactly as `pathlab score` does (on this thread) and
 * stores it into `store` under its natural key (no run id: a unit belongs to no run). Resolves to
 * the count of miners scored.
 * @param unit - the prompt and how to score it.
 * @param context - the service's client, the store, the uid holders' cache, and the candidate on
 *   the prompt (a backtest unit's answer; none by default).
 * @example await runScoreUnit(unit, { client, store, keys });
 */
export async function runScoreUnit(
  unit: Omit<ScoreUnit, "kind">,
  context: {
    readonly client: PathlabClient;
    readonly store: Store;
    readonly keys: MinerKeysCache;
    readonly candidate?: PromptCandidate;
    readonly signal?: AbortSignal;
  },
): Promise<number> {
  const { client } = context;
  const keys = await context.keys.get(client, unit.keysFromUnix, unit.keysToUnix);
  const scoredTimeUnix = unit.startUnix + unit.timeLength;
  const prompt = {
    competition: unit.competition,
    asset: unit.asset,
    startUnix: unit.startUnix,
    scoredTimeUnix,
    timeIncrement: unit.timeIncrement,
    timeLength: unit.timeLength,
    rows: unit.rows,
    era: validatorEraAt(scoredTimeUnix, unit.eraSettings),
  };
  const scored = await scorePromptPool(
    {
      client,
      scoringThreads: undefined,
      keys,
      ownOnly: unit.ownOnly,
      selected: unit.selected ?? undefined,
      eraSettings: unit.eraSettings,
    },
    prompt,
    context.candidate ?? NO_CANDIDATE,
  );
  await storePromptPool(context.store, scored, {
    keys,
    tally: new AgreementTally(),
    runId: null,
    signal: context.signal,
  });
  return scored.network.length;
}

/**
 * Runs one unit into the lake: scored into a store of its own in memory (`runScoreUnit`), then
 * written as the unit's files (a backtest unit's with its candidate: the same files, one more
 * miner). Resolves to the rows written.
 * @example const { rows } = await runScoreUnitIntoLake(unit, { client, keys, lake: "./lake" });
 */
export async function runScoreUnitIntoLake(
  unit: Omit<ScoreUnit, "kind">,
  context: {
    readonly client: PathlabClient;
    readonly keys: MinerKeysCache;
    readonly lake: string;
    readonly candidate?: PromptCandidate;
  },
): Promise<{ rows: number }> {
  const store = await openStore(":memory:");
  try {
    const { client, keys, candidate } = context;
    await runScoreUnit(unit, {
      client,
      store,
      keys,
      ...(candidate !== undefined && { candidate }),
    });
    const rows = await writeLakeUnit(context.lake, lakeUnitOf(unit), store, SCORED_PROMPT_TABLES);
    return { rows: Object.values(rows).reduce((sum, count) => sum + count, 0) };
  } finally {
    await store.close();
  }
}
