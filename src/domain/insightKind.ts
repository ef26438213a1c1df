/**
 * What one insight kind is: one insights or venue comparison operation of the spec, and what every
 * part of pathlab needs to know about it (its lake code, the fields the live deployment leaves
 * out, how its records are compared, …). The registry (`insightKinds.ts`) holds one per kind.
 */

import type { Horizon } from "./assets.ts";
import { decodeWith, type Codec, type CodecValue, type DecodeState } from "./decode.ts";
import { defineOperation } from "./define-operation.ts";
import type { Naming, Operation, Section } from "./operation.ts";
import { insightParamSpecs, type InsightParams } from "./params.ts";

/**
 * The family of a kind: an insight, or a venue A or venue B comparison (the operation's section).
 * @example const family: InsightFamily = "venueB";
 */
export type InsightFamily = Extract<Section, "insights" | "venueA" | "venueB">;

/**
 * What a record is computed from beyond the ensemble at its forecast start and the context the
 * service's record gives, which the jobs fetch or prepare for it:
 * - `previous-prompt`: the previous prompt's ensemble and the minute closes (the volatility
 *   records read the block log returns of both prompts);
 * - `range-markets`: the venue's range markets (the range family), whose hit markets read the
 *   running extremes at the daily event's end.
 * @example const input: InsightInput = "previous-prompt";
 */
export type InsightInput = "previous-prompt" | "range-markets";

/**
 * The key that identifies an element of an array of a record (undefined when the element has
 * none), so that two records' arrays are paired by key rather than by position.
 * @example const byStrike: ElementKey = (element) => String((element as { strike: number }).strike);
 */
export type ElementKey = (element: unknown) => string | undefined;

/**
 * How the fields of a kind's record are written. Fields are named generically: array indexes
 * written `[]`, map keys `{}` (`data[].long_liquidation_probability{}`, `[]` for the elements of
 * an array record). Probabilities are rounded alike in every record (their names are the
 * cross-check's); every other number is unrounded unless `rounded` says otherwise.
 * @example const fields: RecordFields = { rounded: { fields: /volatility\[\]$/, decimals: 2 } };
 */
export interface RecordFields {
  /** The numbers (by their generic field) rounded to `decimals` decimals. */
  readonly rounded?: { readonly fields: RegExp; readonly decimals: number };
  /** The arrays (by their generic field) whose elements are identified by a key, and the key. */
  readonly elementKeys?: Readonly<Record<string, ElementKey>>;
}

/**
 * Where `pathlab audit` finds a record it checks against itself: the file of a saved folder
 * (`{asset}` stands for the asset) and the record's key in the audit's snapshot.
 * @example const audit: AuditedRecord = { savedFile: "liquidation/{asset}.json", snapshotKey: "liquidation" };
 */
export interface AuditedRecord {
  readonly savedFile: string;
  readonly snapshotKey: string;
}

/**
 * A codec of any record: what a kind's `codec` must be (its record type is read back with
 * `CodecValue`).
 * @example const codec: AnyRecordCodec = liquidationRecordCodec;
 */
export interface AnyRecordCodec {
  readonly expected: string;
  readonly decode: (value: unknown, state: DecodeState) => unknown;
  readonly encode: (value: never, naming: Naming) => unknown;
}

/**
 * One entry of the registry, keyed by the operation's path: the operation (family, client method,
 * summary, assets, default horizon, record codec) and the kind's facts. Every fact but `audit` is
 * required, so that the compiler names a fact a new kind leaves out.
 * @example
 * const definition: InsightKindDefinition = { family: "insights", method: "liquidation", summary: "…", assets: INSIGHT_ASSETS, defaultHorizon: "24h", syncHorizons: HORIZONS, codec: liquidationRecordCodec, recomputed: true, lakeCode: 3, inputs: [], liveOmittedFields: ["forecast_start_time"], fields: {} };
 */
export interface InsightKindDefinition {
  /** Insight, or venue A or venue B comparison: the operation's section. */
  readonly family: InsightFamily;
  /** The client's method in the family's section (`client.insights.liquidation`). */
  readonly method: string;
  /** One line: what the operation returns. */
  readonly summary: string;
  /** The assets the operation serves. */
  readonly assets: readonly string[];
  /** The service's horizon when the request has none. */
  readonly defaultHorizon: Horizon;
  /** The horizons of the sync units that fetch, recompute and cross-check it. */
  readonly syncHorizons: readonly Horizon[];
  /** Decodes the service's JSON into the record and encodes it back. */
  readonly codec: AnyRecordCodec;
  /** Whether pathlab recomputes the record from the ensemble (`recompute`) and syncs it. */
  readonly recomputed: boolean;
  /**
   * Its code in the lake's row ids (0, 1, 2, …; `INSIGHT_PATHS_BY_LAKE_CODE`). A lake id is made of
   * these codes, so a kind keeps its code for ever and a new kind takes the next free one.
   */
  readonly lakeCode: number;
  /** What the record reads beyond the ensemble at its forecast start (often nothing). */
  readonly inputs: readonly InsightInput[];
  /**
   * The top-level fields (of the record, or of each element) the live deployment leaves out (read
   * from its captured responses), which the sandbox leaves out too when it speaks the live spelling.
   */
  readonly liveOmittedFields: readonly string[];
  /** Its rounded numbers and keyed arrays, for comparing two of its records. */
  readonly fields: RecordFields;
  /** Set when `pathlab audit` checks the record. */
  readonly audit?: AuditedRecord;
}

/**
 * A kind of the registry: its definition, its path, and its operation for the operations table.
 * @example const kind: InsightKind<"/insights/liquidation", InsightKindDefinition> = INSIGHT_KINDS["/insights/liquidation"];
 */
export type InsightKind<
  Path extends string,
  Definition extends InsightKindDefinition,
> = Definition & {
  readonly path: Path;
  readonly operation: Operation<
    Path,
    InsightParams<Definition["assets"][number]>,
    CodecValue<Definition["codec"]>
  >;
};

/**
 * Builds the registry from its definitions, keyed by path: each kind with its path and its
 * operation (common parameters for its assets and default horizon, API key required, credits
 * consumed, path shown by the spec), frozen, in the order given. Literal types are kept (the
 * path, the method, the record), so that the operations table and the per-kind tables can be
 * derived from the registry's type.
 * @example
 * const kinds = defineInsightKinds({ "/insights/liquidation": { family: "insights", method: "liquidation", … } });
 * kinds["/insights/liquidation"].operation.auth // => true
 */
export function defineInsightKinds<
  const Definitions extends { readonly [Path: string]: InsightKindDefinition },
>(
  definitions: Definitions,
): { readonly [Path in keyof Definitions & string]: InsightKind<Path, Definitions[Path]> } {
  const kinds = Object.entries(definitions).map(([path, definition]) => {
    const { family, method, summary, assets, defaultHorizon } = definition;
    const codec = definition.codec as unknown as Codec<unknown>;
    const operation = defineOperation({
      path,
      section: family,
      method,
      summary,
      pathShown: true,
      auth: true,
      credits: true,
      params: insightParamSpecs(assets, defaultHorizon),
      ranges: [],
      decode: (json, context) => decodeWith(path, codec, json, context.naming),
      encode: (record, context) => codec.encode(record, context.naming),
    });
    return [path, Object.freeze({ ...definition, path, operation })];
  });
  return Object.freeze(Object.fromEntries(kinds)) as {
    readonly [Path in keyof Definitions & string]: InsightKind<Path, Definitions[Path]>;
  };
}
