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
 *   them), and ranked at each update of the range (`rankHistory`).
 *
 * The rows go into the lake as one unit per competition and UTC date of the updates
 * (`rank.<competition>.<YYYYMMDD>`), so that a second reduce of the same range replaces them; a
 * reduce of a shorter range replaces the dates it covers with the updates it computed.
 */

import { COMPETITIONS } from "../../spec/assets.ts";
import type { EraSettings } from "../../spec/eras.ts";
import type { PromptScoreRule } from "../../scoring/promptScores.ts";
import { promptScores } from "../../scoring/promptScores.ts";
import type { ScoredPrompt } from "../../scoring/smoothedScores.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { lakeTimes, LAKE_MARKER, openLake, writeLakeUnit } from "../../store/lake.ts";
import { openStore, type Store } from "../../store/openStore.ts";
import { queryRows } from "../../store/queryRows.ts";
import { writeRankHistory, type RankHistoryEntry } from "../../store/rankHistory.ts";
import { SyncUsageError } from "../syncUsageError.ts";
import { fetchMinerKeys, type MinerKeys } from "../score/minerKeys.ts";
import { rangeCompetitions } from "../score/rangePrompts.ts";
import { rankHistory, updateTimes } from "../score/rankOverTime.ts";
import { scoredPromptOf } from "../score/scorePromptPool.ts";
import { syncRangeOf } from "../syncRange.ts";
import { withUnitService, type EnqueueScoreOptions } from "./enqueue.ts";

/** The longest smoothing window (days): uid holders are read this far before the range, as `score`. */
const LONGEST_WINDOW_DAYS = 10;

/**
 * Options of {@link runLakeReduce}.
 * @example const options: LakeReduceOptions = { lake: "./lake", from, to, now, seed: 42 };
 */
export interface LakeReduceOptions extends Pick<
  EnqueueScoreOptions,
  "baseUrl" | "apiKey" | "now" | "seed" | "client"
> {
  readonly lake: string;
  /** The range of prompt starts (ISO 8601, both included); default the lake's every prompt. */
  readonly from?: string;
  readonly to?: string;
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
  /** The lake units written, one per UTC date of the updates. */
  readonly units: readonly string[];
}

/** One prompt of the lake, with its pool's raw CRPS. */
interface LakePrompt {
  competition: string;
  asset: string;
  startUnix: number;
  scoredTimeUnix: number;
  timeLength: number;
  rule: PromptScoreRule;
  uids: number[];
  raw: number[];
}

/**
 * Reduces the lake's score units of the range into rank history (see the module comment).
 * Throws `SyncUsageError` for a bad range or a folder that is not a lake.
 * @example const reduced = await runLakeReduce({ lake: "./lake", now: "2026-11-20T12:00:00Z" });
 */
export async function runLakeReduce(options: LakeReduceOptions): Promise<ReducedCompetition[]> {
  const range = syncRangeOf(options.from, options.to, "lake reduce");
  if (!existsSync(join(options.lake, LAKE_MARKER))) {
    throw new SyncUsageError(
      `lake reduce: --lake ${options.lake}: expected a lake that score units were written into (it has no ${LAKE_MARKER})`,
    );
  }
  const prompts = await readPrompts(options.lake, range);
  if (prompts.length === 0) return [];
  const fromUnix = range?.fromUnix ?? Math.min(...prompts.map((prompt) => prompt.startUnix));
  const toUnix = range?.toUnix ?? Math.max(...prompts.map((prompt) => prompt.startUnix));
  const settings = options.eraSettings ?? {};
  return withUnitService(options, async ({ client, nowUnix }) => {
    const keys = await fetchMinerKeys(
      client,
      fromUnix - LONGEST_WINDOW_DAYS * 86400,
      Math.min(nowUnix, toUnix + 86400 + 3600),
    );
    const reduced: ReducedCompetition[] = [];
    for (const competition of rangeCompetitions(fromUnix, toUnix, COMPETITIONS, settings)) {
      const own = prompts.filter((prompt) => prompt.competition === competition.name);
      if (own.length === 0) continue;
      const scored = own.flatMap((prompt) => scoredPromptsOf(prompt, keys));
      const updates = updateTimes(scored, nowUnix);
      const rows = rankHistory(scored, undefined, {
        competition: competition.parameters,
        updates,
        keys,
        settings,
        firstScoredUnix: fromUnix + competition.timeLength,
      });
      const units = await writeByDate(options.lake, competition.name, rows);
      reduced.push({
        competition: competition.name,
        prompts: own.length,
        scoredPrompts: scored.length,
        updates: updates.length,
        rows: rows.length,
        units,
      });
    }
    return reduced;
  });
}

