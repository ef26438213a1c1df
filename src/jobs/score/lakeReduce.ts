/**
 * The lake's reduce step: what spans units, computed from the units stored. Score units are
 * prompts; the rank history of a competition (every miner's smoothed score, reward weight and rank
 * at each validator update) spans the prompts of its window. `pathlab lake reduce` reads a range's
 * prompts back from the lake and ranks them as `pathlab score` does at the end of its run:
 *
 * - each prompt's pool is the miners the service scored (`service_scores`), each with pathlab's
 *   CRPS where the unit recomputed it (`miner_scores`) and the service's elsewhere, made prompt
 *   scores by the rule of its era (`prompts.score_rule`); a prompt without the service's rows
 *   smooths nothing, as in `score`;
 * - miners are keyed by the uid holders over the range (read from the service, as `score` reads
 *   them), and ranked at each update of the range (`rankHistory`);
 * - their smoothed scores and reward weights at the service's latest update of the range are
 *   compared with the service's (`compareWithService`), as `score` compares them.
 *
 * A candidate that `score --lake --candidate` scored is placed among the miners as `score` places
 * it: its rank history (key −1) and smoothed score are written beside theirs.
 *
 * Both go into the lake as one unit per update (`rank.<competition>.<time>`,
 * `smoothed.<competition>.<time>`), so that a later reduce replaces exactly the updates it
 * computes again and keeps the others. A range is the prompt starts the rows are computed from,
 * as `score --from --to`: the rows equal `score`'s for the same range; without one, the range is
 * the lake's first and last prompt start.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { counted } from "../../domain/counted.ts";
import { COMPETITIONS } from "../../domain/assets.ts";
import type { EraSettings } from "../../domain/eras.ts";
import { isoSeconds } from "../../domain/time.ts";
import { emptyTables, LAKE_MARKER } from "../../store/lake.ts";
import { writeLakeUnit } from "../../store/lakeWrite.ts";
import { readLakePrompts } from "../../store/lakePrompts.ts";
import { lakeTimes } from "../../store/lakeTimes.ts";
import { openStore, type Store } from "../../store/openStore.ts";
import { writeRankHistory, type RankHistoryEntry } from "../../store/rankHistory.ts";
import { writeSmoothedScores, type SmoothedScoreEntry } from "../../store/smoothedScoreRows.ts";
import { isLiveNaming } from "../../service/jobClient.ts";
import { fetchMinerKeys, minerKeysSpan } from "./minerKeys.ts";
import { rangeCompetitions } from "./rangePrompts.ts";
import { rankHistory, updateTimes } from "./rankOverTime.ts";
import { pooledPrompts } from "./scorePromptPool.ts";
import {
  compareWithService,
  smoothedScoreEntries,
  smoothedScoresSelector,
} from "./serviceComparison.ts";
import { promptRangeTooLong } from "../harness/defaults.ts";
import { syncRangeOf } from "../sync/range.ts";
import { UsageError } from "../../service/usageError.ts";
import { runJob, type JobOptions } from "../harness/runJob.ts";
import { lakePool } from "./lakePrompts.ts";

/**
 * Options of {@link runLakeReduce}.
 * @example const options: LakeReduceOptions = { lake: "./lake", from, to, now, seed: 42 };
 */
export interface LakeReduceOptions extends Pick<
  JobOptions,
  "baseUrl" | "apiKey" | "now" | "seed" | "client"
> {
  /** The lake that score units were written into. */
  readonly lake: string;
  /** The range of prompt starts (ISO 8601, both included); default the lake's every prompt. */
  readonly from?: string;
  /** The last prompt start of the range (ISO 8601), included; goes with `from`. */
  readonly to?: string;
  /** The dates of the validator's undated changes (outlier cap, volatility CRPS, format rule). */
  readonly eraSettings?: EraSettings;
}

/**
 * What {@link runLakeReduce} wrote, per competition.
 * @example const [{ competition, updates }] = await runLakeReduce(options);
 */
