/**
 * One unit of the sync (asset × horizon × the service's forecast start): the service's records,
 * the top-10 path sets at their `forecast_start_time`, the recomputation and cross-check
 * (`fetchCheckedUnit`), and one transaction in the store. Shared by the sync job and its tests;
 * the steps are docs/architecture.md's (plan → unit → reduce).
 */

import type { Store } from "../../store/openStore.ts";
import { writeUnit } from "../../store/writeUnit.ts";
import { fetchCheckedUnit, type CheckedUnit, type UnitCheckContext } from "./checkedUnit.ts";
import { emptyUnitSummary, messageOf, unitFailure } from "./unitResults.ts";
import type { UnitSummary } from "./summary.ts";

/**
 * What {@link syncUnit} works with: what `fetchCheckedUnit` does, and the store.
 * @example
 * const summary = await syncUnit({ client, store, runId: run.id, plan, ranking, asOfUnix, onFailure });
 */
export interface SyncUnitContext extends UnitCheckContext {
  readonly store: Store;
  /**
   * Runs once the unit is written, with its forecast start (Unix seconds): `sync --lake` moves
   * the unit into the lake there. Its failure is the unit's failure to store.
   */
  readonly afterWrite?: (startUnix: number) => Promise<void>;
}

/**
 * Runs one unit: steps (1)–(5) by `fetchCheckedUnit`, then (6) path sets, records, cross-check
 * rows, venue comparisons and the leaderboard written in one transaction (`writeCheckedUnit`).
 * Failures of one record or one path set are reported through `onFailure` and the rest goes on;
 * a unit without a forecast start, ranking or ensemble, or whose write fails, stores nothing. Never
 * throws for the service's or the store's failures: they are in the summary.
 * @example
 * const unit = await syncUnit(context);
 * unit.status // => "stored"
 */
export async function syncUnit(context: SyncUnitContext): Promise<UnitSummary> {
  return writeCheckedUnit(context, await fetchCheckedUnit(context));
}

/**
 * Step (6) of a unit: writes the rows of `checked` (when it has any) in one transaction, then runs
 * `afterWrite`. Resolves to the unit's summary: `checked`'s, with the write's time added; `failed`
 * with one failure of stage `store` when the write or `afterWrite` fails (nothing of the unit is
 * then in the store); `interrupted` when `signal` aborted (the open transaction rolled back).
 * @example const unit = await writeCheckedUnit({ store, plan, onFailure }, checked);
 */
export async function writeCheckedUnit(
  context: Pick<SyncUnitContext, "store" | "afterWrite" | "signal" | "plan" | "onFailure">,
  checked: CheckedUnit,
): Promise<UnitSummary> {
  const { summary, rows } = checked;
  if (rows === undefined) return summary;
  const started = performance.now();
  const durationMs = () => summary.durationMs + Math.round(performance.now() - started);
  // a unit that stored nothing counts nothing but its start and failures, as `fetchCheckedUnit`'s
  const empty = (status: UnitSummary["status"], failures: number): UnitSummary => ({
    ...emptyUnitSummary(context.plan, status),
    forecastStartTime: summary.forecastStartTime,
    failures,
    durationMs: durationMs(),
  });
  try {
    context.signal?.throwIfAborted();
    await writeUnit(context.store, rows, context.signal);
    await context.afterWrite?.(rows.forecastStartTimeUnix);
    return { ...summary, durationMs: durationMs() };
  } catch (error) {
    if (context.signal?.aborted) return empty("interrupted", summary.failures);
    context.onFailure(unitFailure(context.plan, "store", `unit not stored: ${messageOf(error)}`));
    return empty("failed", summary.failures + 1);
  }
}
