/** `recompute`: any insight or venue record of the spec, by the operation's path. */

import type { LiquidationRecord } from "../domain/records/liquidation.ts";
import type { LpBoundsRecord, LpProbabilitiesRecord } from "../domain/records/lp.ts";
import type { OptionPricingRecord } from "../domain/records/option-pricing.ts";
import type { PredictionPercentilesRecord } from "../domain/records/percentiles.ts";
import type {
  VolatilityPercentilesRecord,
  VolatilityRecord,
} from "../domain/records/volatility.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import { liquidationInsight } from "./liquidation.ts";
import { lpBoundsInsight } from "./lpBounds.ts";
import { lpProbabilitiesInsight } from "./lpProbabilities.ts";
import { optionPricingInsight } from "./optionPricing.ts";
import { predictionPercentilesInsight } from "./predictionPercentiles.ts";
import type { InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import {
  earlierRangeModelSides,
  rangeModelSides,
  upDownModelSide,
  type EarlierRangeModelSide,
  type RangeModelSide,
  type UpDownModelSide,
} from "./venueA.ts";
import { venueBModelSides, type VenueBModelSide } from "./venueB.ts";
import { volatilityInsight, volatilityPercentilesInsight } from "./volatility.ts";

/**
 * The recomputed record of each operation: the spec's record for the insights, the model side for
 * the venue comparisons.
 * @example type Bounds = RecomputedRecords["/insights/lp-bounds"]; // LpBoundsRecord
 */
export interface RecomputedRecords {
  "/insights/liquidation": LiquidationRecord;
  "/insights/lp-bounds": LpBoundsRecord;
  "/insights/lp-probabilities": LpProbabilitiesRecord;
  "/insights/lp-bounds-chart": LpProbabilitiesRecord;
  "/insights/option-pricing": OptionPricingRecord;
  "/insights/volatility": VolatilityRecord;
  "/insights/volatility-percentiles": VolatilityPercentilesRecord;
  "/insights/prediction-percentiles": PredictionPercentilesRecord;
  "/insights/venuea/up-down/daily": UpDownModelSide;
  "/insights/venuea/up-down/hourly": UpDownModelSide;
  "/insights/venuea/up-down/15min": UpDownModelSide;
  "/insights/venuea/up-down/5min": UpDownModelSide;
  "/insights/venuea/range": EarlierRangeModelSide[];
  "/insights/venuea/range/daily": RangeModelSide[];
  "/insights/venuea/above/daily": RangeModelSide[];
  "/insights/venuea/hit/daily": RangeModelSide[];
  "/insights/venueb/daily": VenueBModelSide[];
  "/insights/venueb/hourly": VenueBModelSide[];
  "/insights/venueb/15min": VenueBModelSide[];
}

/**
 * A spec path that {@link recompute} answers.
 * @example const path: RecomputablePath = "/insights/venueb/15min";
 */
export type RecomputablePath = keyof RecomputedRecords;

type Recomputer = (
  source: Ensemble | InsightSession,
  context: InsightContext,
) => InsightResult<unknown>;

const RECOMPUTERS: { readonly [Path in RecomputablePath]: Recomputer } = {
  "/insights/liquidation": liquidationInsight,
  "/insights/lp-bounds": lpBoundsInsight,
  "/insights/lp-probabilities": lpProbabilitiesInsight,
  "/insights/lp-bounds-chart": lpProbabilitiesInsight,
  "/insights/option-pricing": optionPricingInsight,
  "/insights/volatility": volatilityInsight,
  "/insights/volatility-percentiles": volatilityPercentilesInsight,
  "/insights/prediction-percentiles": predictionPercentilesInsight,
  "/insights/venuea/up-down/daily": (source, context) => upDownModelSide(source, context, "daily"),
  "/insights/venuea/up-down/hourly": (source, context) =>
    upDownModelSide(source, context, "hourly"),
  "/insights/venuea/up-down/15min": (source, context) => upDownModelSide(source, context, "15min"),
  "/insights/venuea/up-down/5min": (source, context) => upDownModelSide(source, context, "5min"),
  "/insights/venuea/range": earlierRangeModelSides,
  "/insights/venuea/range/daily": rangeModelSides,
  "/insights/venuea/above/daily": rangeModelSides,
  "/insights/venuea/hit/daily": rangeModelSides,
  "/insights/venueb/daily": (source, context) => venueBModelSides(source, context, "daily"),
  "/insights/venueb/hourly": (source, context) => venueBModelSides(source, context, "hourly"),
  "/insights/venueb/15min": (source, context) => venueBModelSides(source, context, "15min"),
};

/**
 * Every path {@link recompute} answers, in the order of the operations table.
 * @example RECOMPUTABLE_PATHS.length // => 19
 */
export const RECOMPUTABLE_PATHS: readonly RecomputablePath[] = Object.freeze(
  Object.keys(RECOMPUTERS) as RecomputablePath[],
);

/**
 * Recomputes the record of the insight or venue operation at `operationPath` (the spec's neutral
 * path) from an ensemble (or an {@link InsightSession}, to share intermediates between records) and
 * a context: the record with its Monte-Carlo standard errors. Venue operations give the model side.
 * Throws `RangeError` for a path that is not an insight or venue operation, and whatever the
 * record's function throws (a context that does not fit, a missing input).
 * @example
 * const { record, standardErrors } = recompute("/insights/lp-bounds", ensemble, context);
 */
export function recompute<const Path extends RecomputablePath>(
  operationPath: Path,
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<RecomputedRecords[Path]> {
  const recomputer = Object.hasOwn(RECOMPUTERS, operationPath)
    ? RECOMPUTERS[operationPath]
    : undefined;
  if (recomputer === undefined) {
    throw new RangeError(
      `recompute: ${JSON.stringify(operationPath)} is not an insight or venue operation; expected one of ${RECOMPUTABLE_PATHS.join(", ")}`,
    );
  }
  return recomputer(source, context) as InsightResult<RecomputedRecords[Path]>;
}
