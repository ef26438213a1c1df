/**
 * The chart of pathlab's cross-check of the service's records: a grid of verdicts per operation
 * and unit.
 */
import { chartOf, COLOURS, type Chart } from "./chart.ts";

/**
 * One cell of the cross-check grid: an operation at a unit (asset and horizon), its worst verdict,
 * and how many of its numbers were compared and found exact.
 * @example const cell: CrosscheckCell = { operation: "liquidation", unit: "BTC 24h", worst: "exact", numbers: 96, exact: 96 };
 */
export interface CrosscheckCell {
  readonly operation: string;
  readonly unit: string;
  readonly worst: string;
  readonly numbers: number;
  readonly exact: number;
}

/** The cross-check's verdicts, best first, and their colours. */
const VERDICT_COLOURS = {
  exact: COLOURS.green,
  "within-mc": COLOURS.yellow,
  mismatch: COLOURS.red,
  missing: COLOURS.brown,
} as const;

/**
 * The cross-check as a grid: one cell per operation and unit, coloured by its worst verdict and
 * labelled with its numbers exact out of compared.
 * @param cells - one per operation and unit.
 * @example const chart = crosscheckChart(cells);
 */
export function crosscheckChart(cells: readonly CrosscheckCell[]): Chart {
  return chartOf({
    title:
      "Cross-check verdict of each operation and unit, every forecast start (label: numbers exact / compared)",
    width: { step: 96 },
    height: { step: 24 },
    data: { values: cells.map((cell) => ({ ...cell, label: `${cell.exact} / ${cell.numbers}` })) },
    encoding: {
      x: {
        field: "unit",
        type: "nominal",
        title: "asset and horizon",
        axis: { labelAngle: 0, orient: "top", labelFontSize: 12 },
      },
      y: {
        field: "operation",
        type: "nominal",
        title: "operation",
        axis: { labelLimit: 300, labelFontSize: 12 },
      },
    },
    layer: [
      {
        mark: "rect",
        encoding: {
          color: {
            field: "worst",
            type: "nominal",
            title: "verdict",
            scale: { domain: Object.keys(VERDICT_COLOURS), range: Object.values(VERDICT_COLOURS) },
          },
        },
      },
      {
        mark: { type: "text", fontSize: 12, color: "white" },
        encoding: { text: { field: "label", type: "nominal" } },
      },
    ],
  });
}
