/**
 * The error of the paths layer: a path set that cannot be built, naming where and what.
 */

import { describeValue } from "../domain/describe-value.ts";

/**
 * Where a {@link PathSetError} happened and what was wrong.
 * @example const problem: PathSetProblem = { minerUid: 17, path: 3, point: 288, expected: "a finite non-zero price", got: NaN };
 */
export interface PathSetProblem {
  /** The miner whose path set is at fault, when known. */
  readonly minerUid?: number;
  /** The path (0-based), when the problem is inside one. */
  readonly path?: number;
  /** The point (0-based) within the path, when the problem is one price. */
  readonly point?: number;
  /** What is wrong, in the validator's words where it has them (`Number of paths is incorrect`). */
  readonly subject?: string;
  /** What was expected (`1000`, `a finite non-zero price`). */
  readonly expected: string;
  /** The value found; the message renders it (`NaN`, `999`, `"abc"`, `null`, `array(3)`). */
  readonly got: unknown;
}

/**
 * A prediction set, Arrow table or ensemble member that does not make a valid path set. The message
 * names the miner, the path and the point, then what was expected and what was got, e.g.
 * `miner 17: path 3, point 288: expected a finite non-zero price, got NaN` or, with the
 * validator's words for counts, `miner 17: Number of paths is incorrect: expected 1000, got 999`.
 * @example
 * new PathSetError({ minerUid: 17, path: 3, point: 288, expected: "a finite non-zero price", got: NaN }).message
 * // => "miner 17: path 3, point 288: expected a finite non-zero price, got NaN"
 */
export class PathSetError extends Error {
  /** The miner at fault, when known. */
  readonly minerUid: number | undefined;
  /** The path at fault (0-based), when the problem is inside one. */
  readonly path: number | undefined;
  /** The point at fault (0-based), when the problem is one price. */
  readonly point: number | undefined;
  /** What is wrong, when the message names it before "expected". */
  readonly subject: string | undefined;
  /** What was expected. */
  readonly expected: string;
  /** The value found, as rendered in the message. */
  readonly got: string;

  /**
   * @param problem - where it happened (miner, path, point, when known) and what was expected and
   *   got.
   */
  constructor(problem: PathSetProblem) {
    const got = describeValue(problem.got);
    const parts: string[] = [];
    if (problem.minerUid !== undefined) parts.push(`miner ${problem.minerUid}`);
    if (problem.path !== undefined) {
      parts.push(
        problem.point === undefined
          ? `path ${problem.path}`
          : `path ${problem.path}, point ${problem.point}`,
      );
    }
    if (problem.subject !== undefined) parts.push(problem.subject);
    parts.push(`expected ${problem.expected}, got ${got}`);
    super(parts.join(": "));
    this.name = "PathSetError";
    this.minerUid = problem.minerUid;
    this.path = problem.path;
    this.point = problem.point;
    this.subject = problem.subject;
    this.expected = problem.expected;
    this.got = got;
  }
}
