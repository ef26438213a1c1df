/**
 * Several miners' path sets pooled into one contiguous array, optionally re-based to a current
 * price, with a step-major copy made once when a column kernel needs it.
 */

import { transpose } from "../core/transpose.ts";
import { allocateValues, type PathSet } from "./pathSet.ts";
import { PathSetError } from "./pathSetError.ts";

/**
 * How paths are re-based to the current price c, per path with p₀ its point 0: `"additive"`
 * p − p₀ + c (the service's ensembles), `"multiplicative"` p·c / p₀.
 * @example const rebase: RebaseMode = "additive";
 */
export type RebaseMode = "additive" | "multiplicative";

/**
 * Options of {@link ensembleOf}.
 * @example const options: EnsembleOptions = { rebaseTo: 68000, rebase: "additive" };
 */
export interface EnsembleOptions {
  /** Re-base every path to this price (finite, > 0); no re-basing when omitted. */
  readonly rebaseTo?: number;
  /** How to re-base; `"additive"` by default. */
  readonly rebase?: RebaseMode;
  /**
   * Pool the values into a SharedArrayBuffer (default false), so that worker threads read them in
   * place: `InsightThreads` then shares the ensemble with its workers without copying it.
   */
  readonly shared?: boolean;
}

/**
 * Where one member's paths sit in an {@link Ensemble}.
 * @example const member: EnsembleMember = { minerUid: 17, offset: 1000, count: 1000 };
 */
export interface EnsembleMember {
  /** The member's miner. */
  readonly minerUid: number;
  /** Index of the member's first path in the ensemble. */
  readonly offset: number;
  /** Number of the member's paths. */
  readonly count: number;
}

/**
 * Path sets with the same asset, start, increment and points pooled into one path-major
 * Float64Array (path p, point t at `p·nPoints + t`), members in the order given.
 * {@link Ensemble.stepMajor} is the same matrix step-major (step t, path p at `t·nPaths + p`),
 * transposed once on first use and kept.
 * @example
 * const ensemble = ensembleOf([pathSetA, pathSetB], { rebaseTo: 68000 });
 * ensemble.members; // => [{ minerUid: 5, offset: 0, count: 1000 }, { minerUid: 17, offset: 1000, count: 1000 }]
 */
export class Ensemble {
  /** Asset of every member. */
  readonly asset: string;
  /** Start of every member's paths, Unix seconds. */
  readonly startTime: number;
  /** Seconds between points. */
  readonly timeIncrement: number;
  /** Paths over all members. */
  readonly nPaths: number;
  /** Points per path. */
  readonly nPoints: number;
  /** All paths, path-major, re-based when {@link Ensemble.rebasedTo} is set. */
  readonly values: Float64Array;
  /** The members, in order, with where their paths are. */
  readonly members: readonly EnsembleMember[];
  /** The price the paths were re-based to, if any. */
  readonly rebasedTo: number | undefined;
  /** How they were re-based (meaningful when {@link Ensemble.rebasedTo} is set). */
  readonly rebase: RebaseMode;
  private stepMajorValues: Float64Array | undefined;

  /**
   * Wraps already pooled values; {@link ensembleOf} is the usual way to make one.
   * @param shape - the asset, start time, time increment and points per path every member shares.
   * @param values - every member's paths, pooled path-major: nPaths × nPoints prices.
   * @param members - where each member's paths lie in `values`, in order, together covering every
   *   path.
   * @param rebasedTo - the price every path was re-based to, or `undefined` when the paths are as
   *   the miners sent them.
   * @param rebase - how the paths were re-based: `"additive"` or `"multiplicative"`.
   * @example new Ensemble(pathSet, values, [{ minerUid: 17, offset: 0, count: 1000 }], undefined, "additive")
   */
  constructor(
    shape: Pick<PathSet, "asset" | "startTime" | "timeIncrement" | "nPoints">,
    values: Float64Array,
    members: readonly EnsembleMember[],
    rebasedTo: number | undefined,
    rebase: RebaseMode,
  ) {
    this.asset = shape.asset;
    this.startTime = shape.startTime;
    this.timeIncrement = shape.timeIncrement;
    this.nPoints = shape.nPoints;
    this.nPaths = shape.nPoints === 0 ? 0 : values.length / shape.nPoints;
    let counted = 0;
    for (const member of members) {
      if (member.offset !== counted || !Number.isInteger(member.count) || member.count < 0) {
        throw new RangeError(
          `Ensemble requires members that tile the paths in order: miner ${member.minerUid} expected offset ${counted}, got offset ${member.offset} and count ${member.count}`,
        );
      }
      counted += member.count;
    }
    if (counted * shape.nPoints !== values.length) {
      throw new RangeError(
        `Ensemble requires values of (paths of all members) × nPoints = ${counted * shape.nPoints} numbers, got ${values.length}`,
      );
    }
    this.values = values;
    this.members = Object.freeze(members.map((member) => Object.freeze({ ...member })));
    this.rebasedTo = rebasedTo;
    this.rebase = rebase;
  }

