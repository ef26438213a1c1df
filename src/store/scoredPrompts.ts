/**
 * One scored prompt into the store, in one transaction: its `prompts` row, realized prices, the
 * service's score rows, pathlab's scores per miner (and candidate) and their calibration rows; and
 * the prompts a store holds already.
 */

import { DOUBLE, LIST, VARCHAR, listValue, type DuckDBConnection } from "@duckdb/node-api";
import type { CompetitionName } from "../domain/competitions.ts";
import type { ScoreRow } from "../domain/records/validation.ts";
import { rethrowNotStored } from "./notStored.ts";
import type { Store } from "./openStore.ts";
import { timestampOfIso, timestampOfUnix } from "./timestamps.ts";

/**
 * The calibration of one path set on one prompt, as the store keeps it (the scoring layer's
 * `PromptCalibration` has this shape): PIT counts, central-interval levels with covered counts and
 * width sums, and CRPS per step in basis points.
 * @example const row: CalibrationRow = minerScore.calibration!;
 */
export interface CalibrationRow {
  readonly horizon: string;
  readonly nPaths: number;
  readonly observedPoints: number;
  readonly pitCounts: readonly number[];
  readonly levels: readonly number[];
  readonly coveredCounts: readonly number[];
  readonly widthSums: readonly number[];
  readonly relativeWidthSumsBps: readonly number[];
  readonly stepCrpsBps: readonly number[];
}

/**
 * pathlab's score of one path set on a prompt, with the service's numbers it was compared with.
 * @example
 * const row: MinerScoreEntry = { source: "network", minerUid: 17, crps: 812.5, intervals: { "5min": 3.1 }, promptScore: 12, invalidReason: null, serviceCrps: 812.5, servicePromptScore: 12, verdict: "agree", calibration: undefined };
 */
export interface MinerScoreEntry {
  /**
   * `network`: pathlab recomputed the miner's CRPS from its path set; `service`: the path set was
   * not available (not served, unreadable, past retention, `--own-only`) and the CRPS is the
   * service's; `candidate`: the user's model (`minerUid` −1).
   */
  readonly source: "network" | "service" | "candidate";
  readonly minerUid: number;
  /** The uid's holder when the prompt was asked; null when not known. */
  readonly hotkey?: string | null;
  /** Prompt CRPS; −1 when the path set is invalid or the total is not finite. */
  readonly crps: number;
  /** The price part of the CRPS and the volatility part (crypto-1h, the validator's dated rules); null when not computed. */
  readonly priceCrps?: number | null;
  readonly volatilityCrps?: number | null;
  /** CRPS sum of each scoring interval (empty when not scored). */
  readonly intervals: Readonly<Record<string, number>>;
  readonly promptScore: number | null;
  /** Why the path set was rejected (the validator's reason string), or null. */
  readonly invalidReason: string | null;
  readonly serviceCrps: number | null;
  readonly servicePromptScore: number | null;
  /** `agree`, `disagree`, or `not compared`. */
  readonly verdict: string;
  /** Its calibration row, when it has valid prices. */
  readonly calibration: CalibrationRow | undefined;
}

/**
 * Everything stored for one prompt.
 * @example
 * const entry: ScoredPromptEntry = { asset: "BTC", timeIncrement: 300, timeLength: 86400, startTimeUnix: 1772063100, competition: "crypto-24h", scoreRule: "current", realizedPrices: [100, null], serviceRows: [], minerScores: [] };
 */
export interface ScoredPromptEntry {
  readonly asset: string;
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly startTimeUnix: number;
  readonly competition: string;
  /** The prompt-score rule in force when it was scored (`legacy-p90` or `current`). */
  readonly scoreRule: string;
  /**
   * The realized path's `real_prices` as returned (null where missing); absent when nothing was
   * recomputed (an own-only prompt without the candidate), and then not stored.
   */
  readonly realizedPrices?: readonly (number | null)[];
  /** The service's score rows of the prompt. */
  readonly serviceRows: readonly ScoreRow[];
  readonly minerScores: readonly MinerScoreEntry[];
}

/**
 * The tables one scored prompt writes, in the order it writes them.
 * @example SCORED_PROMPT_TABLES.includes("miner_scores") // => true
 */
export const SCORED_PROMPT_TABLES: readonly string[] = [
  "prompts",
  "realized_prices",
  "service_scores",
  "miner_scores",
  "calibration",
];

const INSERT_PROMPT = `
INSERT INTO prompts VALUES
($asset, $time_increment, $time_length, $start_time, $competition, $scored_time, $score_rule, $run_id)`;

const INSERT_REALIZED = `
INSERT INTO realized_prices VALUES ($asset, $time_increment, $time_length, $start_time, $prices, $run_id)`;

const INSERT_SERVICE_SCORE = `
INSERT INTO service_scores VALUES
($asset, $time_increment, $time_length, $start_time, $miner_uid, $crps, $prompt_score, $scored_time, $run_id)`;

const INSERT_MINER_SCORE = `
INSERT INTO miner_scores (asset, time_increment, time_length, start_time, source, miner_uid, crps,
  intervals, prompt_score, invalid_reason, service_crps, service_prompt_score, verdict, run_id,
  hotkey, price_crps, volatility_crps)
VALUES ($asset, $time_increment, $time_length, $start_time, $source, $miner_uid, $crps, $intervals,
 $prompt_score, $invalid_reason, $service_crps, $service_prompt_score, $verdict, $run_id, $hotkey,
 $price_crps, $volatility_crps)`;

