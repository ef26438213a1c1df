/**
 * Charts of forecasters prompt by prompt: CRPS above each prompt's best, PIT histograms and
 * interval coverage, with their 95 % bands.
 */
import { pitDensityBand, wilsonInterval } from "../core/intervals.ts";
import { chartOf, COLOURS, extent, identityLine, median, type Chart } from "./chart.ts";

/**
 * One forecaster's prompt CRPS.
 * @example const score: ForecasterScore = { forecaster: "miner 150", startUnix: 1795431600, crps: 41.7 };
 */
export interface ForecasterScore {
  readonly forecaster: string;
  readonly startUnix: number;
  readonly crps: number;
}

/**
 * Per prompt, each forecaster's CRPS above the prompt's best (0 = best on that prompt): raw CRPS
 * moves with each prompt's volatility, which hides the differences between forecasters. Box plots
 * per forecaster, best median first, on a symlog scale; `highlight` (a forecaster, such as a
 * candidate) in its own colour.
 * @param input - which prompts (for the title, e.g. `BTC 1h`), each forecaster's CRPS per prompt,
 *   and the forecaster to highlight (none by default).
 * @example const chart = excessCrpsChart({ prompts: "BTC 1h", scores, highlight: "candidate" });
 */
export function excessCrpsChart(input: {
  readonly prompts: string;
  readonly scores: readonly ForecasterScore[];
  readonly highlight?: string;
}): Chart {
  const best = new Map<number, number>();
  for (const row of input.scores) {
    best.set(row.startUnix, Math.min(best.get(row.startUnix) ?? Infinity, row.crps));
  }
  const excess = input.scores.map((row) => ({
    forecaster: row.forecaster,
    excess: row.crps - best.get(row.startUnix)!,
    kind: row.forecaster === input.highlight ? row.forecaster : "miner",
  }));
  const order = orderByMedian(excess, (row) => row.excess);
  return chartOf({
    title: `Prompt CRPS above the prompt's best, per forecaster: ${best.size} ${input.prompts} prompts (lower is better)`,
    width: 560,
    height: 280,
    data: { values: excess },
    mark: { type: "boxplot", extent: "min-max", size: 22 },
    encoding: {
      x: {
        field: "forecaster",
        type: "nominal",
        sort: order,
        title: "forecaster (best median first)",
        axis: { labelAngle: -40 },
      },
      y: {
        field: "excess",
        type: "quantitative",
        scale: { type: "symlog" },
        title: "CRPS − the prompt's best CRPS (symlog scale)",
      },
      color: {
        field: "kind",
        type: "nominal",
        title: null,
        scale: {
          domain: ["miner", ...(input.highlight === undefined ? [] : [input.highlight])],
          range: [COLOURS.blue, COLOURS.red],
        },
      },
    },
  });
}

/**
 * The forecasters of `rows`, by the median of `value` over each one's rows, smallest first.
 * @param rows - the rows, each naming its forecaster.
 * @param value - the number of a row whose median orders the forecasters.
 * @example orderByMedian([{ forecaster: "a", crps: 2 }, { forecaster: "b", crps: 1 }], (row) => row.crps) // => ["b", "a"]
 */
export function orderByMedian<Row extends { readonly forecaster: string }>(
  rows: readonly Row[],
  value: (row: Row) => number,
): string[] {
  const values = new Map<string, number[]>();
  for (const row of rows)
    values.set(row.forecaster, [...(values.get(row.forecaster) ?? []), value(row)]);
  return [...values]
    .map(([forecaster, list]) => ({ forecaster, median: median(list) }))
    .sort((a, b) => a.median - b.median || a.forecaster.localeCompare(b.forecaster))
    .map((row) => row.forecaster);
}

/**
 * One forecaster's calibration over its prompts: the PIT counts per bin, the counts covered by
 * each central interval (at `levels`), the realized points observed, and the prompts they come
 * from (the independent observations the charts' 95 % bands count: the points of one prompt share
 * a path; 1 when a row does not say).
 * @example const total: CalibrationTotal = { forecaster: "miner 150", pit: [12, 9, 10, 11, 8, 10, 9, 11, 10, 10], levels: [0.5, 0.9], covered: [49, 91], observed: 100, prompts: 4 };
 */
export interface CalibrationTotal {
  readonly forecaster: string;
  readonly pit: readonly number[];
  readonly levels: readonly number[];
  readonly covered: readonly number[];
  readonly observed: number;
  readonly prompts?: number;
}

/**
 * The calibration of each forecaster summed over its prompts (one row per forecaster and prompt
 * in, one per forecaster out, in the order first seen, with `prompts` counted).
 * @param rows - one per forecaster and prompt: PIT counts, levels, covered counts and observed
 *   points.
 * @example calibrationTotals([{ forecaster: "a", pit: [1, 2], levels: [0.5], covered: [1], observed: 3 }, { forecaster: "a", pit: [2, 1], levels: [0.5], covered: [2], observed: 3 }])[0].pit // => [3, 3]
 */
export function calibrationTotals(rows: readonly CalibrationTotal[]): CalibrationTotal[] {
  const totals = new Map<
    string,
    {
      pit: number[];
      levels: readonly number[];
      covered: number[];
      observed: number;
      prompts: number;
    }
  >();
  for (const row of rows) {
    const total = totals.get(row.forecaster) ?? {
      pit: row.pit.map(() => 0),
      levels: row.levels,
      covered: row.covered.map(() => 0),
      observed: 0,
      prompts: 0,
    };
    row.pit.forEach((count, bin) => (total.pit[bin] += count));
    row.covered.forEach((count, level) => (total.covered[level] += count));
    total.observed += row.observed;
    total.prompts += row.prompts ?? 1;
    totals.set(row.forecaster, total);
  }
  return [...totals].map(([forecaster, total]) => ({ forecaster, ...total }));
}

