/**
 * The chart of the service's option pricing record: call and put prices by strike, and the
 * volatility they imply.
 */
import { chartOf, COLOURS, type Chart } from "./chart.ts";

/**
 * Call and put prices against the strike, for one expiry. When the expiry lies after the end of
 * the simulation the prices come from (`simulatedUntil`), the subtitle says so: the service then
 * prices the option from the paths' last point, the terminal distribution of `horizon`. Where the
 * strikes carry an implied volatility (`impliedVolatility` of pathlab/insights, from the
 * out-of-the-money option on the paths' forward), a second panel draws it by strike, the smile a
 * desk reads.
 * @param input - the asset, the expiry as the record writes it, the call and put price of each
 *   strike (with its implied volatility, a fraction, where known), and, when known, the end of the
 *   simulation (ISO 8601) and its horizon (`24h`).
 * @example const chart = optionPricesChart({ asset: "BTC", expiry: record.expiry_time, strikes: [{ strike: 90000, call: 1520.4, put: 310.2, impliedVolatility: 0.52 }], simulatedUntil: "2026-11-22T10:00:00Z", horizon: "24h" });
 */
export function optionPricesChart(input: {
  readonly asset: string;
  readonly expiry: string;
  readonly strikes: readonly {
    readonly strike: number;
    readonly call: number;
    readonly put: number;
    readonly impliedVolatility?: number;
  }[];
  readonly simulatedUntil?: string;
  readonly horizon?: string;
}): Chart {
  const text = `${input.asset}: option prices for expiry ${input.expiry}`;
  const daysAfter =
    input.simulatedUntil === undefined
      ? 0
      : (Date.parse(input.expiry) - Date.parse(input.simulatedUntil)) / 86_400_000;
  const title =
    daysAfter > 0
      ? {
          text,
          subtitle: `priced from the ${input.horizon ?? "simulation's"} terminal distribution: the simulation ends ${daysAfter.toFixed(1)} days before the expiry`,
        }
      : text;
  const strike = {
    field: "strike",
    type: "quantitative",
    title: "strike (USD)",
    scale: { zero: false },
  } as const;
  const prices = {
    width: 420,
    height: 260,
    data: {
      values: input.strikes.flatMap(({ strike, call, put }) => [
        { strike, option: "call", price: call },
        { strike, option: "put", price: put },
      ]),
    },
    mark: { type: "line", point: true },
    encoding: {
      x: strike,
      y: { field: "price", type: "quantitative", title: "undiscounted price (USD)" },
      color: { field: "option", type: "nominal", title: "option" },
    },
  };
  const smile = input.strikes.filter((row) => Number.isFinite(row.impliedVolatility));
  if (smile.length === 0) return chartOf({ title, ...prices });
  return chartOf({
    title,
    vconcat: [
      prices,
      {
        width: 420,
        height: 160,
        data: { values: smile },
        mark: { type: "line", color: COLOURS.ink, point: { filled: true, color: COLOURS.ink } },
        encoding: {
          x: strike,
          y: {
            field: "impliedVolatility",
            type: "quantitative",
            title: "implied volatility (Black–Scholes, r = 0)",
            scale: { zero: false },
            axis: { format: ".1%" },
          },
        },
      },
    ],
  });
}
