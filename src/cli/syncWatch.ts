/**
 * `pathlab sync --watch`: the tick lines of a watch (`runSyncWatch`) and its end.
 */

import type { SyncWatchOptions } from "../jobs/sync/watch.ts";
import { UsageError } from "../service/usageError.ts";
import { counted } from "../domain/counted.ts";
import type { ProgramIo } from "./io.ts";

/**
 * Runs the watch with `common` (the sync's options) until interrupted, printing a line per tick
 * on stdout and a tick's failure on stderr. Throws `UsageError` for `--record`, `--replay` or
 * `--json` given with it.
 * @example await syncWatchCommand(io, options, common);
 */
export async function syncWatchCommand(
  io: ProgramIo,
  options: { record?: string; replay?: string; json?: boolean; every: number },
  common: Omit<SyncWatchOptions, "everySeconds">,
): Promise<void> {
  if (options.record !== undefined || options.replay !== undefined) {
    throw new UsageError("sync: --watch follows the service: it takes no --record or --replay");
  }
  if (options.json === true) {
    throw new UsageError("sync: --watch prints a line per tick: it takes no --json");
  }
  const { runSyncWatch } = await import("../jobs/sync/watch.ts");
  const watched = await runSyncWatch({
    ...common,
    everySeconds: options.every,
    onTick: (tick) => {
      const { stored, alreadyStored, failed, units } = tick.totals;
      const failures =
        tick.failures.length === 0 ? "" : `, ${counted(tick.failures.length, "failure")}`;
      io.stdout(
        `watch: ${tick.startedAt.replace(/\.\d+Z$/, "Z")}: ${stored} of ${counted(units, "unit")} stored, ${alreadyStored} already stored, ${failed} failed${failures}\n`,
      );
    },
    onProblem: (message) =>
      io.stderr(`watch: tick failed (the next one tries again): ${message}\n`),
  });
  io.stdout(
    `watch: stopped after ${counted(watched.ticks, "tick")}, ${counted(watched.unitsStored, "unit")} stored\n`,
  );
}
