/**
 * A competition's rank history into the store: every miner's (and the candidate's) smoothed
 * score, reward weight and rank at each validator update of a scored range, through a DuckDB
 * appender (one data chunk per 2,048 rows), in one transaction.
 */

import { DuckDBDataChunkWriter } from "@duckdb/node-api";
import { rethrowNotStored } from "./notStored.ts";
import type { Store } from "./openStore.ts";
import { timestampOfUnix } from "./timestamps.ts";

/**
 * One line of the rank history: who, when, and where it stood.
 * @example const row: RankHistoryEntry = { updatedAtUnix: 1784160120, source: "network", minerUid: 17, hotkey: "5F…", rank: 3, of: 41, smoothedScore: 12.5, rewardWeight: 0.021, windowInRange: true };
 */
export interface RankHistoryEntry {
  readonly updatedAtUnix: number;
  /** `network` for a miner, `candidate` for the user's model (`minerUid` −1). */
  readonly source: "network" | "candidate";
  readonly minerUid: number;
  readonly hotkey: string | null;
  /** 1 = highest reward weight; the candidate's rank is among the network's miners. */
  readonly rank: number;
  /** Miners ranked at that update (the candidate included when it is ranked). */
  readonly of: number;
  readonly smoothedScore: number;
  readonly rewardWeight: number;
  /**
   * Whether the update's window lies within the range's scored prompts; when not, the prompts the
   * validator scored before the range are missing from it.
   */
  readonly windowInRange: boolean;
}

const DELETE_RANGE = `
DELETE FROM rank_history
WHERE competition = $competition AND updated_at >= $first AND updated_at <= $last`;

/**
 * Replaces the rank history of `competition` between the first and the last update of `rows` with
 * `rows`, in one transaction (a rerun of the range changes no row count). Throws a
 * {@link StoreError} naming the competition when it fails; nothing is stored then.
 * @example await writeRankHistory(store, "crypto-1h", rows, run.id)
 */
export async function writeRankHistory(
  store: Store,
  competition: string,
  rows: readonly RankHistoryEntry[],
  runId: number | null,
  signal?: AbortSignal,
): Promise<void> {
  if (rows.length === 0) return;
  let first = Infinity;
  let last = -Infinity;
  for (const row of rows) {
    first = Math.min(first, row.updatedAtUnix);
    last = Math.max(last, row.updatedAtUnix);
  }
  try {
    await store.withTransaction(async (connection) => {
      await connection.run(DELETE_RANGE, {
        competition,
        first: timestampOfUnix(first),
        last: timestampOfUnix(last),
      });
      const appender = await connection.createAppender("rank_history");
      try {
        const writer = DuckDBDataChunkWriter.forAppender(appender);
        const run = runId === null ? null : BigInt(runId);
        for (const row of rows) {
          writer.appendRow([
            competition,
            timestampOfUnix(row.updatedAtUnix),
            row.source,
            row.minerUid,
            row.hotkey,
            row.rank,
            row.of,
            row.smoothedScore,
            row.rewardWeight,
            row.windowInRange,
            run,
          ]);
        }
        writer.flush();
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    }, signal);
  } catch (error) {
    rethrowNotStored(
      error,
      signal,
      "writeRankHistory",
      store.path,
      `the ${competition} rank history`,
    );
  }
}
