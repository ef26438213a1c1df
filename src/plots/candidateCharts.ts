/**
 * Charts of a candidate model against the field, prompt by prompt: its rank, and its CRPS above the
 * field's median.
 */
import { isoSeconds } from "../domain/time.ts";
import { chartOf, COLOURS, extent, rankAxis, shortTime, utcAxis, type Chart } from "./chart.ts";

/**
 * A candidate's rank on one prompt among `of` forecasters (1 = best).
 * @example const rank: PromptRank = { startUnix: 1795431600, rank: 4, of: 11 };
 */
export interface PromptRank {
  readonly startUnix: number;
  readonly rank: number;
  readonly of: number;
}

/**
 * A candidate's rank prompt by prompt (points) with its running mean over the last `window`
 * prompts (line), and beside it how often each rank came up.
 * @param input - which prompts (for the title, e.g. `BTC 1h`), the candidate's rank on each, and
 *   the prompts of the running mean (6 by default).
 * @example const chart = candidateRankChart({ prompts: "BTC 1h", ranks, window: 6 });
 */
export function candidateRankChart(input: {
  readonly prompts: string;
  readonly ranks: readonly PromptRank[];
  readonly window?: number;
}): Chart {
  const window = input.window ?? 6;
  const most = Math.max(1, extent(input.ranks.map((row) => row.of))?.[1] ?? 1);
  const values = input.ranks.map((row) => ({ ...row, start: isoSeconds(row.startUnix) }));
  const rankScale = { domain: [1, most], reverse: true };
  return chartOf({
    title:
      values.length === 0
        ? `No candidate ranked on ${input.prompts} prompts`
        : `The candidate's rank among ${most} forecasters on each of ${values.length} ${input.prompts} prompts`,
    data: { values },
    hconcat: [
      {
        width: 520,
        height: 220,
        transform: [
          {
            window: [{ op: "mean", field: "rank", as: "running" }],
            frame: [1 - window, 0],
            sort: [{ field: "start" }],
          },
          { fold: ["rank", `running`], as: ["series", "value"] },
          {
            calculate: `datum.series === 'rank' ? 'rank on the prompt' : 'mean of the last ${window} prompts'`,
            as: "line",
          },
        ],
        encoding: {
          x: utcAxis("start", "prompt start (UTC)"),
          y: {
            field: "value",
            type: "quantitative",
            scale: rankScale,
            axis: rankAxis(most),
            title: "rank (1 = best)",
          },
          color: {
            field: "line",
            type: "nominal",
            title: null,
            scale: { range: [COLOURS.ink, COLOURS.red] },
            legend: { orient: "bottom", labelLimit: 0 },
          },
        },
        layer: [
          {
            transform: [{ filter: "datum.series === 'rank'" }],
            mark: { type: "point", filled: true, opacity: 0.6 },
          },
          {
            transform: [{ filter: "datum.series !== 'rank'" }],
            mark: { type: "line", strokeWidth: 2 },
          },
        ],
      },
      {
        width: 200,
        height: 220,
        mark: { type: "bar", color: COLOURS.red },
        encoding: {
          y: {
            field: "rank",
            type: "ordinal",
            scale: { domain: Array.from({ length: most }, (_, index) => index + 1) },
            title: "rank (1 = best)",
          },
          x: { aggregate: "count", type: "quantitative", title: "prompts" },
        },
      },
    ],
  });
}

/**
 * A candidate's CRPS minus the field's median CRPS on one prompt, and the miners in the field.
 * @example const excess: MedianExcess = { startUnix: 1795431600, excess: -3.2, miners: 10 };
 */
export interface MedianExcess {
  readonly startUnix: number;
  readonly excess: number;
  readonly miners: number;
}

/**
 * A candidate's CRPS minus the field's median, prompt by prompt: green bars where it beat the
 * median miner, red where it did not.
 * @param input - which prompts (for the title, e.g. `BTC 1h`), and the candidate's excess over the
 *   median on each.
 * @example const chart = medianExcessChart({ prompts: "BTC 1h", rows });
 */
export function medianExcessChart(input: {
  readonly prompts: string;
  readonly rows: readonly MedianExcess[];
}): Chart {
  const better = input.rows.filter((row) => row.excess < 0).length;
  return chartOf({
    title:
      input.rows.length === 0
        ? `No candidate to compare with the field's median on ${input.prompts} prompts`
        : {
            text: `The candidate's CRPS minus the field's median, per ${input.prompts} prompt`,
            subtitle: `below 0: better than the median miner (${better} of ${input.rows.length} prompts)`,
          },
    width: 560,
    height: 220,
    data: {
      values: input.rows.map((row) => ({
        ...row,
        time: shortTime(row.startUnix),
        side: row.excess < 0 ? "better than the median" : "worse than the median",
      })),
    },
    mark: "bar",
    encoding: {
      x: {
        field: "time",
        type: "ordinal",
        sort: null,
        title: "prompt start (UTC)",
        axis: { labelAngle: -60 },
      },
      y: { field: "excess", type: "quantitative", title: "candidate CRPS − median miner CRPS" },
      color: {
        field: "side",
        type: "nominal",
        title: null,
        scale: {
          domain: ["better than the median", "worse than the median"],
          range: [COLOURS.green, COLOURS.red],
        },
        legend: { orient: "bottom", labelLimit: 0 },
      },
    },
  });
}
