/**
 * `pathlab score --watch`: the tick lines of a watch (`runScoreWatch`) and its end.
 */

import { UsageError } from "../service/usageError.ts";
import type { ScoreWatchOptions } from "../jobs/score/watch.ts";
import { counted } from "../domain/counted.ts";
import type { ProgramIo } from "./io.ts";

/**
 * Runs the watch with `common` (the score options but the range) until interrupted, printing a
 * line per tick on stdout and a tick's failure on stderr. Throws `UsageError` for a range,
 * `--record` or `--replay` given with it.
 * @example await watchCommand(io, options, common);
 */
export async function watchCommand(
  io: ProgramIo,
  options: {
    from?: string;
    to?: string;
    record?: string;
    replay?: string;
    every: number;
    lookback: number;
  },
  common: Omit<ScoreWatchOptions, "everySeconds" | "lookbackHours">,
): Promise<void> {
  const { from, to, record, replay } = options;
  if ([from, to, record, replay].some((value) => value !== undefined)) {
    throw new UsageError(
      "score: --watch follows the clock: it takes no --from, --to, --record or --replay",
    );
  }
  const { runScoreWatch } = await import("../jobs/score/watch.ts");
  const watched = await runScoreWatch({
    ...common,
    everySeconds: options.every,
    lookbackHours: options.lookback,
    onTick: (competition, tick) => {
      const scored = tick.competitions.reduce((sum, item) => sum + item.promptsScored, 0);
      const failed = tick.failures.length === 0 ? "" : `, ${tick.failures.length} failed`;
      io.stdout(
        `watch: ${competition} ${tick.from} → ${tick.to}: ${counted(scored, "prompt")} scored, ${tick.promptsAlreadyStored ?? 0} already stored${failed}\n`,
      );
    },
    onProblem: (message) =>
      io.stderr(`watch: tick failed (the next one tries again): ${message}\n`),
  });
  io.stdout(
    `watch: stopped after ${counted(watched.ticks, "tick")}, ${counted(watched.promptsScored, "prompt")} scored\n`,
  );
}
