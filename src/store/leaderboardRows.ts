/**
 * Leaderboard rows in the store: a V2 leaderboard or meta-leaderboard as fetched for a time, one row
 * per miner with its rank.
 */

import { DuckDBDataChunkWriter, type DuckDBConnection } from "@duckdb/node-api";
import type { LeaderboardV2Row } from "../domain/records/leaderboard.ts";
import type { Store } from "./openStore.ts";
import { timestampOfIso, timestampOfUnix } from "./timestamps.ts";

/**
 * One fetched leaderboard: which operation and parameters, for what time, and its rows in the order
 * returned (rank 1 first).
 * @example
 * const entry: LeaderboardEntry = { operation: "/v2/meta-leaderboard/latest", promptName: "crypto-24h", days: 14, asOfUnix: 1772063100, rows };
 */
export interface LeaderboardEntry {
  /** The operation's path in the spec. */
  readonly operation: string;
  /** The competition (`crypto-24h`, or `low`/`high` as sent). */
  readonly promptName: string;
  /** Days of incentives aggregated; 0 for operations without the parameter. */
  readonly days: number;
  /** The time the leaderboard is for (the job's `now`, or the historical `start_time`), Unix seconds. */
  readonly asOfUnix: number;
  readonly rows: readonly LeaderboardV2Row[];
}

const DELETE_LEADERBOARD = `
DELETE FROM leaderboard_rows
WHERE operation = $operation AND prompt_name = $prompt_name AND days = $days AND as_of = $as_of`;

/**
 * Writes `entries` on `connection`, inside a transaction: each leaderboard replaces the rows stored
 * before for the same operation, competition, days and time, so a miner that dropped out does not
 * linger. Ranks are 1-based positions in `rows`. Returns the number of rows written.
 * @example await insertLeaderboards(connection, [entry], runId) // => entry.rows.length
 */
export async function insertLeaderboards(
  connection: DuckDBConnection,
  entries: readonly LeaderboardEntry[],
  runId: number | null,
): Promise<number> {
  if (entries.length === 0) return 0;
  let written = 0;
  const appender = await connection.createAppender("leaderboard_rows");
  try {
    for (const entry of entries) {
      const asOf = timestampOfUnix(entry.asOfUnix);
      await connection.run(DELETE_LEADERBOARD, {
        operation: entry.operation,
        prompt_name: entry.promptName,
        days: entry.days,
        as_of: asOf,
      });
      const writer = DuckDBDataChunkWriter.forAppender(appender);
      entry.rows.forEach((row, index) => {
        writer.appendRow([
          entry.operation,
          entry.promptName,
          entry.days,
          asOf,
          index + 1,
          row.neuron_uid,
          row.rewards,
          timestampOfIso(row.updated_at, `${entry.operation} row ${index}: updated_at`),
          row.coldkey,
          row.ip_address,
          runId === null ? null : BigInt(runId),
        ]);
      });
      writer.flush();
      appender.flushSync();
      written += entry.rows.length;
    }
  } finally {
    appender.closeSync();
  }
  return written;
}

const SELECT_LEADERBOARDS = `SELECT DISTINCT operation, epoch(as_of)::BIGINT FROM leaderboard_rows ORDER BY ALL`;

/**
 * The leaderboards `store` holds, by the operation that gave each and its time (`as_of`, Unix
 * seconds), in order.
 * @example await storedLeaderboards(unitStore) // => [{ operation: "/v2/meta-leaderboard/historical", asOfUnix: 1795341600 }]
 */
export async function storedLeaderboards(
  store: Store,
): Promise<{ operation: string; asOfUnix: number }[]> {
  const rows = await store.withConnection(async (connection) =>
    (await connection.runAndReadAll(SELECT_LEADERBOARDS)).getRowsJS(),
  );
  return rows.map(([operation, asOf]) => ({
    operation: String(operation),
    asOfUnix: Number(asOf),
  }));
}
