/**
 * What every chart of the plots layer is: a Vega-Lite specification as plain JSON, with a title,
 * and the pieces the charts share (colours, the time axis, the identity line).
 */
import { quantileSorted } from "../core/quantiles.ts";
import { isoSeconds } from "../domain/time.ts";

/**
 * A chart: a Vega-Lite specification (plain JSON) with its title. Render it with `renderSvg` or
 * `renderPng`, hand it to any Vega-Lite viewer, or change it before rendering (it is a fresh object
 * per call).
 * @example const chart: Chart = { title: "Two points", data: { values: [{ x: 1, y: 2 }] }, mark: "point" };
 */
export type Chart = {
  readonly title: string | { readonly text: string; readonly subtitle?: string | string[] };
} & Readonly<Record<string, unknown>>;

/**
 * A built specification as a {@link Chart}. Its validity as Vega-Lite is not a type here (vega-lite's
 * types would enter every consumer's build): test/plots compiles and renders every chart instead.
 */
export function chartOf(spec: { readonly title: Chart["title"] } & Record<string, unknown>): Chart {
  return spec;
}

/** The colours of the charts: Tableau 10's, as Vega-Lite's default scheme. */
export const COLOURS = {
  blue: "#4c78a8",
  orange: "#f58518",
  red: "#e45756",
  teal: "#72b7b2",
  green: "#54a24b",
  yellow: "#eeca3b",
  brown: "#9d755d",
  grey: "#999999",
  ink: "#333333",
} as const;

/** `MM-DD HH:MM` of Unix seconds, UTC: a short label for one time among a day's. */
export function shortTime(unix: number): string {
  return isoSeconds(unix).slice(5, 16).replace("T", " ");
}

/** An x encoding of ISO times as UTC, labelled `day hour:minute`. */
export function utcAxis(field: string, title: string) {
  return {
    field,
    type: "temporal",
    scale: { type: "utc" },
    axis: { format: "%d %H:%M" },
    title,
  } as const;
}

/**
 * A dashed diagonal from (low, low) to (high, high): where two quantities are equal. Its own data,
 * so that it spans the range whatever the other layers hold.
 */
export function identityLine(low: number, high: number) {
  return {
    data: { values: [{ diagonal: low }, { diagonal: high }] },
    mark: { type: "line", color: COLOURS.grey, strokeDash: [4, 3] },
    encoding: {
      x: { field: "diagonal", type: "quantitative" },
      y: { field: "diagonal", type: "quantitative" },
    },
  } as const;
}

/** The smallest and largest of `values` (finite ones), or undefined when there is none. */
export function extent(values: Iterable<number>): [number, number] | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return low <= high ? [low, high] : undefined;
}

/** The median of `values` (numpy's: the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  return quantileSorted(Float64Array.from(values).sort(), 0.5);
}

/**
 * An axis of ranks up to `most` (1 = best, at the top): every rank labelled when there are few,
 * whole numbers only otherwise.
 */
export function rankAxis(most: number) {
  return most <= 15
    ? { values: Array.from({ length: most }, (_, index) => index + 1), format: "d" }
    : { tickMinStep: 1, format: "d" };
}
