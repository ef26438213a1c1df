/**
 * The prediction operations (`/v2/prediction/*`): miners' submissions as prediction sets, written
 * by `predictionSetJson` and cached per (uid, asset, start, increment, length).
 */
import { InvalidParamsError } from "../../../domain/errors.ts";
import type { World, PromptHorizon } from "../../world/world.ts";
import type { HandlerBody, HandlerContext, OperationHandler } from "../handlerTypes.ts";
import { createLruCache } from "../lruCache.ts";
import { predictionSetJson, type PredictionSetJsonOptions } from "../predictionSetJson.ts";
import { timeParamUnix } from "../requestTimes.ts";
import { promptHorizonOf } from "./paramChecks.ts";

/**
 * What {@link createPredictionHandler} needs.
 * @example const options: PredictionHandlerOptions = { world, cacheBytes: 64 * 2 ** 20 };
 */
export interface PredictionHandlerOptions {
  readonly world: World;
  /** Bytes of prediction-set JSON kept (one 24h set is about 3 MB). Default 128 MiB. */
  readonly cacheBytes?: number;
  /** Days of prediction sets served before the clock; default {@link PREDICTION_RETENTION_DAYS}. */
  readonly retentionDays?: number;
}

/**
 * Days of prediction sets the service keeps (the live API keeps them 6 to 11 days): a prompt that
 * started earlier than this before the clock is refused.
 * @example PREDICTION_RETENTION_DAYS // => 11
 */
export const PREDICTION_RETENTION_DAYS = 11;

/**
 * `miner_uid` of the metamodel's prediction sets: it is no miner (the spec shows neither the
 * metamodel's parameters nor its response; this is pathlab's choice).
 * @example METAMODEL_UID // => -1
 */
export const METAMODEL_UID = -1;

/** How many prompts back `/v2/prediction/latest` looks for a miner's latest valid submission. */
const LATEST_LOOKBACK_PROMPTS = 12;

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** A prediction set ready to write: prices path-major. */
interface SetSource {
  readonly minerUid: number;
  readonly startUnix: number;
  readonly values: Float64Array;
  readonly pathCount: number;
  readonly pointCount: number;
}

/**
 * Creates the handler of the prediction operations. Only submissions that passed the validator's
 * checks are served (a miner's failed or missing submission has no prediction set):
 * - `best`: the set of the highest-ranked miner of the asset's competition (V2 leaderboard, by
 *   rewards) with a valid submission for the latest prompt; `[]` when none has one;
 * - `latest`: for each requested uid (duplicates once, in request order, at most `limit`, default
 *   10) whose current holder competes for the asset and horizon, its latest valid submission
 *   among the last 12 prompts; uids without one are left out;
 * - `historical`: each requested uid's valid submission for the prompt starting exactly at
 *   `start_time` (400 naming the neighbouring prompt starts when none starts then);
 * - `metamodel` and `metamodel/historical` (pathlab's choice): 1,000 paths interleaved from the
 *   insight ensemble of the prompt (path k is path ⌊k/m⌋ of the (k mod m)-th of its m miners),
 *   re-based additively to the market price at the prompt's start and rounded to 8 significant
 *   digits, as one set with `miner_uid` {@link METAMODEL_UID}.
 * 400 (`InvalidParamsError`) for an increment/length pair no prompt has, an asset without prompts
 * at that horizon, a `start_time` after the sandbox's clock, and one more than `retentionDays`
 * before it (the sets are no longer kept).
 * @example
 * const handler = createPredictionHandler({ world });
 */
