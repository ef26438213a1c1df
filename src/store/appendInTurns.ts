/**
 * Appends that leave the event loop its turns. A job's store is written on the job's thread,
 * which also hands the unit pool its next unit and answers the pool's threads (their turns in the
 * fetch lane, their rankings). An appender's flush runs synchronously: one flush of a unit's rows
 * (ten path sets, thousands of cross-checks) would hold that thread for a tenth of a second and
 * more, while a pool thread waits on it. So the writers flush in parts, and let the event loop
 * run between them: the same rows, in the same order, in the same transaction.
 */

import {
  DuckDBDataChunkWriter,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBValue,
} from "@duckdb/node-api";

/**
 * Rows of a table of small rows (cross-checks, insight values) appended between two turns: one of
 * DuckDB's data chunks. A 24h unit has about 11,000 cross-checks; its last flush, of a part,
 * took 37–82 ms in a replay of the quick-start sync, the others 2–7 ms each. Flushed in parts, the
 * replay's peak was lower too (medians of five: 739 against 795 MB with the path sets' parts alone).
 * @example ROWS_PER_TURN // => 2048
 */
export const ROWS_PER_TURN = 2048;

/**
 * Flushes what `appender` holds into its table, then waits for the event loop to run once
 * (`setImmediate`: the messages and I/O that came meanwhile are handled first).
 * @example await flushInTurn(appender);
 */
export async function flushInTurn(appender: Pick<DuckDBAppender, "flushSync">): Promise<void> {
  appender.flushSync();
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Appends `rows` to `table` on `connection` (inside the caller's transaction), flushing every
 * {@link ROWS_PER_TURN} rows with a turn of the event loop between the parts, then the rest; the
 * rows are taken from the iterable as they are appended. Returns the number of rows.
 * @example await appendRowsInTurns(connection, "crosschecks", rowsOf(entries));
 */
export async function appendRowsInTurns(
  connection: DuckDBConnection,
  table: string,
  rows: Iterable<readonly (DuckDBValue | null)[]>,
): Promise<number> {
  const appender = await connection.createAppender(table);
  let count = 0;
  try {
    const writer = DuckDBDataChunkWriter.forAppender(appender);
    for (const row of rows) {
      writer.appendRow(row);
      if (++count % ROWS_PER_TURN === 0) {
        writer.flush();
        await flushInTurn(appender);
      }
    }
    writer.flush();
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return count;
}