const INSERT_CALIBRATION = `
INSERT INTO calibration VALUES
($asset, $time_increment, $time_length, $start_time, $source, $miner_uid, $horizon, $n_paths,
 $observed_points, $pit_counts, $levels, $covered_counts, $width_sums, $relative_width_sums_bps,
 $step_crps_bps, $run_id)`;

const DOUBLE_LIST = LIST(DOUBLE);

/**
 * Writes `entry` in one transaction, replacing whatever was stored before for the same prompt
 * (its natural key: asset, time increment, time length, start time), so writing the same prompt
 * twice changes no row count. On failure nothing of the prompt is stored and a {@link StoreError}
 * naming the prompt is thrown, with the original as `cause`. When `signal` has aborted by the time
 * every row is written, the transaction is rolled back and the signal's reason rethrown as it is.
 * @example await writeScoredPrompt(store, entry, run.id)
 */
export async function writeScoredPrompt(
  store: Store,
  entry: ScoredPromptEntry,
  runId: number | null,
  signal?: AbortSignal,
): Promise<void> {
  const label = `prompt ${entry.asset} ${entry.timeIncrement}/${entry.timeLength} ${new Date(entry.startTimeUnix * 1000).toISOString()}`;
  try {
    await store.withTransaction(async (connection) => {
      const key = {
        asset: entry.asset,
        time_increment: entry.timeIncrement,
        time_length: entry.timeLength,
        start_time: timestampOfUnix(entry.startTimeUnix),
      };
      const run_id = runId === null ? null : BigInt(runId);
      for (const table of SCORED_PROMPT_TABLES) await deleteKey(connection, table, key);
      await connection.run(INSERT_PROMPT, {
        ...key,
        competition: entry.competition,
        scored_time: timestampOfUnix(entry.startTimeUnix + entry.timeLength),
        score_rule: entry.scoreRule,
        run_id,
      });
      if (entry.realizedPrices !== undefined) {
        await connection.run(
          INSERT_REALIZED,
          { ...key, prices: listValue([...entry.realizedPrices]), run_id },
          { prices: DOUBLE_LIST },
        );
      }
      for (const row of entry.serviceRows) {
        await connection.run(INSERT_SERVICE_SCORE, {
          ...key,
          miner_uid: row.miner_uid,
          crps: row.crps,
          prompt_score: row.prompt_score,
          scored_time: timestampOfIso(row.scored_time, `${label}: scored_time`),
          run_id,
        });
      }
      for (const score of entry.minerScores) {
        await connection.run(
          INSERT_MINER_SCORE,
          {
            ...key,
            source: score.source,
            miner_uid: score.minerUid,
            crps: score.crps,
            intervals: JSON.stringify(score.intervals),
            prompt_score: score.promptScore,
            invalid_reason: score.invalidReason,
            service_crps: score.serviceCrps,
            service_prompt_score: score.servicePromptScore,
            verdict: score.verdict,
            run_id,
            hotkey: score.hotkey ?? null,
            price_crps: score.priceCrps ?? null,
            volatility_crps: score.volatilityCrps ?? null,
          },
          {
            prompt_score: DOUBLE,
            service_crps: DOUBLE,
            service_prompt_score: DOUBLE,
            hotkey: VARCHAR,
            price_crps: DOUBLE,
            volatility_crps: DOUBLE,
          },
        );
        const calibration = score.calibration;
        if (calibration === undefined || score.source === "service") continue;
        await connection.run(
          INSERT_CALIBRATION,
          {
            ...key,
            source: score.source,
            miner_uid: score.minerUid,
            horizon: calibration.horizon,
            n_paths: calibration.nPaths,
            observed_points: calibration.observedPoints,
            pit_counts: listValue([...calibration.pitCounts]),
            levels: listValue([...calibration.levels]),
            covered_counts: listValue([...calibration.coveredCounts]),
            width_sums: listValue([...calibration.widthSums]),
            relative_width_sums_bps: listValue([...calibration.relativeWidthSumsBps]),
            step_crps_bps: listValue([...calibration.stepCrpsBps]),
            run_id,
          },
          {
            pit_counts: DOUBLE_LIST,
            levels: DOUBLE_LIST,
            covered_counts: DOUBLE_LIST,
            width_sums: DOUBLE_LIST,
            relative_width_sums_bps: DOUBLE_LIST,
            step_crps_bps: DOUBLE_LIST,
          },
        );
      }
    }, signal);
  } catch (error) {
    rethrowNotStored(error, signal, "writeScoredPrompt", store.path, label);
  }
}

async function deleteKey(
  connection: DuckDBConnection,
  table: string,
  key: Record<string, unknown>,
): Promise<void> {
  await connection.run(
    `DELETE FROM ${table} WHERE asset = $asset AND time_increment = $time_increment
       AND time_length = $time_length AND start_time = $start_time`,
    key as never,
  );
}

const SELECT_PROMPT_STARTS = `SELECT DISTINCT competition, asset, epoch(start_time)::BIGINT FROM prompts`;

/**
 * The competition, asset and start (Unix seconds) of every prompt `store` holds, in no particular
 * order.
 * @example (await storedPromptStarts(store))[0] // => { competition: "crypto-24h", asset: "BTC", startUnix: 1795176000 }
 */
export async function storedPromptStarts(
  store: Store,
): Promise<{ competition: CompetitionName; asset: string; startUnix: number }[]> {
  const rows = await store.withConnection(async (connection) =>
    (await connection.runAndReadAll(SELECT_PROMPT_STARTS)).getRowsJS(),
  );
  return rows.map(([competition, asset, startUnix]) => ({
    competition: competition as CompetitionName,
    asset: String(asset),
    startUnix: Number(startUnix),
  }));
}
