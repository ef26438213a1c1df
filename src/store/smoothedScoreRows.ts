/**
 * Smoothed scores and reward weights of a competition at one time into the store, pathlab's next to
 * the service's, in one transaction.
 */

import { DOUBLE, VARCHAR } from "@duckdb/node-api";
import type { Store } from "./openStore.ts";
import { StoreError } from "./storeError.ts";
import { timestampOfUnix } from "./timestamps.ts";

/**
 * One miner's (or the candidate's, `minerUid` −1) smoothed score and reward weight, recomputed
 * and as the service reported them, with the verdict.
 * @example
 * const row: SmoothedScoreEntry = { source: "network", minerUid: 17, smoothedScore: 12.5, rewardWeight: 0.04, serviceSmoothedScore: 12.5, serviceRewardWeight: 0.04, verdict: "agree" };
 */
export interface SmoothedScoreEntry {
  readonly source: "network" | "candidate";
  readonly minerUid: number;
  /** The uid's holder at the update; null when not known. */
  readonly hotkey?: string | null;
  readonly smoothedScore: number | null;
  readonly rewardWeight: number | null;
  readonly serviceSmoothedScore: number | null;
  readonly serviceRewardWeight: number | null;
  /** `agree`, `disagree`, or `not compared`. */
  readonly verdict: string;
}

const DELETE_SMOOTHED = `DELETE FROM smoothed_scores WHERE competition = $competition AND as_of = $as_of`;

const INSERT_SMOOTHED = `
INSERT INTO smoothed_scores (competition, as_of, source, miner_uid, smoothed_score, reward_weight,
  service_smoothed_score, service_reward_weight, verdict, run_id, hotkey)
VALUES ($competition, $as_of, $source, $miner_uid, $smoothed_score, $reward_weight,
 $service_smoothed_score, $service_reward_weight, $verdict, $run_id, $hotkey)`;

/**
 * Replaces the smoothed scores stored for `competition` at `asOfUnix` with `rows`, in one
 * transaction (so a rerun changes no row count). Infinite scores (no scored prompt) are stored as
 * NULL. Throws a {@link StoreError} naming the competition when it fails; nothing is stored then.
 * @example await writeSmoothedScores(store, "crypto-24h", 1772063100, rows, run.id)
 */
export async function writeSmoothedScores(
  store: Store,
  competition: string,
  asOfUnix: number,
  rows: readonly SmoothedScoreEntry[],
  runId: number | null,
): Promise<void> {
  const asOf = timestampOfUnix(asOfUnix);
  try {
    await store.withTransaction(async (connection) => {
      await connection.run(DELETE_SMOOTHED, { competition, as_of: asOf });
      for (const row of rows) {
        await connection.run(
          INSERT_SMOOTHED,
          {
            competition,
            as_of: asOf,
            source: row.source,
            miner_uid: row.minerUid,
            smoothed_score: finiteOrNull(row.smoothedScore),
            reward_weight: finiteOrNull(row.rewardWeight),
            service_smoothed_score: finiteOrNull(row.serviceSmoothedScore),
            service_reward_weight: finiteOrNull(row.serviceRewardWeight),
            verdict: row.verdict,
            run_id: runId === null ? null : BigInt(runId),
            hotkey: row.hotkey ?? null,
          },
          {
            hotkey: VARCHAR,
            smoothed_score: DOUBLE,
            reward_weight: DOUBLE,
            service_smoothed_score: DOUBLE,
            service_reward_weight: DOUBLE,
          },
        );
      }
    });
  } catch (error) {
    throw new StoreError(
      "writeSmoothedScores",
      store.path,
      `smoothed scores of ${competition} at ${new Date(asOfUnix * 1000).toISOString()} were not stored (rolled back): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}
