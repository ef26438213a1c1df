/** Checks of request parameters that more than one handler makes, each with its 400 message. */

import { InvalidParamsError } from "../../../domain/errors.ts";
import type { PromptHorizon, World } from "../../world/world.ts";

/**
 * Throws `InvalidParamsError` (parameter `days`) when `days` is over `maxDays`: the sandbox keeps
 * 30 days of history, so an operation aggregates at most that many.
 * @example requireDaysOfHistory("/leaderboard/meta", 14, 30) // passes
 */
export function requireDaysOfHistory(path: string, days: number, maxDays: number): void {
  if (days > maxDays) {
    throw new InvalidParamsError(
      path,
      "days",
      `an integer from 1 to ${maxDays} (the sandbox keeps 30 days of history)`,
      String(days),
    );
  }
}

/**
 * The prompt horizon of `timeIncrement` and `timeLength` (`world.horizonOf`). Throws
 * `InvalidParamsError` (parameter `time_length`) when they are not one of the prompts' shapes.
 * @example promptHorizonOf(world, "/validation/scores", 300, 86400) // => "24h"
 */
export function promptHorizonOf(
  world: World,
  path: string,
  timeIncrement: number,
  timeLength: number,
): PromptHorizon {
  const horizon = world.horizonOf(timeIncrement, timeLength);
  if (horizon === undefined) {
    throw new InvalidParamsError(
      path,
      "time_length",
      "86400 with time_increment 300, or 3600 with time_increment 60 (the prompts' shapes)",
      `${timeLength} with time_increment ${timeIncrement}`,
    );
  }
  return horizon;
}