export interface ReducedCompetition {
  readonly competition: string;
  /** Prompts of the range in the lake, and of them those the service scored. */
  readonly prompts: number;
  readonly scoredPrompts: number;
  readonly updates: number;
  readonly rows: number;
  /**
   * The smoothed scores written: when, of how many miners, how many agree with the service's,
   * and the candidate's (from `score --lake --candidate`) with its rank among them; or why the
   * comparison with the service failed (then none are written).
   */
  readonly smoothed:
    | {
        readonly asOf: string;
        readonly miners: number;
        readonly agreeing: number;
        readonly candidate?: {
          readonly smoothedScore: number;
          readonly rewardWeight: number;
          readonly rank: number;
          readonly of: number;
        };
      }
    | { readonly failure: string };
  /** The lake units written: one per update of the rank history, then the smoothed scores'. */
  readonly units: readonly string[];
}

/**
 * Reduces the lake's score units of the range into rank history and smoothed scores (see the
 * module comment).
 * Throws `UsageError` for a bad range or a folder that is not a lake.
 * @param options - the lake, the range of prompt starts (every prompt by default), and the service
 *   to compare with.
 * @example const reduced = await runLakeReduce({ lake: "./lake", now: "2026-11-20T12:00:00Z" });
 */
export async function runLakeReduce(options: LakeReduceOptions): Promise<ReducedCompetition[]> {
  const range = syncRangeOf(options.from, options.to, "lake reduce", "prompts");
  if (!existsSync(join(options.lake, LAKE_MARKER))) {
    throw new UsageError(
      `lake reduce: --lake ${options.lake}: expected a lake that score units were written into (it has no ${LAKE_MARKER})`,
    );
  }
  const prompts = await readLakePrompts(options.lake, range);
  if (prompts.length === 0) return [];
  const fromUnix = range?.fromUnix ?? Math.min(...prompts.map((prompt) => prompt.startUnix));
  const toUnix = range?.toUnix ?? Math.max(...prompts.map((prompt) => prompt.startUnix));
  const tooLong = promptRangeTooLong("lake reduce", fromUnix, toUnix);
  if (range === undefined && tooLong !== undefined) {
    throw new UsageError(`${tooLong}: the lake's prompts span more; give --from and --to`);
  }
  const settings = options.eraSettings ?? {};
  const definition = { command: "lake reduce", check: () => undefined, writes: "nothing" as const };
  return runJob(definition, options, async (job) => {
    const { client, nowUnix } = job;
    const span = minerKeysSpan(fromUnix, toUnix, nowUnix);
    const keys = await fetchMinerKeys(client, span.fromUnix, span.toUnix);
    const live = isLiveNaming(job.deployment.naming);
    const reduced: ReducedCompetition[] = [];
    for (const competition of rangeCompetitions(fromUnix, toUnix, COMPETITIONS, settings)) {
      const own = prompts.filter((prompt) => prompt.competition === competition.name);
      if (own.length === 0) continue;
      const pools = own.map((prompt) => lakePool(prompt, keys, settings));
      const { network: scored, withCandidate } = pooledPrompts(pools);
      const updates = updateTimes(scored, nowUnix);
      const rows = rankHistory(scored, withCandidate, {
        competition: competition.parameters,
        updates,
        keys,
        settings,
        firstScoredUnix: fromUnix + competition.timeLength,
      });
      const units = await writeByUpdate(options.lake, competition.name, rows);
      // the smoothed scores at the service's latest update of the range, beside the service's;
      // a comparison that fails is reported, as `score` reports it, and the rest goes on
      let smoothed: ReducedCompetition["smoothed"];
      try {
        const comparison = await compareWithService(
          {
            client,
            keys,
            fromUnix,
            toUnix,
            nowUnix,
            eraSettings: settings,
            smoothedParams: smoothedScoresSelector(live),
          },
          competition,
          pools,
          pools.map(() => new Map()),
        );
        const asOfUnix = comparison.asOfUnix ?? updates.at(-1) ?? nowUnix;
        const entries = smoothedScoreEntries(comparison);
        units.push(await writeSmoothed(options.lake, competition.name, asOfUnix, entries));
        smoothed = {
          asOf: isoSeconds(asOfUnix),
          miners: entries.filter((row) => row.source === "network").length,
          agreeing: entries.filter((row) => row.verdict === "agree").length,
          ...(comparison.candidate !== undefined && { candidate: comparison.candidate }),
        };
      } catch (error) {
        smoothed = { failure: error instanceof Error ? error.message : String(error) };
      }
      reduced.push({
        competition: competition.name,
        prompts: own.length,
        scoredPrompts: scored.length,
        updates: updates.length,
        rows: rows.length,
        smoothed,
        units,
      });
    }
    return reduced;
  });
}

