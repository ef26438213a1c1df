/**
 * The two errors of the spec layer: a response that does not match its record ({@link DecodeError})
 * and request parameters that do not match their operation ({@link InvalidParamsError}).
 */

/**
 * A response body does not match the record of its operation. Names the operation, the JSON path of
 * the first problem, what was expected there and what was found.
 * @example
 * new DecodeError("/insights/liquidation", 'data[3].long_liquidation_probability["12"]', "number in [0,1]", '"0.4"').message
 * // => '/insights/liquidation: data[3].long_liquidation_probability["12"]: expected number in [0,1], got "0.4"'
 */
export class DecodeError extends Error {
  /** The operation's path in the spec's neutral words, e.g. `/insights/liquidation`. */
  readonly operation: string;
  /** Where in the body: `data[3].x["12"]`; `$` is the whole body. */
  readonly jsonPath: string;
  /** What the record requires there, e.g. `number in [0,1]`. */
  readonly expected: string;
  /** A short rendering of what was found: `"0.4"`, `null`, `missing`, `array(3)`. */
  readonly got: string;

  /**
   * @param operation - the operation's path in the spec's neutral words, e.g.
   *   `/insights/liquidation`.
   * @param jsonPath - where in the body the first problem is: `data[3].x["12"]`, or `$` for the
   *   whole body.
   * @param expected - what the record requires there, e.g. `number in [0,1]`.
   * @param got - a short rendering of what was found: `"0.4"`, `null`, `missing`, `array(3)`.
   */
  constructor(operation: string, jsonPath: string, expected: string, got: string) {
    super(`${operation}: ${jsonPath}: expected ${expected}, got ${got}`);
    this.name = "DecodeError";
    this.operation = operation;
    this.jsonPath = jsonPath;
    this.expected = expected;
    this.got = got;
  }
}

/**
 * Request parameters that the operation does not accept, found before any request goes out: an
 * unknown or missing parameter, a wrong type, a value the operation does not allow, a range too long.
 * @example
 * new InvalidParamsError("/insights/option-pricing", "asset", "one of BTC, ETH", '"XAU"').message
 * // => '/insights/option-pricing: parameter "asset": expected one of BTC, ETH, got "XAU"'
 */
export class InvalidParamsError extends Error {
  /** The operation's path in the spec's neutral words. */
  readonly operation: string;
  /** The query parameter at fault, as the spec names it (`asset`, `to`, `miner`). */
  readonly param: string;
  /** What the operation accepts for it. */
  readonly expected: string;
  /** A short rendering of the value given (`"XAU"`, `1.5`, `missing`). */
  readonly got: string;

  /**
   * @param operation - the operation's path in the spec's neutral words.
   * @param param - the query parameter at fault, as the spec names it (`asset`, `to`, `miner`).
   * @param expected - what the operation accepts for it.
   * @param got - a short rendering of the value given (`"XAU"`, `1.5`, `missing`).
   */
  constructor(operation: string, param: string, expected: string, got: string) {
    super(`${operation}: parameter "${param}": expected ${expected}, got ${got}`);
    this.name = "InvalidParamsError";
    this.operation = operation;
    this.param = param;
    this.expected = expected;
    this.got = got;
  }
}
