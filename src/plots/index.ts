/**
 * pathlab/plots: the notebooks' charts as a library. Each chart is a function from rows (what a
 * query of the store gives) to a Vega-Lite specification with a title, labelled axes with units,
 * and a legend wherever colour or shape carries meaning; `renderSvg` and `renderPng` draw it
 * without a browser.
 *
 * Only here, not in the root entry: it loads vega, which a user of the numbers does not need.
 * @module pathlab/plots
 */
export type { Chart } from "./chart.ts";
export * from "./render.ts";
export * from "./insightCharts.ts";
export * from "./optionChart.ts";
export * from "./crosscheckChart.ts";
export * from "./venueCharts.ts";
export * from "./minerCharts.ts";
export * from "./calibrationCharts.ts";
export * from "./candidateCharts.ts";
export * from "./backtestChart.ts";
