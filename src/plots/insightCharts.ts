/**
 * Charts of the service's insight records: the percentile fan, the liquidation heat map and
 * liquidity-provider ranges (option prices: `optionChart.ts`).
 */
import type { LiquidationScenario } from "../domain/records/liquidation.ts";
import { isoSeconds } from "../domain/time.ts";
import { chartOf, COLOURS, utcAxis, type Chart } from "./chart.ts";

/**
 * What {@link percentileFanChart} draws.
 * @example const input: PercentileFanInput = { asset: "BTC", startUnix, timeIncrement: 300, percentiles: record.forecast_future.percentiles, realized: null };
 */
export interface PercentileFanInput {
  readonly asset: string;
  /** The forecast's start, Unix seconds. */
  readonly startUnix: number;
  /** Seconds between steps. */
  readonly timeIncrement: number;
  /** Per step, price by percentile (`"0.05"`, `"0.5"`, …), as the percentiles record gives them. */
  readonly percentiles: readonly Readonly<Record<string, number>>[];
  /** The realized price per step (null where unknown); null or absent: no realized line. */
  readonly realized?: readonly (number | null)[] | null;
}

/** The central bands of the fan, widest first, by their percentiles. */
const FAN_BANDS = [
  ["0.005", "0.995", "99% band", "#dde5ef"],
  ["0.05", "0.95", "90% band", "#c3d1e3"],
  ["0.2", "0.8", "60% band", "#a5bcd6"],
  ["0.35", "0.65", "30% band", "#86a6c9"],
] as const;

/**
 * The forecast as a fan: its central 99 %, 90 %, 60 % and 30 % bands and its median over time,
 * with the realized price drawn over it where known. A band whose percentiles the record lacks is
 * left out of the fan and of the legend.
 * @param input - the asset, the forecast's start and step, the percentiles of each step, and the
 *   realized prices when known.
 * @example const chart = percentileFanChart({ asset: "BTC", startUnix, timeIncrement: 300, percentiles });
 */
export function percentileFanChart(input: PercentileFanInput): Chart {
  // Vega-Lite reads a dot in a field name as a nested field: percentile "0.05" becomes "p0_05".
  const field = (percentile: string) => `p${percentile.replace(".", "_")}`;
  const values = input.percentiles.map((step, index) => ({
    time: isoSeconds(input.startUnix + index * input.timeIncrement),
    ...Object.fromEntries(Object.entries(step).map(([key, price]) => [field(key), price])),
    realized: input.realized?.[index] ?? null,
  }));
  const first = input.percentiles[0] ?? {};
  const bands = FAN_BANDS.filter(([low, high]) => low in first && high in first);
  const hasRealized = values.some((point) => point.realized !== null);
  const entries = [
    ...bands.map(([, , name, colour]) => [name, colour] as const),
    ["median", "#1f3b63"] as const,
    ...(hasRealized ? [["realized price", COLOURS.red] as const] : []),
  ];
  const scale = {
    domain: entries.map(([name]) => name),
    range: entries.map(([, colour]) => colour),
  };
  const colour = (entry: string) =>
    ({ datum: entry, type: "nominal", scale, title: null }) as const;
  const priceTitle = `${input.asset} price (USD)`;
  return chartOf({
    title: `${input.asset}: percentiles of the forecast from ${isoSeconds(input.startUnix)}${hasRealized ? ", and the realized price" : ""}`,
    width: 640,
    height: 300,
    data: { values },
    encoding: { x: utcAxis("time", "time (UTC)") },
    layer: [
      ...bands.map(([low, high, name]) => ({
        mark: { type: "area", opacity: 1 },
        encoding: {
          y: { field: field(low), type: "quantitative", title: priceTitle },
          y2: { field: field(high) },
          color: colour(name),
        },
      })),
      {
        mark: { type: "line", strokeWidth: 1.5 },
        encoding: {
          y: {
            field: field("0.5"),
            type: "quantitative",
            scale: { zero: false },
            title: priceTitle,
          },
          color: colour("median"),
        },
      },
      ...(hasRealized
        ? [
            {
              transform: [{ filter: "datum.realized !== null" }],
              mark: { type: "line", strokeWidth: 2 },
              encoding: {
                y: { field: "realized", type: "quantitative", title: priceTitle },
                color: colour("realized price"),
              },
            },
          ]
        : []),
    ],
  });
}

