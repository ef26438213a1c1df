/** The venue comparison operations: venue A (`/insights/venuea/*`) and venue B (`/insights/venueb/*`). */
import {
  ABOVE_ASSETS,
  HIT_ASSETS,
  INSIGHT_ASSETS,
  RANGE_ASSETS,
  UP_DOWN_FIFTEEN_MINUTE_ASSETS,
  UP_DOWN_INTRADAY_ASSETS,
  VENUE_B_DAILY_ASSETS,
  VENUE_B_FIFTEEN_MINUTE_ASSETS,
  VENUE_B_HOURLY_ASSETS,
} from "../assets.ts";
import { arrayOf } from "../decode.ts";
import {
  earlierRangeRecordCodec,
  rangeComparisonsCodec,
  upDownComparisonRecordCodec,
} from "../records/venue-a.ts";
import { venueBComparisonsCodec } from "../records/venue-b.ts";
import { insightOperation } from "./insights.ts";

/**
 * The venue A section of the operations table.
 * @example
 * venueAOperations.rangeDaily.path // => "/insights/venuea/range/daily"
 */
export const venueAOperations = {
  upDownDaily: insightOperation({
    path: "/insights/venuea/up-down/daily",
    section: "venueA",
    method: "upDownDaily",
    summary: "Up/Down comparison for the daily contract resolving at the end of the UTC day",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: upDownComparisonRecordCodec,
  }),
  upDownHourly: insightOperation({
    path: "/insights/venuea/up-down/hourly",
    section: "venueA",
    method: "upDownHourly",
    summary: "Up/Down comparison for the hourly contract",
    assets: UP_DOWN_INTRADAY_ASSETS,
    defaultHorizon: "1h",
    codec: upDownComparisonRecordCodec,
  }),
  upDownFifteenMinute: insightOperation({
    path: "/insights/venuea/up-down/15min",
    section: "venueA",
    method: "upDownFifteenMinute",
    summary: "Up/Down comparison for the 15-minute contract",
    assets: UP_DOWN_FIFTEEN_MINUTE_ASSETS,
    defaultHorizon: "1h",
    codec: upDownComparisonRecordCodec,
  }),
  upDownFiveMinute: insightOperation({
    path: "/insights/venuea/up-down/5min",
    section: "venueA",
    method: "upDownFiveMinute",
    summary: "Up/Down comparison for the 5-minute contract",
    assets: UP_DOWN_INTRADAY_ASSETS,
    defaultHorizon: "1h",
    codec: upDownComparisonRecordCodec,
  }),
  range: insightOperation({
    path: "/insights/venuea/range",
    section: "venueA",
    method: "range",
    summary: "Earlier form of the range comparison: title, bounds and both probabilities",
    assets: RANGE_ASSETS,
    defaultHorizon: "24h",
    codec: arrayOf(earlierRangeRecordCodec),
  }),
  rangeDaily: insightOperation({
    path: "/insights/venuea/range/daily",
    section: "venueA",
    method: "rangeDaily",
    summary: "Range-family comparisons, one per active market of the asset",
    assets: RANGE_ASSETS,
    defaultHorizon: "24h",
    codec: rangeComparisonsCodec(),
  }),
  aboveDaily: insightOperation({
    path: "/insights/venuea/above/daily",
    section: "venueA",
    method: "aboveDaily",
    summary: "Above-threshold comparisons (cmp_type always above)",
    assets: ABOVE_ASSETS,
    defaultHorizon: "24h",
    codec: rangeComparisonsCodec("above"),
  }),
  hitDaily: insightOperation({
    path: "/insights/venuea/hit/daily",
    section: "venueA",
    method: "hitDaily",
    summary: "Hit-level comparisons (cmp_type always hit: YES if the level is touched)",
    assets: HIT_ASSETS,
    defaultHorizon: "24h",
    codec: rangeComparisonsCodec("hit"),
  }),
} as const;

/**
 * The venue B section of the operations table.
 * @example
 * venueBOperations.hourly.path // => "/insights/venueb/hourly"
 */
export const venueBOperations = {
  daily: insightOperation({
    path: "/insights/venueb/daily",
    section: "venueB",
    method: "daily",
    summary: "Venue B comparisons for the daily markets",
    assets: VENUE_B_DAILY_ASSETS,
    defaultHorizon: "24h",
    codec: venueBComparisonsCodec,
  }),
  hourly: insightOperation({
    path: "/insights/venueb/hourly",
    section: "venueB",
    method: "hourly",
    summary: "Venue B comparisons for the hourly contracts at several strikes",
    assets: VENUE_B_HOURLY_ASSETS,
    defaultHorizon: "1h",
    codec: venueBComparisonsCodec,
  }),
  fifteenMinute: insightOperation({
    path: "/insights/venueb/15min",
    section: "venueB",
    method: "fifteenMinute",
    summary: "Venue B comparisons for the 15-minute contracts",
    assets: VENUE_B_FIFTEEN_MINUTE_ASSETS,
    defaultHorizon: "1h",
    codec: venueBComparisonsCodec,
  }),
} as const;
