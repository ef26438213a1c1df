/**
 * `pathlab score --watch`: one process that keeps a database (or a lake) current without a
 * queue. Every few seconds a tick scores the prompts of its look-back window that are not stored
 * yet (`skipStored`), so each prompt is scored once, across restarts too (what the store holds is
 * never scored again; a watch down for less than the look-back leaves no gap). Stops cleanly on
 * its signal: a tick under way ends as an interrupted run (its scored prompts kept, the one being
 * written rolled back), and no tick starts after it. For many machines, `pathlab enqueue watch`.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { COMPETITIONS, type Competition } from "../../domain/assets.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import { JobInterruptedError } from "../harness/interruptedError.ts";
import { runScore } from "./score.ts";
import type { ScoreSummary } from "./summary.ts";
import { UsageError } from "../../service/usageError.ts";
import { watchWindow } from "./rangePrompts.ts";
import type { ScoreOptions } from "./options.ts";

/**
 * What {@link runScoreWatch} needs: the options of `runScore` without the range, and the cadence.
 * @example const options: ScoreWatchOptions = { competition: ["crypto-24h"], everySeconds: 60, lookbackHours: 2 };
 */
export interface ScoreWatchOptions extends Omit<ScoreOptions, "from" | "to" | "skipStored"> {
  /** Seconds from the end of one tick to the start of the next. */
  readonly everySeconds: number;
  /**
   * Hours of prompt starts each tick looks back over, per competition up to its prompts scored by
   * the clock (the service's, or `now`): starts in [now − horizon − look-back, now − horizon].
   */
  readonly lookbackHours: number;
  /** After each competition's run of a tick, with its summary. */
  readonly onTick?: (competition: Competition, summary: ScoreSummary) => void;
  /** A tick that failed (the service unreachable, say): reported, and the watch goes on. */
  readonly onProblem?: (message: string) => void;
}

/**
 * Runs ticks until `signal` aborts (see the module comment); a tick is one run per competition. Throws `UsageError` for options
 * that cannot work (at the first tick). Resolves to the ticks run and the prompts they scored.
 * @example await runScoreWatch({ everySeconds: 60, lookbackHours: 2, signal });
 */
export async function runScoreWatch(
  options: ScoreWatchOptions,
): Promise<{ ticks: number; promptsScored: number }> {
  const { everySeconds, lookbackHours, onTick, onProblem, ...score } = options;
  let ticks = 0;
  let promptsScored = 0;
  const competitions =
    score.competition === undefined || score.competition === "all"
      ? COMPETITIONS
      : [score.competition];
  while (options.signal?.aborted !== true) {
    const nowUnix =
      options.now === undefined
        ? Math.floor(Date.now() / 1000)
        : parseIsoTimeMs(options.now) / 1000;
    // Per competition, the prompts that started in the look-back window and are scored by now.
    for (const competition of competitions) {
      const { fromUnix, toUnix } = watchWindow(competition, nowUnix, lookbackHours * 3600);
      try {
        const summary = await runScore({
          ...score,
          competition,
          from: isoSeconds(fromUnix),
          to: isoSeconds(toUnix),
          skipStored: true,
        });
        promptsScored += summary.competitions.reduce((sum, item) => sum + item.promptsScored, 0);
        onTick?.(competition, summary);
      } catch (error) {
        if (error instanceof JobInterruptedError) return { ticks, promptsScored };
        if (error instanceof UsageError) throw error;
        onProblem?.(error instanceof Error ? error.message : String(error));
      }
    }
    ticks += 1;
    await sleep(everySeconds * 1000, undefined, { signal: options.signal }).catch(() => {});
  }
  return { ticks, promptsScored };
}
