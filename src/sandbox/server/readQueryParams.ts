/**
 * The server side of the spec's parameter rules: a request's query string read into the parameter
 * object of its operation and checked by the very rules the client applies before sending
 * (`encodeQuery`), so that both ends agree on what is a valid request.
 */
import { describeValue } from "../../domain/describe-value.ts";
import { InvalidParamsError } from "../../domain/errors.ts";
import type { Operation } from "../../domain/operation.ts";
import { encodeQuery, type QueryTarget } from "../../domain/query.ts";

/**
 * The parameters of one request, checked: integers as numbers, repeated parameters as arrays,
 * times and strings as sent. Omitted optional parameters are absent (each handler applies the
 * operation's defaults).
 * @example const params: QueryParams = { asset: "BTC", miner: [1, 2], time_increment: 300 };
 */
export type QueryParams = Readonly<Record<string, string | number | readonly number[]>>;

const INTEGER = /^[+-]?\d+$/;

/**
 * Reads and checks the query of a request to `operation`. Throws {@link InvalidParamsError} (the
 * server answers 400 with its message) for a parameter the operation does not know, a
 * non-repeated parameter given twice, and everything `encodeQuery` rejects: a missing required
 * parameter, a non-integer, an unparsable time, a value the operation does not allow (unsupported
 * asset, bad horizon), an integer below its minimum, a time range reversed or over its limit.
 * @example
 * readQueryParams(operationTable.predictions.latest, new URLSearchParams("asset=BTC&time_increment=300&time_length=86400&miner=1&miner=2"))
 * // => { asset: "BTC", time_increment: 300, time_length: 86400, miner: [1, 2] }
 */
export function readQueryParams(
  operation: Pick<Operation<string, unknown, unknown>, "path" | "params" | "ranges">,
  query: URLSearchParams,
): QueryParams {
  const specs = operation.params;
  const params: Record<string, string | number | (string | number)[]> = {};
  for (const name of new Set(query.keys())) {
    const spec = specs.find((candidate) => candidate.name === name);
    const values = query.getAll(name);
    if (spec === undefined) {
      const expected =
        specs.length === 0
          ? "no parameters (this operation takes none)"
          : `no such parameter; known: ${specs.map((candidate) => candidate.name).join(", ")}`;
      throw new InvalidParamsError(operation.path, name, expected, describeValue(values[0]));
    }
    const typed = values.map((value) =>
      spec.type === "integer" && INTEGER.test(value) ? Number(value) : value,
    );
    if (spec.repeated) {
      params[name] = typed;
    } else if (typed.length > 1) {
      throw new InvalidParamsError(
        operation.path,
        name,
        "one value (only repeated parameters such as miner may be given several times)",
        `${typed.length} values`,
      );
    } else {
      params[name] = typed[0];
    }
  }
  // The client's own checks: the same messages on both ends.
  encodeQuery(operation as QueryTarget, params as never);
  return params as QueryParams;
}