  /**
   * The paths step-major (step t, path p at `t·nPaths + p`) for column kernels such as
   * `stepQuantiles`: transposed on first access, then the same array every time.
   * @example stepQuantiles(ensemble.stepMajor, ensemble.nPaths, ensemble.nPoints)
   */
  get stepMajor(): Float64Array {
    this.stepMajorValues ??= transpose(this.values, this.nPaths, this.nPoints);
    return this.stepMajorValues;
  }

  /**
   * One member's paths, path-major, as a view into {@link Ensemble.values} (no copy).
   * @param index - the member's index in {@link Ensemble.members}, from 0.
   * @example ensemble.memberValues(1) // the second member's nPaths × nPoints values
   */
  memberValues(index: number): Float64Array {
    const member = this.members[index];
    if (member === undefined) {
      throw new RangeError(
        `Ensemble.memberValues requires a member index in [0, ${this.members.length}), got ${index}`,
      );
    }
    return this.values.subarray(
      member.offset * this.nPoints,
      (member.offset + member.count) * this.nPoints,
    );
  }
}

/**
 * Pools `pathSets` into one {@link Ensemble}: their values copied once, in order, into one
 * contiguous path-major Float64Array (over a SharedArrayBuffer with `shared`), re-based per path
 * to `rebaseTo` when given (additive p − p₀ + c by default, or multiplicative p·c / p₀). Every
 * member must have the asset, start time, time increment and number of points of the first; a
 * mismatch throws a {@link PathSetError} naming the miner, e.g. `miner 17: start time: expected
 * 1772063100 (as miner 5), got 1772063400`. Throws `RangeError` for no path sets or a `rebaseTo`
 * that is not a finite positive number.
 * @param pathSets - the members' path sets, at least one, all with the asset, start, time increment
 *   and points of the first.
 * @param options - the price to re-base to, how, and whether the values are shared; no re-basing
 *   and an ordinary array by default.
 * @example
 * const ensemble = ensembleOf(pathSets, { rebaseTo: 68000, rebase: "additive" });
 */
export function ensembleOf(pathSets: readonly PathSet[], options: EnsembleOptions = {}): Ensemble {
  const first = pathSets[0];
  if (first === undefined) {
    throw new RangeError("ensembleOf requires at least one path set, got none");
  }
  const rebase = options.rebase ?? "additive";
  const rebaseTo = options.rebaseTo;
  if (rebaseTo !== undefined && !(rebaseTo > 0 && rebaseTo < Infinity)) {
    throw new RangeError(
      `ensembleOf requires rebaseTo to be a finite positive price, got ${rebaseTo}`,
    );
  }
  if (rebase !== "additive" && rebase !== "multiplicative") {
    throw new RangeError(
      `ensembleOf requires rebase "additive" or "multiplicative", got ${String(rebase)}`,
    );
  }
  let totalPaths = 0;
  for (const pathSet of pathSets) {
    checkSameShape(first, pathSet);
    totalPaths += pathSet.nPaths;
  }
  const nPoints = first.nPoints;
  const values = allocateValues(totalPaths * nPoints, options.shared === true);
  const members: EnsembleMember[] = [];
  let offset = 0;
  for (const pathSet of pathSets) {
    const target = values.subarray(offset * nPoints, (offset + pathSet.nPaths) * nPoints);
    if (rebaseTo === undefined) target.set(pathSet.values);
    else rebasePaths(pathSet.values, target, pathSet.nPaths, nPoints, rebaseTo, rebase);
    members.push({ minerUid: pathSet.minerUid, offset, count: pathSet.nPaths });
    offset += pathSet.nPaths;
  }
  return new Ensemble(first, values, members, rebaseTo, rebase);
}

function checkSameShape(first: PathSet, other: PathSet): void {
  if (other.values.length !== other.nPaths * other.nPoints) {
    throw new PathSetError({
      minerUid: other.minerUid,
      subject: "values",
      expected: `nPaths × nPoints = ${other.nPaths * other.nPoints} numbers`,
      got: other.values.length,
    });
  }
  const fields = [
    ["asset", first.asset, other.asset],
    ["start time", first.startTime, other.startTime],
    ["time increment", first.timeIncrement, other.timeIncrement],
    ["number of points", first.nPoints, other.nPoints],
  ] as const;
  for (const [label, expected, got] of fields) {
    if (expected !== got) {
      throw new PathSetError({
        minerUid: other.minerUid,
        subject: label,
        expected: `${String(expected)} (as miner ${first.minerUid})`,
        got,
      });
    }
  }
}

/** Writes `source`'s paths re-based into `target` in one pass: p − p₀ + c, or p·c / p₀. */
function rebasePaths(
  source: Float64Array,
  target: Float64Array,
  nPaths: number,
  nPoints: number,
  price: number,
  rebase: RebaseMode,
): void {
  const end = nPaths * nPoints;
  if (rebase === "additive") {
    for (let row = 0; row < end; row += nPoints) {
      const start = source[row];
      for (let point = row; point < row + nPoints; point++) {
        target[point] = source[point] - start + price;
      }
    }
  } else {
    for (let row = 0; row < end; row += nPoints) {
      const start = source[row];
      for (let point = row; point < row + nPoints; point++) {
        target[point] = (source[point] * price) / start;
      }
    }
  }
}
