/**
 * Charts of the venue comparisons: the model's probability against the venue's, the edges of the
 * live markets with their error bars, and the Brier scores of the resolved ones.
 */
import { meanInterval } from "../core/intervals.ts";
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
 * One live market's edge: pathlab's probability minus the venue's, whether it survives the spread,
 * fee and rounding, and whether it is tradable (beyond 2 standard errors of the model as well).
 * @example const edge: VenueEdge = { family: "venuea/above/daily", edge: 0.06, beyondSpread: true, tradable: true };
 */
export interface VenueEdge {
  readonly family: string;
  readonly edge: number;
  readonly beyondSpread: boolean;
  readonly tradable: boolean;
}

/**
 * Histograms of the edges of live markets, stacked by contract family: one panel for the tradable
 * edges, one for those beyond the spread, fee and rounding but within 2 standard errors of the
 * model, one for the rest.
 * @param edges - the live markets' edges, with their contract family.
 * @example const chart = edgeHistogramChart(edges);
 */
export function edgeHistogramChart(edges: readonly VenueEdge[]): Chart {
  const count = (test: (edge: VenueEdge) => boolean) => edges.filter(test).length;
  const tradable = count((edge) => edge.tradable);
  const within = count((edge) => edge.beyondSpread && !edge.tradable);
  const panels = [
    `tradable: beyond the spread, fee, rounding and 2 standard errors (${tradable})`,
    `beyond the spread, fee and rounding, within 2 standard errors (${within})`,
    `within the spread, fee and rounding (${edges.length - tradable - within})`,
  ];
  const label = (edge: VenueEdge) => panels[edge.tradable ? 0 : edge.beyondSpread ? 1 : 2];
  return chartOf({
    title: `Edge: model − venue probability, ${edges.length} live markets`,
    width: 520,
    height: 120,
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
        sort: panels,
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
 * A live market's edge beyond the spread, with the standard error of the model's probability
 * (Monte-Carlo and between the miners, combined).
 * @example const edge: EdgeWithError = { market: "BTC >70000", netEdge: 0.031, standardError: 0.012, tradable: true };
 */
export interface EdgeWithError {
  /** The market as the chart names it: asset and market, e.g. `BTC >70000`. */
  readonly market: string;
  readonly netEdge: number;
  readonly standardError: number;
  readonly tradable: boolean;
}

/**
 * Net edges with their error bars: a point at each market's net edge and a bar of ± 2 standard
 * errors of the model's probability, the largest edge on top; a market is tradable where its
 * whole bar lies right of zero. Markets are named in `market`, which must tell them apart.
 * @param edges - the live markets' net edges and standard errors.
 * @example const chart = edgeErrorChart(edges.slice(0, 25));
 */
export function edgeErrorChart(edges: readonly EdgeWithError[]): Chart {
  const values = edges.map((edge) => ({
    ...edge,
    low: edge.netEdge - 2 * edge.standardError,
    high: edge.netEdge + 2 * edge.standardError,
    status: edge.tradable ? "tradable" : "within 2 standard errors",
  }));
  const order = [...values].sort((a, b) => b.netEdge - a.netEdge).map((edge) => edge.market);
  const y = {
    field: "market",
    type: "nominal",
    sort: order,
    title: "market",
    // the title above the labels, right-aligned to them: beside long labels it would overlap
    axis: { labelLimit: 320, titleAngle: 0, titleAlign: "right", titleX: -8, titleY: -6 },
  } as const;
  const colour = {
    field: "status",
    type: "nominal",
    title: "edge",
    scale: {
      domain: ["tradable", "within 2 standard errors"],
      range: [COLOURS.green, COLOURS.grey],
    },
  } as const;
  return chartOf({
    title: `Net edge ± 2 standard errors of the model, ${edges.length} live markets`,
    width: 420,
    height: { step: 16 },
    data: { values },
    layer: [
      {
        mark: { type: "rule", strokeDash: [4, 3], color: COLOURS.ink },
        encoding: { x: { datum: 0 } },
      },
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          y,
          x: { field: "low", type: "quantitative", title: "net edge (probability units)" },
          x2: { field: "high" },
          color: colour,
        },
      },
      {
        mark: { type: "point", filled: true, size: 40 },
        encoding: { y, x: { field: "netEdge", type: "quantitative" }, color: colour },
      },
    ],
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
 * end, with its 95 % interval (Student's t over the markets: few resolve at one time, and the
 * normal approximation would understate the interval 2.2× at n = 3): a pair of bars per end, its
 * count of markets on the axis (separate groups of markets, not a series, so no line joins them).
 * A single market has no interval.
 * @param resolved - the resolved markets, with their event's end and both Brier scores.
 * @example const chart = brierChart(resolved);
 */
export function brierChart(resolved: readonly ResolvedMarket[]): Chart {
  const byEnd = new Map<number, ResolvedMarket[]>();
  for (const market of resolved) {
    byEnd.set(market.eventEndUnix, [...(byEnd.get(market.eventEndUnix) ?? []), market]);
  }
  const scored = (group: string, forecaster: "model" | "venue", briers: number[]) => {
    const { mean, low, high } = meanInterval(briers);
    // no interval for one market: left out rather than drawn as NaN
    return Number.isNaN(low)
      ? { group, forecaster, brier: mean }
      : { group, forecaster, brier: mean, low: Math.max(0, low), high };
  };
  const values = [...byEnd]
    .sort(([first], [second]) => first - second)
    .flatMap(([end, markets]) => {
      const group = `${shortTime(end)} · n = ${markets.length}`;
      return [
        scored(
          group,
          "model",
          markets.map((market) => market.modelBrier),
        ),
        scored(
          group,
          "venue",
          markets.map((market) => market.venueBrier),
        ),
      ];
    });
  const x = {
    field: "group",
    type: "ordinal",
    sort: null,
    axis: { labelAngle: 0, labelLimit: 0 },
    title: "event end (UTC) · markets resolving then",
  } as const;
  const color = {
    field: "forecaster",
    type: "nominal",
    title: "forecaster",
    scale: { domain: ["model", "venue"], range: [COLOURS.blue, COLOURS.orange] },
  } as const;
  return chartOf({
    title:
      resolved.length === 0
        ? "No resolved market: nothing to score yet"
        : `Mean Brier score of the markets resolving at each time, 95 % intervals (${resolved.length} markets)`,
    width: { step: 70 },
    height: 260,
    data: { values },
    encoding: { x, xOffset: { field: "forecaster", sort: ["model", "venue"] } },
    layer: [
      {
        mark: "bar",
        encoding: {
          y: { field: "brier", type: "quantitative", title: "mean Brier score (lower is better)" },
          color,
        },
      },
      {
        mark: { type: "rule", color: COLOURS.ink },
        encoding: { y: { field: "low", type: "quantitative" }, y2: { field: "high" } },
      },
    ],
  });
}
