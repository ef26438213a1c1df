/**
 * `pathlab sync --watch`: one process that keeps a database (or a lake) current with the service's
 * forecasts. Every few seconds a tick runs a sync that leaves out the units already stored
 * (`skipStored`: only their service records, to learn their forecast start, and their
 * competition's leaderboard are fetched), so each forecast start is stored once, across restarts
 * too. A sync unit is the service's latest forecast of an asset and horizon, so a watch down
 * longer than the prompt cadence misses the forecasts in between (the service's insights have no
 * history to fetch them from). Stops cleanly on its signal: a tick under way ends as an
 * interrupted run (its stored units kept, the one being written rolled back), and no tick starts
 * after it.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { prepareLake } from "../../store/lake.ts";
import { runSync } from "./sync.ts";
import type { SyncOptions } from "./options.ts";
import type { SyncSummary } from "./summary.ts";
import { UsageError } from "../../service/usageError.ts";

/**
 * What {@link runSyncWatch} needs: the options of `runSync` and the cadence.
 * @example const options: SyncWatchOptions = { assets: ["BTC"], everySeconds: 60, signal };
 */
export interface SyncWatchOptions extends Omit<SyncOptions, "skipStored" | "record" | "replay"> {
  /** Seconds from the end of one tick to the start of the next. */
  readonly everySeconds: number;
  /** After each tick, with its summary. */
  readonly onTick?: (summary: SyncSummary) => void;
  /** A tick that failed as a whole (the database locked by another writer, say): the watch goes on. */
  readonly onProblem?: (message: string) => void;
}

/**
 * Runs ticks until `signal` aborts (see the module comment). Throws `UsageError` for options
 * that cannot work (at the first tick) and a `StoreError` for a lake's folder that holds other
 * files. Resolves to the ticks run (an interrupted one included) and the units they stored.
 * @example await runSyncWatch({ everySeconds: 60, signal });
 */
export async function runSyncWatch(
  options: SyncWatchOptions,
): Promise<{ ticks: number; unitsStored: number }> {
  const { everySeconds, onTick, onProblem, ...sync } = options;
  if (!(Number.isFinite(everySeconds) && everySeconds > 0)) {
    throw new UsageError(`sync: --every: expected seconds > 0, got ${everySeconds}`);
  }
  // A folder that cannot be a lake fails the watch now, not every tick.
  if (sync.lake !== undefined) prepareLake(sync.lake);
  let ticks = 0;
  let unitsStored = 0;
  while (options.signal?.aborted !== true) {
    ticks += 1;
    try {
      const summary = await runSync({ ...sync, skipStored: true });
      unitsStored += summary.totals.stored;
      onTick?.(summary);
      if (summary.status === "interrupted") break;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      onProblem?.(error instanceof Error ? error.message : String(error));
    }
    await sleep(everySeconds * 1000, undefined, { signal: options.signal }).catch(() => {});
  }
  return { ticks, unitsStored };
}
