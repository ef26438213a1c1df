/**
 * The sandbox's answer to every insight and venue operation: the response body (the spec record in
 * neutral naming; the server encodes it for its naming) chosen by `inputs.operationPath`.
 */

import { isInsightPath } from "../../domain/insightKindLists.ts";
import type { InsightKindTable } from "../../domain/insightKinds.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { buildLiquidationRecord } from "./liquidation.ts";
import { buildLpBoundsRecord } from "./lpBounds.ts";
import { buildLpProbabilitiesRecord } from "./lpProbabilities.ts";
import { buildOptionPricingRecord } from "./optionPricing.ts";
import { buildPredictionPercentilesRecord } from "./predictionPercentiles.ts";
import { buildEarlierRangeRecords, buildRangeFamilyRecords } from "./rangeFamily.ts";
import { buildUpDownRecord } from "./upDown.ts";
import { buildVenueBRecords } from "./venueB.ts";
import { buildVolatilityPercentilesRecord, buildVolatilityRecord } from "./volatility.ts";

/** The builder of each kind: typed against the registry, so that none is left out. */
const BUILDERS = {
  "/insights/liquidation": buildLiquidationRecord,
  "/insights/lp-bounds": buildLpBoundsRecord,
  "/insights/lp-probabilities": buildLpProbabilitiesRecord,
  // The older name of lp-probabilities: the spec decodes it as the same record.
  "/insights/lp-bounds-chart": buildLpProbabilitiesRecord,
  "/insights/option-pricing": buildOptionPricingRecord,
  "/insights/volatility": buildVolatilityRecord,
  "/insights/volatility-percentiles": buildVolatilityPercentilesRecord,
  "/insights/prediction-percentiles": buildPredictionPercentilesRecord,
  "/insights/venuea/up-down/daily": (inputs) => buildUpDownRecord(inputs, "daily"),
  "/insights/venuea/up-down/hourly": (inputs) => buildUpDownRecord(inputs, "hourly"),
  "/insights/venuea/up-down/15min": (inputs) => buildUpDownRecord(inputs, "15min"),
  "/insights/venuea/up-down/5min": (inputs) => buildUpDownRecord(inputs, "5min"),
  "/insights/venuea/range": buildEarlierRangeRecords,
  "/insights/venuea/range/daily": (inputs) => buildRangeFamilyRecords(inputs, "range"),
  "/insights/venuea/above/daily": (inputs) => buildRangeFamilyRecords(inputs, "above"),
  "/insights/venuea/hit/daily": (inputs) => buildRangeFamilyRecords(inputs, "hit"),
  "/insights/venueb/daily": (inputs) => buildVenueBRecords(inputs, "daily"),
  "/insights/venueb/hourly": (inputs) => buildVenueBRecords(inputs, "hourly"),
  "/insights/venueb/15min": (inputs) => buildVenueBRecords(inputs, "15min"),
} satisfies InsightKindTable<(inputs: SandboxInsightInputs) => unknown>;

/**
 * The spec paths {@link buildInsightResponse} answers: every insight and venue operation.
 * @example SANDBOX_INSIGHT_PATHS.includes("/insights/venueb/15min") // => true
 */
export const SANDBOX_INSIGHT_PATHS: readonly string[] = Object.freeze(Object.keys(BUILDERS));

/**
 * The response body of the insight or venue operation at `inputs.operationPath` (a spec path in
 * neutral words), computed with `src/reference/` from the inputs. Records that share an ensemble
 * share its re-based paths, sorted columns and window extremes (cached weakly on `inputs.paths`).
 * Throws `RangeError` for a path that is not an insight or venue operation, and for inputs a
 * record cannot be built from (the message names the operation and the field).
 * @example
 * const body = buildInsightResponse({ ...inputs, operationPath: "/insights/liquidation" });
 * const wire = encode("/insights/liquidation", body as LiquidationRecord, { naming: liveNaming });
 */
export function buildInsightResponse(inputs: SandboxInsightInputs): unknown {
  const path = inputs.operationPath;
  if (!isInsightPath(path)) {
    throw new RangeError(
      `buildInsightResponse: ${JSON.stringify(path)} is not an insight or venue operation; expected one of ${SANDBOX_INSIGHT_PATHS.join(", ")}`,
    );
  }
  return BUILDERS[path](inputs);
}
