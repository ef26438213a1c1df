/**
 * Charts of the miners' leaderboard as pathlab recomputes it: reward weights against the
 * service's, rank and weight over time, prompt CRPS against the validator's, and CRPS by hour.
 */
import { chartOf, COLOURS, extent, identityLine, rankAxis, utcAxis, type Chart } from "./chart.ts";

/**
 * A miner's reward weight, recomputed, and the service's (null when the service has none).
 * @example const weight: MinerWeight = { miner: 150, reward: 0.2332, serviceReward: 0.2332 };
 */
export interface MinerWeight {
  readonly miner: number;
  readonly reward: number;
  readonly serviceReward: number | null;
}

/**
 * Reward weights recomputed against the service's, one column per miner (in the order given), on
 * a log scale: the weights span orders of magnitude. Weights of 0 (the softmax underflows) cannot
 * be drawn on it and are counted in the subtitle.
 * @param input - the competition, and each miner's recomputed and service weight, in the order of
 *   the columns.
 * @example const chart = rewardWeightsChart({ competition: "crypto-24h", miners: board });
 */
export function rewardWeightsChart(input: {
  readonly competition: string;
  readonly miners: readonly MinerWeight[];
}): Chart {
  const points = input.miners.flatMap((row) => [
    { miner: String(row.miner), source: "service", reward: row.serviceReward },
    { miner: String(row.miner), source: "recomputed", reward: row.reward },
  ]);
  const drawn = points.filter((point) => point.reward !== null && point.reward > 0);
  const zeros = points.filter((point) => point.reward === 0).length;
  const sources = { domain: ["service", "recomputed"] };
  return chartOf({
    title: {
      text:
        input.miners.length === 0
          ? `${input.competition}: no reward weights in this database`
          : `${input.competition}: reward weights recomputed against the service's (log scale)`,
      ...(zeros > 0 && { subtitle: `${zeros} weights of 0 not drawn (a log scale has no 0)` }),
    },
    width: { step: 16 },
    height: 260,
    data: { values: drawn },
    mark: { type: "point", filled: false, size: 90, strokeWidth: 2 },
    encoding: {
      x: {
        field: "miner",
        type: "nominal",
        sort: input.miners.map((row) => String(row.miner)),
        title: "miner uid (recomputed order)",
      },
      y: {
        field: "reward",
        type: "quantitative",
        scale: { type: "log" },
        title: "reward weight (log scale)",
      },
      shape: {
        field: "source",
        type: "nominal",
        title: "weight",
        scale: { ...sources, range: ["square", "circle"] },
      },
      color: {
        field: "source",
        type: "nominal",
        title: "weight",
        scale: { ...sources, range: [COLOURS.orange, COLOURS.blue] },
      },
    },
  });
}

/**
 * A miner's standing at one validator update: its rank by reward weight (1 = largest) and weight.
 * @example const point: RankPoint = { time: "2026-11-20T11:40:00Z", miner: "150", rank: 1, reward: 0.23 };
 */
export interface RankPoint {
  /** The update's time, ISO 8601. */
  readonly time: string;
  readonly miner: string;
  readonly rank: number;
  readonly reward: number;
}

/**
 * Rank (upper panel) and reward weight on a log scale (lower panel) of the given miners at each
 * update, one colour per miner in the order given. A line breaks where a miner was not ranked, or
 * had a weight of 0.
 * @param input - the competition, each miner's rank and weight at each update, and the miners to
 *   draw, in the order of their colours.
 * @example const chart = rankOverTimeChart({ competition: "crypto-1h", points, miners: ["150", "47"] });
 */
export function rankOverTimeChart(input: {
  readonly competition: string;
  readonly points: readonly RankPoint[];
  readonly miners: readonly string[];
}): Chart {
  const updates = new Set(input.points.map((point) => point.time)).size;
  const overTime = utcAxis("time", "validator update (UTC)");
  const colour = {
    field: "miner",
    type: "nominal",
    title: "miner uid",
    sort: input.miners,
  } as const;
  const panel = { width: 560, height: 200, mark: { type: "line", point: true } } as const;
  return chartOf({
    title:
      updates < 2
        ? `${input.competition}: no rank over time (${updates} update)`
        : `${input.competition}: rank and reward weight of ${input.miners.length} miners at ${updates} updates`,
    data: { values: input.points.filter((point) => input.miners.includes(point.miner)) },
    vconcat: [
      {
        ...panel,
        encoding: {
          x: overTime,
          y: {
            field: "rank",
            type: "quantitative",
            scale: { reverse: true, zero: false },
            axis: rankAxis(Math.max(1, extent(input.points.map((point) => point.rank))?.[1] ?? 1)),
            title: "rank by reward weight (1 = largest)",
          },
          color: colour,
        },
      },
      {
        ...panel,
        transform: [{ filter: "datum.reward > 0" }],
        encoding: {
          x: overTime,
          y: {
            field: "reward",
            type: "quantitative",
            scale: { type: "log" },
            title: "reward weight (log scale)",
          },
          color: colour,
        },
      },
    ],
  });
}

