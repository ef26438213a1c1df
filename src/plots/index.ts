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
export { DEFAULT_CHART_FONT, renderPng, renderSvg, titleOf } from "./render.ts";
export type { PngOptions, SvgOptions } from "./render.ts";
export {
  liquidationChart,
  lpRangesChart,
  optionPricesChart,
  percentileFanChart,
} from "./insightCharts.ts";
export type { LpRange, PercentileFanInput } from "./insightCharts.ts";
export { crosscheckChart } from "./crosscheckChart.ts";
export type { CrosscheckCell } from "./crosscheckChart.ts";
export { brierChart, edgeHistogramChart, venueScatterChart } from "./venueCharts.ts";
export type { ResolvedMarket, VenueEdge, VenueMarket } from "./venueCharts.ts";
export {
  crpsByHourChart,
  crpsParityChart,
  rankOverTimeChart,
  rewardWeightsChart,
} from "./minerCharts.ts";
export type { CrpsPair, HourDifficulty, MinerWeight, RankPoint } from "./minerCharts.ts";
export {
  calibrationTotals,
  coverageChart,
  excessCrpsChart,
  orderByMedian,
  pitChart,
} from "./calibrationCharts.ts";
export type { CalibrationTotal, ForecasterScore } from "./calibrationCharts.ts";
export { candidateRankChart, medianExcessChart } from "./candidateCharts.ts";
export type { MedianExcess, PromptRank } from "./candidateCharts.ts";