/**
 * The liquidation record as two heat maps (long, short): the probability of liquidation for each
 * price move and window, printed in each cell.
 * @param input - the asset, the forecast's start (Unix seconds) and the record's scenarios (its
 *   `data`).
 * @example const chart = liquidationChart({ asset: "BTC", startUnix, scenarios: record.data });
 */
export function liquidationChart(input: {
  readonly asset: string;
  readonly startUnix: number;
  readonly scenarios: readonly LiquidationScenario[];
}): Chart {
  const cells = input.scenarios.flatMap((scenario) =>
    (["long", "short"] as const).flatMap((side) =>
      Object.entries(scenario[`${side}_liquidation_probability`]).map(([hours, probability]) => ({
        side: `${side} position`,
        move: scenario.price_change,
        order: parseFloat(scenario.price_change),
        hours: Number(hours),
        window: `${hours} h`,
        probability,
      })),
    ),
  );
  const windows = [...new Set(cells.map((cell) => cell.hours))].sort((a, b) => a - b);
  return chartOf({
    title: `${input.asset}: probability of liquidation within each window after ${isoSeconds(input.startUnix)}`,
    data: { values: cells },
    facet: { column: { field: "side", type: "nominal", title: null } },
    spec: {
      width: 260,
      height: 260,
      encoding: {
        x: {
          field: "window",
          type: "ordinal",
          sort: windows.map((hours) => `${hours} h`),
          title: "window after the forecast's start",
          axis: { labelAngle: 0 },
        },
        y: { field: "move", type: "ordinal", sort: { field: "order" }, title: "price move" },
      },
      layer: [
        {
          mark: "rect",
          encoding: {
            color: {
              field: "probability",
              type: "quantitative",
              title: "probability",
              scale: { scheme: "orangered", domain: [0, 1] },
            },
          },
        },
        {
          mark: { type: "text", fontSize: 10 },
          encoding: {
            text: { field: "probability", type: "quantitative", format: ".2f" },
            color: {
              condition: { test: "datum.probability > 0.5", value: "white" },
              value: "black",
            },
          },
        },
      ],
    },
  });
}

/**
 * One range of the LP-bounds record, as numbers: its full width (% of the price), the expected
 * share of the horizon inside it, the probability that the price never leaves it, and the
 * expected impermanent loss (a fraction).
 * @example const range: LpRange = { width: 2, inRange: 0.61, neverLeaves: 0.18, impermanentLoss: 0.0021 };
 */
export interface LpRange {
  readonly width: number;
  readonly inRange: number;
  readonly neverLeaves: number;
  readonly impermanentLoss: number;
}

/**
 * Liquidity-provider ranges against their width: time in range and the chance of never leaving
 * (left), the expected impermanent loss (right).
 * @param input - the asset, the forecast's start (Unix seconds), the horizon (`24h`, `1h`) and the
 *   ranges.
 * @example const chart = lpRangesChart({ asset: "BTC", startUnix, horizon: "24h", ranges });
 */
export function lpRangesChart(input: {
  readonly asset: string;
  readonly startUnix: number;
  readonly horizon: string;
  readonly ranges: readonly LpRange[];
}): Chart {
  const byWidth = {
    field: "width",
    type: "quantitative",
    title: "range width (% of price)",
  } as const;
  const labels = { inRange: "expected time in range", neverLeaves: "never leaves the range" };
  return chartOf({
    title: `${input.asset}: LP ranges for the ${input.horizon} from ${isoSeconds(input.startUnix)}`,
    data: {
      values: input.ranges.flatMap((range) => [
        { ...range, measure: labels.inRange, share: range.inRange },
        { ...range, measure: labels.neverLeaves, share: range.neverLeaves },
      ]),
    },
    hconcat: [
      {
        width: 300,
        height: 220,
        mark: { type: "line", point: true },
        encoding: {
          x: byWidth,
          y: { field: "share", type: "quantitative", title: "share", axis: { format: "%" } },
          color: {
            field: "measure",
            type: "nominal",
            title: null,
            scale: { domain: Object.values(labels), range: [COLOURS.blue, COLOURS.teal] },
            legend: { orient: "bottom", labelLimit: 0 },
          },
        },
      },
      {
        width: 300,
        height: 220,
        transform: [{ filter: `datum.measure === '${labels.inRange}'` }],
        mark: { type: "line", point: true, color: COLOURS.red },
        encoding: {
          x: byWidth,
          y: {
            field: "impermanentLoss",
            type: "quantitative",
            title: "expected impermanent loss",
            axis: { format: ".2%" },
          },
        },
      },
    ],
  });
}
