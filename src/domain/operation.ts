/**
 * The shape of one operation of the Market Forecast Service's interface: its path, query parameters,
 * authentication and response decoder. The operations table (`operations.ts`) holds one entry per
 * operation of the spec; the client, the sandbox and the jobs all read it.
 */

/**
 * The sections of the interface; the client groups its typed methods by these.
 * @example const section: Section = "insights"; // client.insights.liquidation(…)
 */
export type Section =
  "insights" | "venueA" | "venueB" | "predictions" | "leaderboard" | "validation";

/**
 * Wire type of a query parameter. `time` is an ISO 8601 timestamp (with or without offset) or a date `YYYY-MM-DD`.
 * @example const type: ParamType = "time";
 */
export type ParamType = "string" | "integer" | "time";

/**
 * One query parameter of an operation.
 * @example
 * const horizon: ParamSpec = { name: "horizon", type: "string", required: false, default: "24h", allowed: ["1h", "24h"], description: "forecast horizon" };
 */
export interface ParamSpec {
  /** Query-string name, exactly as the spec writes it (`start_time`, `miner`, `time_increment`). */
  readonly name: string;
  readonly type: ParamType;
  readonly required: boolean;
  /** Sent as a repeated parameter (`miner=1&miner=2`); the value is an array. */
  readonly repeated?: boolean;
  /** The service's default when the parameter is omitted (documentation; the client does not send it). */
  readonly default?: string | number;
  /** The values the spec allows, when it lists them (assets of this operation, horizons, increments). */
  readonly allowed?: readonly (string | number)[];
  /** Inclusive lower bound for integers. */
  readonly min?: number;
  /** One line for docs and error messages. */
  readonly description: string;
}

/**
 * A limit between two time parameters, such as "`to` at most 7 days after `from`". `to` is never
 * before `from`; without `maxDays` that order is the whole rule.
 * With `inclusiveDay`, `to` names a whole UTC day (`to` ≤ `from` + maxDays, compared by UTC date).
 * @example const smoothedScores: RangeRule = { from: "from", to: "to", maxDays: 7 };
 */
export interface RangeRule {
  readonly from: string;
  readonly to: string;
  readonly maxDays?: number;
  readonly inclusiveDay?: boolean;
}

/**
 * How a deployment names the venues and the service's own forecast in path segments and field
 * prefixes. The spec writes `venuea`, `venueb` and `model`; a live deployment may use real names
 * (`polymarket`, `synth`). Decoders normalize every record to the spec's neutral names.
 * @example const live: Naming = { venueA: "polymarket", venueB: "venueb", model: "synth" };
 */
export interface Naming {
  readonly venueA: string;
  readonly venueB: string;
  readonly model: string;
  /**
   * How an encoder spells outcomes and comparison types: the spec's words (`UP`, `above`, `range`,
   * `below`; the default) or, with `"live"`, the live deployment's (`Up`, `higher`, `between`,
   * `lower`). Decoders read both.
   */
  readonly spelling?: "spec" | "live";
}

/**
 * What a decoder or encoder needs besides the JSON value.
 * @example operationByPath("/insights/liquidation").decode(json, { naming: liveNaming });
 */
export interface CodecContext {
  readonly naming: Naming;
}

/**
 * One operation. `P` is the typed parameter object the client accepts, `R` the decoded response.
 * `Path` is the spec's path (with the neutral words), the key of the operation everywhere.
 * @example
 * const operation = operationByPath("/insights/option-pricing");
 * operation.auth; // => true
 * operation.params.map((param) => param.name); // => ["asset", "horizon", "start_time", "days", "limit"]
 */
export interface Operation<Path extends string = string, P = Record<string, unknown>, R = unknown> {
  /** The spec's path with neutral words (`/insights/venuea/range`): the operation's key. */
  readonly path: Path;
  readonly section: Section;
  /** Name of the typed client method within its section, e.g. `liquidation` → `client.insights.liquidation`. */
  readonly method: string;
  /** One line: what the operation returns. */
  readonly summary: string;
  /**
   * False where the spec says the path is "not shown" (meta-leaderboards and most validation
   * operations): `path` is then pathlab's documented default, which a client can override.
   */
  readonly pathShown: boolean;
  /** Whether the `Authorization: Apikey <key>` header is required. */
  readonly auth: boolean;
  /** Whether each request consumes credits (insights operations). */
  readonly credits: boolean;
  readonly params: readonly ParamSpec[];
  readonly ranges: readonly RangeRule[];
  /** Validates unknown JSON into `R`, normalizing aliases; throws `DecodeError` naming the JSON path. */
  readonly decode: (json: unknown, context: CodecContext) => R;
  /** The inverse of `decode`: a record back to JSON in the deployment's naming. */
  readonly encode: (record: R, context: CodecContext) => unknown;
  /** Type-level carrier of `P`; never set at run time. */
  readonly __params?: P;
}

/**
 * The parameter type of an operation.
 * @example type LiquidationParams = ParamsOf<typeof operationTable.insights.liquidation>;
 */
export type ParamsOf<O> = O extends Operation<string, infer P, infer _R> ? P : never;

/**
 * The decoded response type of an operation.
 * @example type Liquidation = ResultOf<typeof operationTable.insights.liquidation>; // LiquidationRecord
 */
export type ResultOf<O> = O extends Operation<string, infer _P, infer R> ? R : never;
