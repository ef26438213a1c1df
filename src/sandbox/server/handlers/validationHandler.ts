/** The validation operations: the world's validator records (scores, prompts, realized prices). */
import type { Competition, PromptName } from "../../../domain/assets.ts";
import { InvalidParamsError } from "../../../domain/errors.ts";
import type { RealizedPath } from "../../../domain/records/validation.ts";
import { isoSeconds } from "../../world/isoTime.ts";
import type { World } from "../../world/world.ts";
import type { OperationHandler } from "../handlerTypes.ts";
import { timeParamUnix, timeWindowUnix } from "../requestTimes.ts";
import { promptHorizonOf } from "./paramChecks.ts";

/**
 * Creates the handler of the validation operations. Defaults as the spec lists them (`asset`
 * `BTC`, `time_increment` 300, `time_length` 86400). A date-only `to` covers its whole UTC day
 * (the spec calls `to` an inclusive UTC day for uid holders and multi-asset minutes; pathlab reads
 * every date-only `to` that way); windows are clamped to the sandbox's clock and a window that
 * starts after it is empty. An asset that has no prompts at the horizon has no scores and no
 * prompts (empty answers). Realized paths start only at a prompt start of the asset at the
 * requested shape, as the live service answers them; missing and future minutes are `null`. 400 for
 * an unknown uid (miner validation), an increment/length pair no prompt has, and a realized path
 * that starts after the clock or not at a prompt start.
 * @example
 * const handler = createValidationHandler(world);
 * handler({ operation: operationTable.validation.miner, params: { uid: 47 }, shape: undefined });
 */
export function createValidationHandler(world: World): OperationHandler {
  return ({ operation, params }) => {
    const path = operation.path;
    const asset = typeof params.asset === "string" ? params.asset : "BTC";
    const increment = typeof params.time_increment === "number" ? params.time_increment : 300;
    const length = typeof params.time_length === "number" ? params.time_length : 86_400;
    const horizon = () => promptHorizonOf(world, path, increment, length);
    const prompted = (prompt: "1h" | "24h") => world.latestPromptStart(asset, prompt) !== undefined;
    const window = () =>
      timeWindowUnix(path, params, "from", "to", world.nowUnix, { endOfDay: true });
    switch (operation.method) {
      case "miner": {
        const uid = params.uid as number;
        const record = world.minerValidation(uid);
        if (record === undefined) {
          throw new InvalidParamsError(
            path,
            "uid",
            `a uid of the sandbox's network (${world.minerUids.length} uids, ${Math.min(...world.minerUids)} to ${Math.max(...world.minerUids)}) with a submission`,
            String(uid),
          );
        }
        return { json: record };
      }
      case "scoresLatest": {
        const prompt = horizon();
        return { json: prompted(prompt) ? world.latestScoreRows(asset, prompt) : [] };
      }
      case "scoresHistorical": {
        const prompt = horizon();
        const range = window();
        if (range === undefined || !prompted(prompt)) return { json: [] };
        const minerUid = typeof params.miner_uid === "number" ? params.miner_uid : undefined;
        return {
          json: world.scoreRows({
            asset,
            horizon: prompt,
            fromUnix: range.fromUnix,
            toUnix: range.toUnix,
            ...(minerUid !== undefined && { minerUid }),
          }),
        };
      }
      case "uidHolders": {
        const range = window();
        return { json: range ? world.uidHolders(range.fromUnix, range.toUnix) : [] };
      }
      case "smoothedScores": {
        const range = window();
        if (range === undefined) return { json: [] };
        const competition = (params.competition ?? params.prompt_name) as
          Competition | PromptName | undefined;
        const minerUid = typeof params.miner_uid === "number" ? params.miner_uid : undefined;
        return {
          json: world.smoothedScoreRows({
            fromUnix: range.fromUnix,
            toUnix: range.toUnix,
            ...(minerUid !== undefined && { minerUid }),
            ...(competition !== undefined && { competition }),
          }),
        };
      }
      case "prompts": {
        const prompt = horizon();
        const range = window();
        const starts =
          range === undefined || !prompted(prompt)
            ? []
            : world.promptStarts(asset, prompt, range.fromUnix, range.toUnix);
        return { json: { start_times: starts.map(isoSeconds) } };
      }
      case "realizedPath": {
        const prompt = horizon();
        const startUnix = timeParamUnix(path, params, "start_time", world.nowUnix) as number;
        if (
          !prompted(prompt) ||
          world.promptStarts(asset, prompt, startUnix, startUnix)[0] !== startUnix
        ) {
          throw new InvalidParamsError(
            path,
            "start_time",
            `the start of a ${prompt} prompt of ${asset} (realized paths are answered at prompt starts only, as by the live service; /validation/prompts lists them)`,
            isoSeconds(startUnix),
          );
        }
        const prices = world.realizedPrices(asset, startUnix, increment, length);
        const record: RealizedPath = {
          asset,
          real_prices: Array.from(prices, (price) => (Number.isFinite(price) ? price : null)),
          start_time: isoSeconds(startUnix),
          time_increment: increment,
          time_length: length,
        };
        return { json: record };
      }
      case "multiAssetMinutes": {
        const range = window();
        return { json: range ? world.multiAssetMinutes(range.fromUnix, range.toUnix, length) : [] };
      }
      default:
        throw new Error(`createValidationHandler: no handler for ${path}`);
    }
  };
}