/** Writes the smoothed scores of one update as its lake unit; returns the unit's key. */
async function writeSmoothed(
  lake: string,
  competition: string,
  asOfUnix: number,
  rows: readonly SmoothedScoreEntry[],
): Promise<string> {
  const { key, date } = lakeTimes(asOfUnix);
  const unit = { key: `smoothed.${competition}.${key}`, competition, asset: "all", date };
  const store = await openStore(":memory:");
  try {
    await writeSmoothedScores(store, competition, asOfUnix, rows, null);
    await writeLakeUnit(lake, unit, store, ["smoothed_scores"]);
  } finally {
    await store.close();
  }
  return unit.key;
}

/**
 * Writes `rows` as one lake unit per update (`lake compact` merges a date's files); returns the
 * units' keys.
 */
async function writeByUpdate(
  lake: string,
  competition: string,
  rows: readonly RankHistoryEntry[],
): Promise<string[]> {
  const byUpdate = new Map<number, RankHistoryEntry[]>();
  for (const row of rows) {
    const list = byUpdate.get(row.updatedAtUnix) ?? [];
    list.push(row);
    byUpdate.set(row.updatedAtUnix, list);
  }
  const units: string[] = [];
  const store: Store = await openStore(":memory:");
  try {
    for (const [updateUnix, ranked] of byUpdate) {
      const { key, date } = lakeTimes(updateUnix);
      const unit = { key: `rank.${competition}.${key}`, competition, asset: "all", date };
      await emptyTables(store, ["rank_history"]);
      await writeRankHistory(store, competition, ranked, null);
      await writeLakeUnit(lake, unit, store, ["rank_history"]);
      units.push(unit.key);
    }
  } finally {
    await store.close();
  }
  return units;
}

/**
 * The line `pathlab lake reduce` prints per competition.
 * @example reducedLine(reduced[0]) // => "crypto-1h: 7 prompts (2 scored by the service), 2 updates, 35 rows of rank history; smoothed scores of 10 miners at 2026-11-21T09:58:00Z, 10 agreeing with the service's"
 */
export function reducedLine(reduced: ReducedCompetition): string {
  const { smoothed } = reduced;
  return (
    `${reduced.competition}: ${counted(reduced.prompts, "prompt")} (${reduced.scoredPrompts} scored by the service), ` +
    `${counted(reduced.updates, "update")}, ${counted(reduced.rows, "row")} of rank history; ` +
    ("failure" in smoothed
      ? `no smoothed scores: ${smoothed.failure}`
      : `smoothed scores of ${counted(smoothed.miners, "miner")} at ${smoothed.asOf}, ${smoothed.agreeing} agreeing with the service's` +
        (smoothed.candidate === undefined
          ? ""
          : `; candidate: smoothed ${smoothed.candidate.smoothedScore.toFixed(4)}, rank ${smoothed.candidate.rank} of ${smoothed.candidate.of}, reward weight ${smoothed.candidate.rewardWeight.toPrecision(4)}`))
  );
}
