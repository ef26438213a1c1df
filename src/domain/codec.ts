/** `decode` and `encode` by operation path: the operations table's codecs with a default naming. */
import { neutralNaming } from "./naming.ts";
import type { Naming } from "./operation.ts";
import { operationByPath, type OperationPath, type OperationsByPath } from "./operations.ts";

/**
 * Options of {@link decode} and {@link encode}.
 * @example const options: CodecOptions = { naming: liveNaming };
 */
export interface CodecOptions {
  /** The deployment's naming; default `neutralNaming` (the spec's words). */
  readonly naming?: Naming;
}

/** The decoded response type of the operation at a path. @example type Row = DecodedResponse<"/v2/leaderboard/latest">[number]; */
export type DecodedResponse<Path extends OperationPath> = OperationsByPath[Path] extends {
  readonly decode: (json: unknown, ...rest: never[]) => infer R;
}
  ? R
  : never;

/**
 * Validates a response body of the operation at `path` into its record type, normalizing aliases
 * (naming prefixes, outcome case, comparison types); throws `DecodeError` naming the operation and
 * the JSON path of the first problem, or `RangeError` for an unknown path.
 * @param path - the operation's spec path, e.g. `/insights/liquidation`.
 * @param json - the response body as `JSON.parse` returns it.
 * @param options - the deployment's naming; the spec's neutral words when omitted.
 * @example
 * decode("/insights/venuea/up-down/daily", json, { naming: liveNaming }).venuea_outcome // => "DOWN"
 */
export function decode<const Path extends OperationPath>(
  path: Path,
  json: unknown,
  options: CodecOptions = {},
): DecodedResponse<Path> {
  const operation = operationByPath(path as string);
  return operation.decode(json, {
    naming: options.naming ?? neutralNaming,
  }) as DecodedResponse<Path>;
}

/**
 * Writes a record of the operation at `path` back to JSON in the deployment's naming: the inverse of
 * {@link decode} (outcomes are written as the spec's `UP`/`DOWN`, comparison types as `range`,
 * `above`, `hit`, `below`).
 * @param path - the operation's spec path, e.g. `/insights/liquidation`.
 * @param record - a record of that operation, as {@link decode} returns it.
 * @param options - the deployment's naming to write; the spec's neutral words when omitted.
 * @example
 * encode("/insights/venuea/up-down/daily", record, { naming: liveNaming }) // => { synth_outcome: "DOWN", … }
 */
export function encode<const Path extends OperationPath>(
  path: Path,
  record: DecodedResponse<Path>,
  options: CodecOptions = {},
): unknown {
  const operation = operationByPath(path as string);
  return operation.encode(record, { naming: options.naming ?? neutralNaming });
}