/**
 * PIT histograms, one panel per forecaster (in `order`), as densities: flat at 1 (dashed) for a
 * calibrated forecaster; a U shape is too narrow, a hump too wide. `highlight` in its own colour.
 * The grey band is where a calibrated forecaster's bars stay 95 % of the time
 * (`pitDensityBand`), counted over its prompts, not its points: the points of one prompt are
 * steps of one path, and counting them as independent would draw a band far too narrow.
 * @param input - the forecasters' totals ({@link calibrationTotals}), the order of the panels (by
 *   name by default) and the forecaster to highlight (none by default).
 * @example const chart = pitChart({ totals, order, highlight: "candidate" });
 */
export function pitChart(input: {
  readonly totals: readonly CalibrationTotal[];
  readonly order?: readonly string[];
  readonly highlight?: string;
}): Chart {
  // a forecaster without an observed point has no PIT to draw
  const values = input.totals
    .filter((total) => total.observed > 0)
    .flatMap((total) =>
      total.pit.map((count, bin) => {
        const bins = total.pit.length;
        const [bandLow, bandHigh] = pitDensityBand(bins, total.prompts ?? 1);
        const row = {
          forecaster: total.forecaster,
          bin: (bin + 0.5) / bins,
          density: (count / total.observed) * bins,
        };
        return Number.isNaN(bandLow)
          ? row
          : { ...row, binLow: bin / bins, binHigh: (bin + 1) / bins, bandLow, bandHigh };
      }),
    );
  const bins = extent(input.totals.map((total) => total.pit.length))?.[1] ?? 1;
  return chartOf({
    title:
      "PIT histograms of the realized price (flat at 1 = calibrated; U = too narrow; hump = too wide; grey: 95 % band over the prompts)",
    data: { values },
    facet: { field: "forecaster", type: "nominal", sort: input.order ?? "ascending", title: null },
    columns: 4,
    // each panel its own axis: an empty last slot then draws none
    resolve: { axis: { x: "independent" } },
    spec: {
      width: 150,
      height: 90,
      layer: [
        {
          mark: { type: "rect", color: COLOURS.grey, opacity: 0.25 },
          encoding: {
            x: { field: "binLow", type: "quantitative", scale: { domain: [0, 1] }, title: "PIT" },
            x2: { field: "binHigh" },
            y: { field: "bandLow", type: "quantitative", title: "density" },
            y2: { field: "bandHigh" },
          },
        },
        {
          mark: { type: "bar", width: Math.max(1, Math.floor(150 / bins) - 2) },
          encoding: {
            x: { field: "bin", type: "quantitative", scale: { domain: [0, 1] }, title: "PIT" },
            y: { field: "density", type: "quantitative", title: "density" },
            color: {
              condition: {
                test: `datum.forecaster === ${JSON.stringify(input.highlight ?? null)}`,
                value: COLOURS.red,
              },
              value: COLOURS.blue,
            },
          },
        },
        {
          mark: { type: "rule", color: COLOURS.ink, strokeDash: [3, 3] },
          encoding: { y: { datum: 1 } },
        },
      ],
    },
  });
}

/**
 * Interval coverage: the share of realized prices inside each central interval against its
 * nominal level, one line per forecaster (in `order`), and the diagonal where they are equal
 * (above: too wide; below: too narrow). Each point has its 95 % Wilson interval over the
 * forecaster's prompts (`wilsonInterval`; the points of one prompt are not independent).
 * @param input - the forecasters' totals ({@link calibrationTotals}), and the order of the lines
 *   (by name by default).
 * @example const chart = coverageChart({ totals, order });
 */
export function coverageChart(input: {
  readonly totals: readonly CalibrationTotal[];
  readonly order?: readonly string[];
}): Chart {
  const values = input.totals
    .filter((total) => total.observed > 0)
    .flatMap((total) =>
      total.levels.map((level, index) => {
        const observed = total.covered[index] / total.observed;
        const [low, high] = wilsonInterval(observed, total.prompts ?? 1);
        const row = { forecaster: total.forecaster, nominal: level, observed };
        return Number.isNaN(low) ? row : { ...row, low, high };
      }),
    );
  const low = Math.min(
    0.4,
    extent(
      values.flatMap((row) => [row.nominal, row.observed, "low" in row ? row.low : row.observed]),
    )?.[0] ?? 0.4,
  );
  const share = (field: string, title: string) =>
    ({
      field,
      type: "quantitative",
      title,
      scale: { domain: [low, 1], zero: false },
      axis: { format: "%" },
    }) as const;
  const color = {
    field: "forecaster",
    type: "nominal",
    sort: input.order ?? "ascending",
    title: "forecaster",
    scale: { scheme: "tableau20" },
    legend: { labelLimit: 0 },
  } as const;
  return chartOf({
    title:
      "Interval coverage: share of realized prices inside each central interval (dashed: exact; bars: 95 % over the prompts)",
    width: 360,
    height: 360,
    layer: [
      identityLine(low, 1),
      {
        data: { values },
        mark: { type: "line", point: true },
        encoding: {
          x: share("nominal", "nominal coverage"),
          y: share("observed", "observed coverage"),
          color,
        },
      },
      {
        data: { values },
        mark: { type: "rule", opacity: 0.35, strokeWidth: 3 },
        encoding: {
          x: share("nominal", "nominal coverage"),
          y: share("low", "observed coverage"),
          y2: { field: "high" },
          color,
        },
      },
    ],
  });
}
