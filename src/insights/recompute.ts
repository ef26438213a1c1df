/** `recompute`: any insight or venue record of the spec, by the operation's path. */

import type { RecomputedInsightPath, RecomputedKindTable } from "../domain/insightKinds.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import { liquidationInsight } from "./liquidation.ts";
import { lpBoundsInsight } from "./lpBounds.ts";
import { lpProbabilitiesInsight } from "./lpProbabilities.ts";
import { optionPricingInsight } from "./optionPricing.ts";
import { predictionPercentilesInsight } from "./predictionPercentiles.ts";
import type { InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { earlierRangeModelSides, rangeModelSides, upDownModelSide } from "./venueA.ts";
import { venueBModelSides } from "./venueB.ts";
import { volatilityInsight, volatilityPercentilesInsight } from "./volatility.ts";

/**
 * A spec path that {@link recompute} answers: every kind of the registry that pathlab recomputes.
 * @example const path: RecomputablePath = "/insights/venueb/15min";
 */
export type RecomputablePath = RecomputedInsightPath;

type Recomputer = (
  source: Ensemble | InsightSession,
  context: InsightContext,
) => InsightResult<unknown>;

/** The recomputation of each kind: typed against the registry, so that none is left out. */
const RECOMPUTERS = {
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
} satisfies RecomputedKindTable<Recomputer>;

/** The record a recomputation gives. */
type RecordOf<Recomputation extends Recomputer> =
  ReturnType<Recomputation> extends InsightResult<infer Result> ? Result : never;

/**
 * The recomputed record of each operation: the spec's record for the insights, the model side for
 * the venue comparisons (what its entry of the recompute table returns).
 * @example type Bounds = RecomputedRecords["/insights/lp-bounds"]; // LpBoundsRecord
 */
export type RecomputedRecords = {
  [Path in RecomputablePath]: RecordOf<(typeof RECOMPUTERS)[Path]>;
};

/**
 * Every path {@link recompute} answers, in the order of its table.
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
 * @param operationPath - the record's operation, as a spec path, e.g. `/insights/lp-bounds`.
 * @param source - the ensemble, or a session of it to share intermediates between records.
 * @param context - the asset, horizon, current price and forecast start, and the inputs the record
 *   reads (see each field's default).
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