export function createPredictionHandler(options: PredictionHandlerOptions): OperationHandler {
  const { world } = options;
  const retentionDays = options.retentionDays ?? PREDICTION_RETENTION_DAYS;
  const sets = createLruCache<string, Buffer>({
    maxEntries: 4096,
    maxWeight: options.cacheBytes ?? 128 * 2 ** 20,
    weigh: (bytes) => bytes.byteLength,
  });

  function validSet(
    uid: number,
    asset: string,
    startUnix: number,
    increment: number,
    length: number,
  ) {
    const submission = world.predictionSet(uid, asset, startUnix, increment, length);
    if (submission.status !== "valid" || submission.values === undefined) return undefined;
    return {
      minerUid: uid,
      startUnix,
      values: submission.values,
      pathCount: submission.pathCount,
      pointCount: submission.pointCount,
    };
  }

  function body(sources: readonly SetSource[], context: HandlerContext): HandlerBody {
    const { asset, time_increment: increment, time_length: length } = context.params;
    // As `faultyBody`: an empty array's "first record without its first field" is `{}`.
    if (sources.length === 0 && context.shape === "missingField") {
      return { bytes: [Buffer.from("[{}]")] };
    }
    const chunks: Buffer[] = [OPEN];
    for (let index = 0; index < sources.length; ++index) {
      const source = sources[index];
      if (index > 0) chunks.push(COMMA);
      const faulty: PredictionSetJsonOptions | undefined =
        context.shape === "shortPaths"
          ? { points: source.pointCount - 1 }
          : index === 0 && context.shape === "nanPrice"
            ? { nanPrice: true }
            : index === 0 && context.shape === "missingField"
              ? { omitMinerUid: true }
              : undefined;
      const write = () =>
        predictionSetJson(
          source.minerUid,
          source.startUnix,
          source.values,
          source.pathCount,
          source.pointCount,
          faulty,
        );
      const key = `${source.minerUid}|${asset}|${source.startUnix}|${increment}|${length}`;
      chunks.push(faulty === undefined ? sets.getOrCompute(key, write) : write());
    }
    chunks.push(CLOSE);
    return { bytes: chunks };
  }

  return (context) => {
    const { operation, params } = context;
    const path = operation.path;
    const asset = params.asset as string;
    const increment = params.time_increment as number;
    const length = params.time_length as number;
    const horizon = promptHorizonOf(world, path, increment, length);
    const latestStart = world.latestPromptStart(asset, horizon);
    if (latestStart === undefined) {
      throw new InvalidParamsError(
        path,
        "time_length",
        `a prompt length of ${asset} (the network does not prompt ${asset} at ${horizon})`,
        String(length),
      );
    }
    const miners = uniqueMiners(params.miner);
    const at = (startUnix: number) =>
      miners
        .map((uid) => validSet(uid, asset, startUnix, increment, length))
        .filter((set) => set !== undefined);
    switch (path) {
      case "/v2/prediction/best": {
        const competition = world.competitionFor(asset, horizon);
        const ranking = world
          .leaderboardV2(competition)
          .slice()
          .sort((a, b) => b.rewards - a.rewards || a.neuron_uid - b.neuron_uid);
        for (const row of ranking) {
          const set = validSet(row.neuron_uid, asset, latestStart, increment, length);
          if (set !== undefined) return body([set], context);
        }
        return body([], context);
      }
      case "/v2/prediction/latest": {
        const limit = typeof params.limit === "number" ? params.limit : 10;
        const competition = world.competitionFor(asset, horizon);
        const starts: number[] = [];
        for (let start: number | undefined = latestStart; start !== undefined;) {
          starts.push(start);
          if (starts.length === LATEST_LOOKBACK_PROMPTS) break;
          start = world.latestPromptStart(asset, horizon, start - 1);
        }
        const found: SetSource[] = [];
        for (const uid of miners) {
          if (found.length === limit) break;
          if (!world.minerAt(uid)?.competitions.includes(competition)) continue;
          for (const start of starts) {
            const set = validSet(uid, asset, start, increment, length);
            if (set !== undefined) {
              found.push(set);
              break;
            }
          }
        }
        return body(found, context);
      }
      case "/v2/prediction/historical":
        return body(
          at(promptStartParam(world, retentionDays, path, params, asset, horizon)),
          context,
        );
      case "/v2/prediction/metamodel":
        return body([metamodel(world, asset, horizon, latestStart)], context);
      case "/v2/prediction/metamodel/historical": {
        const start = promptStartParam(world, retentionDays, path, params, asset, horizon);
        return body([metamodel(world, asset, horizon, start)], context);
      }
      default:
        throw new Error(`createPredictionHandler: no handler for ${path}`);
    }
  };
}

function uniqueMiners(miner: HandlerContext["params"][string] | undefined): number[] {
  return Array.isArray(miner) ? [...new Set(miner as readonly number[])] : [];
}

/** `start_time`, which must be the start of a prompt of the asset at the horizon. */
function promptStartParam(
  world: World,
  retentionDays: number,
  path: string,
  params: HandlerContext["params"],
  asset: string,
  horizon: PromptHorizon,
): number {
  const startUnix = timeParamUnix(path, params, "start_time", world.nowUnix) as number;
  const keptFromUnix = world.nowUnix - retentionDays * 86400;
  if (startUnix < keptFromUnix) {
    throw new InvalidParamsError(
      path,
      "start_time",
      `a prompt start within the ${retentionDays} days prediction sets are kept (from ${new Date(keptFromUnix * 1000).toISOString()})`,
      JSON.stringify(params.start_time),
    );
  }
  if (world.isPromptStart(asset, horizon, startUnix)) return startUnix;
  const before = world.latestPromptStart(asset, horizon, startUnix);
  const after = world.promptStarts(asset, horizon, startUnix, world.nowUnix)[0];
  const neighbours = [before, after]
    .filter((unix) => unix !== undefined)
    .map((unix) => new Date(unix * 1000).toISOString());
  throw new InvalidParamsError(
    path,
    "start_time",
    `the start of a ${horizon} prompt of ${asset}` +
      (neighbours.length > 0 ? ` (nearest: ${neighbours.join(", ")})` : ""),
    JSON.stringify(params.start_time),
  );
}

/** The metamodel's set for one prompt (see {@link createPredictionHandler}). */
function metamodel(
  world: World,
  asset: string,
  horizon: PromptHorizon,
  startUnix: number,
): SetSource {
  const ensemble = world.ensemble(asset, horizon, startUnix);
  const minerCount = ensemble.minerUids.length;
  if (minerCount === 0) {
    throw new Error(
      `metamodel: no miner of ${asset} ${horizon} sent a valid submission for ${startUnix}`,
    );
  }
  const pathsPerMiner = ensemble.paths.length / minerCount;
  const pointCount = ensemble.pointCount;
  const pathCount = 1000;
  const startPrice = world.priceAt(asset, startUnix);
  const values = new Float64Array(pathCount * pointCount);
  for (let path = 0; path < pathCount; ++path) {
    const source =
      ensemble.paths[
        (path % minerCount) * pathsPerMiner + (Math.floor(path / minerCount) % pathsPerMiner)
      ];
    const offset = startPrice - source[0];
    for (let point = 0; point < pointCount; ++point) {
      values[path * pointCount + point] = Number((source[point] + offset).toPrecision(8));
    }
  }
  return { minerUid: METAMODEL_UID, startUnix, values, pathCount, pointCount };
}