/** A prompt with the service's rows as the validator pooled it; none without them. */
function scoredPromptsOf(prompt: LakePrompt, keys: MinerKeys): ScoredPrompt[] {
  if (prompt.uids.length === 0) return [];
  const pooled = promptScores(prompt.raw, { rule: prompt.rule });
  const scored = scoredPromptOf(
    { scoredTimeUnix: prompt.scoredTimeUnix, asset: prompt.asset, worstScore: pooled?.worstScore },
    prompt.uids.map((uid) => keys.keyAt(uid, prompt.startUnix)),
    pooled?.scores,
  );
  return scored.minerScores.length > 0 ? [scored] : [];
}

/** The lake's prompts of the range, each with its pool: the service's miners, pathlab's CRPS first. */
async function readPrompts(
  lake: string,
  range: { fromUnix: number; toUnix: number } | undefined,
): Promise<LakePrompt[]> {
  const store = await openLake(lake);
  try {
    const within =
      range === undefined
        ? "true"
        : `p.start_time BETWEEN to_timestamp(${range.fromUnix})::TIMESTAMP AND to_timestamp(${range.toUnix})::TIMESTAMP`;
    const { rows } = await queryRows(
      store,
      `SELECT p.competition, p.asset, epoch(p.start_time)::BIGINT::DOUBLE AS start,
         epoch(p.scored_time)::BIGINT::DOUBLE AS scored, p.time_length::DOUBLE, p.score_rule,
         list(s.miner_uid ORDER BY s.miner_uid) FILTER (WHERE s.miner_uid IS NOT NULL),
         list(coalesce(m.crps, s.crps) ORDER BY s.miner_uid) FILTER (WHERE s.miner_uid IS NOT NULL)
       FROM prompts p
       LEFT JOIN service_scores s USING (asset, time_increment, time_length, start_time)
       LEFT JOIN miner_scores m ON m.asset = s.asset AND m.time_increment = s.time_increment
         AND m.time_length = s.time_length AND m.start_time = s.start_time
         AND m.miner_uid = s.miner_uid AND m.source <> 'candidate'
       WHERE ${within}
       GROUP BY ALL ORDER BY start, p.asset`,
    );
    return rows.map((row) => {
      const [competition, asset, start, scored, timeLength, rule, uids, raw] = row as [
        string,
        string,
        number,
        number,
        number,
        PromptScoreRule,
        number[] | null,
        number[] | null,
      ];
      return {
        competition,
        asset,
        startUnix: start,
        scoredTimeUnix: scored,
        timeLength,
        rule,
        uids: uids ?? [],
        raw: raw ?? [],
      };
    });
  } finally {
    await store.close();
  }
}

/** Writes `rows` as one lake unit per UTC date of their updates; returns the units' keys. */
async function writeByDate(
  lake: string,
  competition: string,
  rows: readonly RankHistoryEntry[],
): Promise<string[]> {
  const byDate = new Map<string, RankHistoryEntry[]>();
  for (const row of rows) {
    const date = lakeTimes(row.updatedAtUnix).date;
    const list = byDate.get(date) ?? [];
    list.push(row);
    byDate.set(date, list);
  }
  const units: string[] = [];
  const store: Store = await openStore(":memory:");
  try {
    for (const [date, dated] of byDate) {
      const key = `rank.${competition}.${date.replaceAll("-", "")}`;
      await store.withConnection((connection) => connection.run("DELETE FROM rank_history"));
      await writeRankHistory(store, competition, dated, null);
      await writeLakeUnit(lake, { key, competition, asset: "all", date }, store, ["rank_history"]);
      units.push(key);
    }
  } finally {
    await store.close();
  }
  return units;
}

/**
 * The line `pathlab lake reduce` prints per competition.
 * @example reducedLine(reduced[0]) // => "crypto-24h: 49 prompts (49 scored by the service), 49 updates, 2450 rows of rank history in 2 units"
 */
export function reducedLine(reduced: ReducedCompetition): string {
  return (
    `${reduced.competition}: ${reduced.prompts} prompts (${reduced.scoredPrompts} scored by the service), ` +
    `${reduced.updates} updates, ${reduced.rows} rows of rank history in ${reduced.units.length} units` +
    (reduced.units.length > 0 ? ` (${reduced.units[0]} …)` : "")
  );
}