/**
 * A prompt CRPS recomputed by pathlab and the validator's, for one miner's prompt.
 * @example const pair: CrpsPair = { asset: "BTC", horizon: "24h", crps: 1523.2, serviceCrps: 1523.2 };
 */
export interface CrpsPair {
  readonly asset: string;
  readonly horizon: string;
  readonly crps: number;
  readonly serviceCrps: number;
}

/**
 * Prompt CRPS recomputed against the validator's, one panel per horizon, with the identity line
 * over each panel's range.
 * @param pairs - one per miner's prompt: pathlab's CRPS and the validator's.
 * @example const chart = crpsParityChart(pairs);
 */
export function crpsParityChart(pairs: readonly CrpsPair[]): Chart {
  const horizons = [...new Set(pairs.map((pair) => pair.horizon))].sort();
  const panel = (horizon: string) => {
    const mine = pairs.filter((pair) => pair.horizon === horizon);
    const [low, high] = extent(mine.flatMap((pair) => [pair.crps, pair.serviceCrps])) ?? [0, 1];
    const axis = (title: string) => ({ scale: { zero: false, domain: [low, high] }, title });
    return {
      title: `${horizon} prompts (${mine.length})`,
      width: 300,
      height: 300,
      layer: [
        identityLine(low, high),
        {
          data: { values: mine },
          mark: { type: "point", filled: true, size: 50 },
          encoding: {
            x: { field: "serviceCrps", type: "quantitative", ...axis("validator's CRPS") },
            y: { field: "crps", type: "quantitative", ...axis("recomputed CRPS") },
            color: { field: "asset", type: "nominal", title: "asset" },
          },
        },
      ],
    };
  };
  return chartOf({
    title: "Prompt CRPS: recomputed from the miners' paths against the validator's (dashed: equal)",
    hconcat: horizons.map(panel),
    resolve: { scale: { color: "shared" } },
  });
}

/**
 * Prompt difficulty per hour of day: a unit (asset and horizon) and hour, the mean over its
 * prompts of the median miner's CRPS relative to a typical prompt of the unit, and the prompts.
 * @example const row: HourDifficulty = { unit: "BTC 1h", hour: 14, relative: 1.12, prompts: 3 };
 */
export interface HourDifficulty {
  readonly unit: string;
  readonly hour: number;
  readonly relative: number;
  readonly prompts: number;
}

/**
 * Prompt difficulty by hour of day, one panel per unit: bars of relative CRPS (1 = a typical
 * prompt, dashed) with the prompts behind each bar printed above it.
 * @param rows - one per unit and hour of day (UTC).
 * @example const chart = crpsByHourChart(rows);
 */
export function crpsByHourChart(rows: readonly HourDifficulty[]): Chart {
  const hour = {
    field: "hour",
    type: "ordinal",
    scale: { domain: Array.from({ length: 24 }, (_, index) => index) },
    title: "hour of the prompt's start (UTC)",
  } as const;
  const relative = {
    field: "relative",
    type: "quantitative",
    title: "median CRPS / typical",
  } as const;
  return chartOf({
    title:
      "Prompt difficulty by hour: the median miner's CRPS against a typical prompt of the asset (n = prompts)",
    data: { values: rows },
    facet: { row: { field: "unit", type: "nominal", title: null } },
    spec: {
      width: 560,
      height: 140,
      layer: [
        { mark: { type: "bar", color: COLOURS.blue }, encoding: { x: hour, y: relative } },
        {
          mark: { type: "text", dy: -6, fontSize: 11 },
          encoding: { x: hour, y: relative, text: { field: "prompts", type: "quantitative" } },
        },
        {
          mark: { type: "rule", color: COLOURS.ink, strokeDash: [3, 3] },
          encoding: { y: { datum: 1 } },
        },
      ],
    },
  });
}
