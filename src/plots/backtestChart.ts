/**
 * A backtest over time: where a model stood among the network's miners at each validator update
 * (its rank, its reward weight, and the earnings that weight would be estimated at), beside the
 * field's median miner.
 */
import { counted } from "../domain/counted.ts";
import { isoSeconds } from "../domain/time.ts";
import { chartOf, COLOURS, rankAxis, utcAxis, type Chart } from "./chart.ts";

/**
 * A model's place at one validator update, and the field's median there.
 * @example const update: BacktestUpdate = { updatedUnix: 1795431600, rank: 7, of: 19, rewardWeight: 0.0021, medianRewardWeight: 0.0004 };
 */
export interface BacktestUpdate {
  readonly updatedUnix: number;
  /** The model's rank by reward weight (1 = the largest) among `of`: itself and the miners. */
  readonly rank: number;
  readonly of: number;
  readonly rewardWeight: number;
  /** The median reward weight of the network's miners at that update. */
  readonly medianRewardWeight: number;
}

/** The two lines of each panel. */
const SERIES = ["your model", "the field's median miner"] as const;

/**
 * A backtest's rank, reward weight (log scale) and estimated USD per day at each validator update,
 * each beside the field's median miner (whose rank is the middle of the field). The estimate is
 * reward weight × `usdPerWeight` (the miners' pool per day × the emission factor); without it the
 * chart has no earnings panel.
 * @param input - the competition (for the title), the updates, oldest first, and the USD per day
 *   that a reward weight of 1 would be estimated at.
 * @example const chart = backtestOverTimeChart({ competition: "crypto-1h", updates, usdPerWeight: 10_000 * 0.6935 });
 */
export function backtestOverTimeChart(input: {
  readonly competition: string;
  readonly updates: readonly BacktestUpdate[];
  readonly usdPerWeight: number | null;
}): Chart {
  const { usdPerWeight } = input;
  const values = input.updates.flatMap((update) => {
    const time = isoSeconds(update.updatedUnix);
    const estimate = (weight: number) => (usdPerWeight === null ? null : weight * usdPerWeight);
    return [
      {
        time,
        series: SERIES[0],
        rank: update.rank,
        weight: update.rewardWeight,
        usd: estimate(update.rewardWeight),
      },
      {
        time,
        series: SERIES[1],
        rank: (update.of + 1) / 2,
        weight: update.medianRewardWeight,
        usd: estimate(update.medianRewardWeight),
      },
    ];
  });
  const most = Math.max(1, ...input.updates.map((update) => update.of));
  const colour = {
    field: "series",
    type: "nominal",
    title: null,
    scale: { domain: [...SERIES], range: [COLOURS.red, COLOURS.grey] },
    legend: { orient: "bottom", labelLimit: 0 },
  } as const;
  const panel = (field: string, y: Record<string, unknown>, transform: object[] = []) => ({
    width: 560,
    height: 110,
    transform,
    mark: { type: "line", point: true },
    encoding: {
      x: utcAxis("time", "validator update (UTC)"),
      y: { field, type: "quantitative", ...y },
      color: colour,
    },
  });
  const panels = [
    panel("rank", {
      scale: { domain: [1, most], reverse: true },
      axis: rankAxis(most),
      title: `rank by reward weight (1 = largest, of ${most})`,
    }),
    // a weight of 0 has no place on a log scale: left off
    panel("weight", { scale: { type: "log" }, title: "reward weight (log)" }, [
      { filter: "datum.weight > 0" },
    ]),
    ...(usdPerWeight === null ? [] : [panel("usd", { title: "estimated USD per day" })]),
  ];
  return chartOf({
    title:
      values.length === 0
        ? `${input.competition}: no backtest in this store`
        : {
            text: `${input.competition}: a backtest at ${counted(input.updates.length, "validator update")}`,
            subtitle:
              usdPerWeight === null
                ? "no earnings estimate: give the miners' pool per day"
                : `estimated USD per day = reward weight × ${usdPerWeight.toFixed(0)}: an estimate, not a promise`,
          },
    data: { values },
    vconcat: panels,
  });
}
