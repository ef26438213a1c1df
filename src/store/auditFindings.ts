/**
 * The findings of `pathlab audit` in the store (`audit_findings`): each violation it found, with
 * its run.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import type { Store } from "./openStore.ts";
import { timestampOfUnix } from "./timestamps.ts";

/**
 * One finding to store (an `AuditFinding` of the crosscheck layer with its asset and snapshot).
 * @example const row: AuditFindingRow = { asset: "BTC", forecastStartUnix: undefined, operation: "/insights/option-pricing", field: 'call_options["68000"]', check: "put-call parity", size: 7, tolerance: 2, detail: "…" };
 */
export interface AuditFindingRow {
  readonly asset: string;
  /** The snapshot's forecast start, Unix seconds, when known. */
  readonly forecastStartUnix: number | undefined;
  readonly operation: string;
  readonly field: string;
  readonly check: string;
  readonly size: number;
  readonly tolerance: number;
  readonly detail: string;
}

const INSERT = `
INSERT INTO audit_findings
  (run_id, asset, forecast_start_time, operation, field, check_name, size, tolerance, detail)
VALUES ($run_id, $asset, $forecast_start_time, $operation, $field, $check_name, $size, $tolerance, $detail)`;

/**
 * Writes the findings of run `runId` in one transaction.
 * @example await writeAuditFindings(store, run.id, rows);
 */
export async function writeAuditFindings(
  store: Store,
  runId: number,
  rows: readonly AuditFindingRow[],
): Promise<void> {
  await store.withTransaction(async (connection: DuckDBConnection) => {
    for (const row of rows) {
      await connection.run(INSERT, {
        run_id: runId,
        asset: row.asset,
        forecast_start_time:
          row.forecastStartUnix === undefined ? null : timestampOfUnix(row.forecastStartUnix),
        operation: row.operation,
        field: row.field,
        check_name: row.check,
        size: row.size,
        tolerance: row.tolerance,
        detail: row.detail,
      });
    }
  });
}
