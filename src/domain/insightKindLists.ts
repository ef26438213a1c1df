/**
 * The lists and lookups derived from the registry of insight kinds (`insightKinds.ts`): the
 * operations table's sections, the kinds that read an input, the audited records, the lake codes.
 */

import type {
  AuditedRecord,
  InsightFamily,
  InsightInput,
  InsightKindDefinition,
} from "./insightKind.ts";
import {
  INSIGHT_KINDS,
  type InsightKinds,
  type InsightPath,
  type RecomputedInsightPath,
} from "./insightKinds.ts";
import type { Operation } from "./operation.ts";
import type { InsightParams } from "./params.ts";

/**
 * The operations of one family, by client method: a section of the operations table.
 * @example type VenueB = FamilyOperations<"venueB">; // { daily, hourly, fifteenMinute }
 */
export type FamilyOperations<Family extends InsightFamily> = {
  readonly [
    Path in InsightPath as InsightKinds[Path]["family"] extends Family
      ? InsightKinds[Path]["method"]
      : never
  ]: InsightKinds[Path]["operation"];
};

/**
 * Any kind of the registry, with its facts' types widened (what code that takes any path reads).
 * @example const kind: AnyInsightKind = insightKind("/insights/volatility");
 */
export type AnyInsightKind = InsightKindDefinition & {
  readonly path: InsightPath;
  readonly operation: Operation<InsightPath, InsightParams<string>, unknown>;
};

/**
 * Every kind's path, in the order of the registry.
 * @example INSIGHT_PATHS[0] // => "/insights/liquidation"
 */
export const INSIGHT_PATHS: readonly InsightPath[] = Object.freeze(
  Object.keys(INSIGHT_KINDS) as InsightPath[],
);

/**
 * Whether `path` is the path of an insight kind.
 * @param path - any spec path.
 * @example isInsightPath("/insights/venueb/daily") // => true
 * @example isInsightPath("/v2/prediction/latest") // => false
 */
export function isInsightPath(path: string): path is InsightPath {
  return Object.hasOwn(INSIGHT_KINDS, path);
}

/**
 * The kind of `path`, its facts' types widened.
 * @param path - an insight's spec path, e.g. `/insights/volatility`.
 * @example insightKind("/insights/volatility").inputs // => ["previous-prompt"]
 */
export function insightKind(path: InsightPath): AnyInsightKind {
  return INSIGHT_KINDS[path] as AnyInsightKind;
}

/**
 * The operations of one family, by client method, in the order of the registry: a section of
 * the operations table.
 * @example familyOperations("venueB").hourly.path // => "/insights/venueb/hourly"
 */
export function familyOperations<Family extends InsightFamily>(
  family: Family,
): FamilyOperations<Family> {
  const kinds = INSIGHT_PATHS.map(insightKind).filter((kind) => kind.family === family);
  return Object.freeze(
    Object.fromEntries(kinds.map((kind) => [kind.method, kind.operation])),
  ) as FamilyOperations<Family>;
}

/**
 * The paths of the recomputed kinds that read `input` (see {@link InsightInput}), in the order of
 * the registry.
 * @example recomputedPathsReading("previous-prompt") // => ["/insights/volatility", "/insights/volatility-percentiles"]
 */
export function recomputedPathsReading(input: InsightInput): RecomputedInsightPath[] {
  return INSIGHT_PATHS.filter((path): path is RecomputedInsightPath => {
    const kind = insightKind(path);
    return kind.recomputed && kind.inputs.includes(input);
  });
}

/**
 * The kinds `pathlab audit` checks, in the order of the registry: each path with where a saved
 * folder holds its record and its key in the audit's snapshot.
 * @example AUDITED_RECORDS[0] // => { path: "/insights/liquidation", savedFile: "liquidation/{asset}.json", snapshotKey: "liquidation" }
 */
export const AUDITED_RECORDS: readonly (AuditedRecord & { readonly path: InsightPath })[] =
  Object.freeze(
    INSIGHT_PATHS.flatMap((path) => {
      const audit = insightKind(path).audit;
      return audit === undefined ? [] : [Object.freeze({ path, ...audit })];
    }),
  );

/**
 * Every kind's path at the index of its lake code (what `LAKE_ID_CODES.operations` of the sync's
 * lake holds).
 * @example INSIGHT_PATHS_BY_LAKE_CODE[0] // => "/insights/prediction-percentiles"
 */
export const INSIGHT_PATHS_BY_LAKE_CODE: readonly InsightPath[] = Object.freeze(
  pathsByLakeCode(INSIGHT_PATHS.map(insightKind)),
);

/**
 * The paths of `kinds` at the index of their lake codes. Throws `RangeError` when two kinds share
 * a code or a code is skipped (lake ids are made of these codes), so that a registry with such a
 * code fails as it loads.
 * @example pathsByLakeCode([insightKind("/insights/volatility")]) // throws: the code 0 is skipped
 */
export function pathsByLakeCode<Path extends string>(
  kinds: readonly { readonly path: Path; readonly lakeCode: number }[],
): Path[] {
  const byCode: Path[] = [];
  for (const kind of kinds) {
    const taken = byCode[kind.lakeCode];
    if (taken !== undefined || !Number.isInteger(kind.lakeCode) || kind.lakeCode < 0) {
      throw new RangeError(
        `pathsByLakeCode: ${kind.path} has the lake code ${kind.lakeCode}, ${taken === undefined ? "which is not a whole number from 0" : `the code of ${taken}`}; expected a code of its own`,
      );
    }
    byCode[kind.lakeCode] = kind.path;
  }
  const skipped = Array.from(byCode.keys()).filter((code) => byCode[code] === undefined);
  if (skipped.length > 0) {
    throw new RangeError(
      `pathsByLakeCode: no kind has the lake code ${skipped.join(", ")}; expected the codes 0 to ${kinds.length - 1}`,
    );
  }
  return byCode;
}
