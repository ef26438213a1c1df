/** The leaderboard operations: V1 (legacy), V2 and the meta-leaderboards, from the world's validator. */
import type { PromptName } from "../../../domain/assets.ts";
import type { World } from "../../world/world.ts";
import type { OperationHandler } from "../handlerTypes.ts";
import { timeParamUnix, timeWindowUnix } from "../requestTimes.ts";
import { requireDaysOfHistory } from "./paramChecks.ts";

/**
 * Most days a meta-leaderboard may aggregate: the sandbox keeps 30 days of history.
 * @example MAX_META_LEADERBOARD_DAYS // => 30
 */
export const MAX_META_LEADERBOARD_DAYS = 30;

/**
 * Creates the handler of the leaderboard operations. `prompt_name` defaults to `low`, `days` to
 * 14. Windows (`start_time`, `end_time`) are clamped to the sandbox's clock; a window that starts
 * after it is empty. The meta-leaderboard history answers as of its `start_time`, which may not be
 * after the clock (400).
 * @example
 * const handler = createLeaderboardHandler(world);
 * handler({ operation: operationTable.leaderboard.v2Latest, params: { prompt_name: "high" }, shape: undefined });
 */
export function createLeaderboardHandler(world: World): OperationHandler {
  return ({ operation, params }) => {
    const path = operation.path;
    const promptName = (
      typeof params.prompt_name === "string" ? params.prompt_name : "low"
    ) as PromptName;
    const days = typeof params.days === "number" ? params.days : 14;
    requireDaysOfHistory(path, days, MAX_META_LEADERBOARD_DAYS);
    const window = () => timeWindowUnix(path, params, "start_time", "end_time", world.nowUnix);
    switch (operation.method) {
      case "latest":
        return { json: world.leaderboardV1() };
      case "historical": {
        const range = window();
        return { json: range ? world.leaderboardV1History(range.fromUnix, range.toUnix) : [] };
      }
      case "v2Latest":
        return { json: world.leaderboardV2(promptName) };
      case "v2Historical": {
        const range = window();
        return {
          json: range ? world.leaderboardV2History(promptName, range.fromUnix, range.toUnix) : [],
        };
      }
      case "metaLatest":
        return { json: world.metaLeaderboard(promptName, days) };
      case "metaHistorical": {
        const atUnix = timeParamUnix(path, params, "start_time", world.nowUnix) as number;
        return { json: world.metaLeaderboard(promptName, days, atUnix) };
      }
      default:
        throw new Error(`createLeaderboardHandler: no handler for ${path}`);
    }
  };
}
