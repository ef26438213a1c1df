/**
 * Charts of the venue comparisons: the model's probability against the venue's, the edges of the
 * live markets, and the Brier scores of the resolved ones.
 */
import { chartOf, COLOURS, identityLine, shortTime, type Chart } from "./chart.ts";

/**
 * One market at one clock: its contract family (`venuea/up-down/daily`, …), asset, and the two
 * probabilities.
 * @example const market: VenueMarket = { family: "venueb/hourly", asset: "ETH", model: 0.42, venue: 0.47 };
 */
export interface VenueMarket {
  readonly family: string;
  readonly asset: string;
  readonly model: number;
  readonly venue: number;
}

/**
 * The model's probability against the venue's, one point per market, on the identity line where
 * they agree; colour the contract family, shape the asset.
 * @param markets - one per market: its contract family, asset and both probabilities.
 * @example const chart = venueScatterChart(markets);
 */
export function venueScatterChart(markets: readonly VenueMarket[]): Chart {
  const probability = (field: string, title: string) =>
    ({ field, type: "quantitative", title, scale: { domain: [0, 1] } }) as const;
  return chartOf({
    title: `Model probability against the venue's, per market (${markets.length} markets; dashed: equal)`,
    width: 420,
    height: 420,
    layer: [
      identityLine(0, 1),
      {
        data: { values: markets },
        mark: { type: "point", filled: true, opacity: 0.75, size: 45 },
        encoding: {
          x: probability("venue", "venue probability"),
          y: probability("model", "model probability"),
          color: { field: "family", type: "nominal", title: "contract", legend: { labelLimit: 0 } },
          shape: { field: "asset", type: "nominal", title: "asset" },
        },
      },
    ],
  });
}

/**
 * One live market's edge: pathlab's probability minus the venue's, and whether it survives the
 * spread, fee and rounding.
 * @example const edge: VenueEdge = { family: "venuea/above/daily", edge: 0.06, tradable: true };
 */
export interface VenueEdge {
  readonly family: string;
  readonly edge: number;
  readonly tradable: boolean;
}

/**
 * Histograms of the edges of live markets, stacked by contract family: one panel for the edges
 * beyond the spread, fee and rounding, one for the rest.
 * @param edges - the live markets' edges, with their contract family.
 * @example const chart = edgeHistogramChart(edges);
 */
export function edgeHistogramChart(edges: readonly VenueEdge[]): Chart {
  const tradable = edges.filter((edge) => edge.tradable).length;
  const label = (edge: VenueEdge) =>
    edge.tradable
      ? `tradable: beyond the spread, fee and rounding (${tradable})`
      : `not tradable (${edges.length - tradable})`;
  return chartOf({
    title: `Edge: model − venue probability, ${edges.length} live markets`,
    width: 520,
    height: 200,
    data: { values: edges.map((edge) => ({ ...edge, panel: label(edge) })) },
    mark: "bar",
    encoding: {
      x: {
        field: "edge",
        type: "quantitative",
        bin: { step: 0.02 },
        title: "model − venue probability",
      },
      y: { aggregate: "count", type: "quantitative", title: "markets" },
      color: { field: "family", type: "nominal", title: "contract", legend: { labelLimit: 0 } },
      row: {
        field: "panel",
        type: "nominal",
        title: null,
        sort: "descending",
        header: {
          labelAngle: 0,
          labelAlign: "left",
          labelOrient: "top",
          labelLimit: 0,
          labelFontSize: 12,
        },
      },
    },
  });
}

/**
 * A resolved market: when its event ended (Unix seconds) and the Brier scores of the model's and
 * the venue's probabilities against its outcome.
 * @example const market: ResolvedMarket = { eventEndUnix: 1795435200, modelBrier: 0.04, venueBrier: 0.09 };
 */
export interface ResolvedMarket {
  readonly eventEndUnix: number;
  readonly modelBrier: number;
  readonly venueBrier: number;
}

/**
 * The mean Brier score of the model and of the venue over the markets resolving at each event
 * end: a pair of bars per end, its count of markets on the axis (separate groups of markets, not a
 * series, so no line joins them).
 * @param resolved - the resolved markets, with their event's end and both Brier scores.
 * @example const chart = brierChart(resolved);
 */
export function brierChart(resolved: readonly ResolvedMarket[]): Chart {
  const byEnd = new Map<number, ResolvedMarket[]>();
  for (const market of resolved) {
    byEnd.set(market.eventEndUnix, [...(byEnd.get(market.eventEndUnix) ?? []), market]);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const values = [...byEnd]
    .sort(([first], [second]) => first - second)
    .flatMap(([end, markets]) => {
      const group = `${shortTime(end)} · n = ${markets.length}`;
      return [
        { group, forecaster: "model", brier: mean(markets.map((market) => market.modelBrier)) },
        { group, forecaster: "venue", brier: mean(markets.map((market) => market.venueBrier)) },
      ];
    });
  return chartOf({
    title:
      resolved.length === 0
        ? "No resolved market: nothing to score yet"
        : `Mean Brier score of the markets resolving at each time (${resolved.length} markets)`,
    width: { step: 70 },
    height: 260,
    data: { values },
    mark: "bar",
    encoding: {
      x: {
        field: "group",
        type: "ordinal",
        sort: null,
        axis: { labelAngle: 0, labelLimit: 0 },
        title: "event end (UTC) · markets resolving then",
      },
      xOffset: { field: "forecaster" },
      y: { field: "brier", type: "quantitative", title: "mean Brier score (lower is better)" },
      color: {
        field: "forecaster",
        type: "nominal",
        title: "forecaster",
        scale: { domain: ["model", "venue"], range: [COLOURS.blue, COLOURS.orange] },
      },
    },
  });
}
