/**
 * One ensemble prepared for the insights: re-based to the current price once, with the
 * intermediates several insights share (running extremes, LP bounds' counts, sorted prices at a
 * step, pooled step variance, block log returns) computed on first use, or in one pass when
 * named first, and kept. The kernels it runs are in `sessionKernels.ts`, `pathScan.ts`,
 * `nestedRangeStatistics.ts` and `blockReturnStatistics.ts`.
 * Over 300 lines because `InsightSession` is one cache: its methods share the private maps of
 * intermediates, and a class cannot be spread over files without exposing them.
 */

import type { RangeEstimates } from "../core/rangeStatistics.ts";
import { sortFloat64 } from "../core/sortFloat64.ts";
import { pooledLogReturnVariance } from "../core/volatility.ts";
import { ensembleOf, type Ensemble, type RebaseMode } from "../paths/ensemble.ts";
import { allocateValues, type PathSet } from "../paths/pathSet.ts";
import { PERCENTILE_PROBABILITIES } from "../domain/insightConventions.ts";
import {
  absoluteScaledQuantiles,
  blockVolatilitiesOf,
  type BlockVolatilities,
} from "./blockReturnStatistics.ts";
import {
  isScannable,
  nestedRangeEstimates,
  nestedRangeStatistics,
} from "./nestedRangeStatistics.ts";
import { scanPaths, type NestedRangeSums, type PathExtremes } from "./pathScan.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";
import { blockLogReturnsInto, stepPercentilesOf, withScratchStepMajor } from "./sessionKernels.ts";
import type { PathPassRequest, SessionPart } from "./sessionParts.ts";

/**
 * Options of {@link InsightSession}.
 * @example const options: InsightSessionOptions = { currentPrice: 67676.62, rebase: "additive" };
 */
export interface InsightSessionOptions {
  /** The spot price the paths are re-based to (the record's `current_price`), finite and > 0. */
  readonly currentPrice: number;
  /**
   * How paths are re-based to `currentPrice`: `"additive"` p − p₀ + c (default, the service's
   * ensembles, the service's insight conventions) or `"multiplicative"` p·c / p₀.
   */
  readonly rebase?: RebaseMode;
}

/**
 * An {@link Ensemble} re-based to a current price, plus the intermediates that several insights
 * share, each computed once on first use: each path's running minimum and maximum at window ends
 * (liquidation, LP stay, hit contracts), the LP bounds' counts (time inside, stay, loss), the
 * sorted prices at a step (terminal prices, option expiry, venue event ends), the pooled one-step
 * log-return variance (bridge-corrected touch) and the block log returns (volatility).
 * The insight functions accept a session in place of an ensemble, so a caller computing several
 * records of one ensemble pays for each intermediate once. For a whole set of records, name them
 * first (`prepareRecords`, or `prepare`): the running extremes of every
 * window, the LP bounds' counts and the block returns then come from ONE pass over the paths
 * instead of one each. Memory: the re-based copy is nPaths × nPoints doubles (23 MB for
 * 10 × 1,000 × 289), and so is the step-major copy once {@link InsightSession.stepMajor} is read
 * (the records themselves transpose into a shared scratch, {@link InsightSession.withStepMajor}).
 * @example
 * const session = new InsightSession(ensemble, { currentPrice: 67676.62 });
 * const liquidation = liquidationInsight(session, context);
 * const bounds = lpBoundsInsight(session, context); // reuses the running extremes at the horizon
 */
export class InsightSession {
  /** The ensemble, re-based to {@link InsightSession.currentPrice}. */
  readonly ensemble: Ensemble;
  /** The price every path starts at. */
  readonly currentPrice: number;
  /** How the paths were re-based. */
  readonly rebase: RebaseMode;
  private readonly sortedAtStep = new Map<number, Float64Array>();
  private readonly blockReturns = new Map<number, Float64Array>();
  private readonly extremes = new Map<number, PathExtremes>();
  private readonly rangeSums: CachedRangeSums[] = [];
  private pooledVariance: number | undefined;
  private stepMajorValues: Float64Array | undefined;
  private stepPercentileEstimates: QuantileEstimates | undefined;
  private readonly blockPercentileEstimates = new Map<string, QuantileEstimates>();
  private readonly blockVolatilityEstimates = new Map<string, BlockVolatilities>();

  /**
   * Re-bases `ensemble` to `options.currentPrice` (a copy; `ensemble` is not changed), unless it
   * already is re-based to that price the same way. An ensemble re-based the other way (additive
   * vs multiplicative) cannot be re-based again without its raw paths: that throws a `RangeError`.
   * @param ensemble - the paths, raw or already re-based; left unchanged.
   * @param options - the current price to re-base to, and how (additive by default).
   * @example new InsightSession(ensembleOf(pathSets), { currentPrice: 68000, rebase: "multiplicative" })
   */
  constructor(ensemble: Ensemble, options: InsightSessionOptions) {
    const { currentPrice } = options;
    const rebase = options.rebase ?? "additive";
    if (!(currentPrice > 0 && currentPrice < Infinity)) {
      throw new RangeError(
        `InsightSession requires currentPrice to be a finite positive price, got ${currentPrice}`,
      );
    }
    if (rebase !== "additive" && rebase !== "multiplicative") {
      throw new RangeError(
        `InsightSession requires rebase "additive" or "multiplicative", got ${String(rebase)}`,
      );
    }
    if (ensemble.nPaths === 0) {
      throw new RangeError("InsightSession requires an ensemble with at least one path, got none");
    }
    this.currentPrice = currentPrice;
    this.rebase = rebase;
    this.ensemble = rebasedEnsemble(ensemble, currentPrice, rebase);
  }

  /** Paths in the ensemble. @example session.nPaths // => 10000 */
  get nPaths(): number {
    return this.ensemble.nPaths;
  }

  /** Points per path (289 for 24h, 61 for 1h). @example session.nPoints // => 289 */
  get nPoints(): number {
    return this.ensemble.nPoints;
  }

  /**
   * The re-based paths step-major (step t, path p at `t·nPaths + p`), transposed on first use and
   * kept (the ensemble's own copy, `Ensemble.stepMajor`); once made, it also serves the sorted
   * prices at a step and the block returns. The records read it through
   * {@link InsightSession.withStepMajor}, which does not keep a copy.
   * @example stepQuantiles(session.stepMajor, session.nPaths, session.nPoints)
   */
  get stepMajor(): Float64Array {
    this.stepMajorValues ??= this.ensemble.stepMajor;
    return this.stepMajorValues;
  }

  /**
   * `compute(stepMajor)` on the re-based paths step-major (as {@link InsightSession.stepMajor}):
   * the session's copy when it has one, else a transposition into a scratch buffer shared by all
   * sessions and reused from call to call, so that a record reading every step once (prediction
   * percentiles) costs no nPaths × nPoints allocation per session (23 MB for 10 × 1,000 × 289,
   * and the garbage collections that come with it; the scratch stays allocated, at the size of the
   * largest ensemble seen). `compute` must not keep the array; a nested call gets a fresh buffer.
   * @param compute - reads the step-major paths and gives the result; it must not keep the array.
   * @example session.withStepMajor((stepMajor) => stepQuantiles(stepMajor, session.nPaths, session.nPoints))
   */
  withStepMajor<Result>(compute: (stepMajor: Float64Array) => Result): Result {
    if (this.stepMajorValues !== undefined) return compute(this.stepMajorValues);
    const { values, nPaths, nPoints } = this.ensemble;
    return withScratchStepMajor(values, nPaths, nPoints, compute);
  }

  /**
   * The prices of every path at point `step`, sorted ascending (NaN last; `sortFloat64` of core,
   * so −0 and +0, equal, keep their path order); computed once per step and kept, so do not
   * write into the result. `sortedPricesAt(nPoints − 1)` is the sorted terminal prices.
   * Throws `RangeError` for a step outside [0, nPoints − 1].
   * @param step - the path point, in [0, nPoints − 1].
   * @example const terminal = session.sortedPricesAt(session.nPoints - 1);
   */
  sortedPricesAt(step: number): Float64Array {
    this.requireStep("sortedPricesAt", step);
    let sorted = this.sortedAtStep.get(step);
    if (sorted === undefined) {
      sorted = sortFloat64(this.pricesAt(step), new Float64Array(this.nPaths));
      this.sortedAtStep.set(step, sorted);
    }
    return sorted;
  }

  /**
   * The pooled sample variance of the one-step log returns of every path and step (σ²Δ), as the
   * Brownian-bridge touch correction needs it; computed once.
   * @example touchBridgeProbabilities(values, nPaths, nPoints, levels, ends, session.stepLogVariance)
   */
  get stepLogVariance(): number {
    this.pooledVariance ??= pooledLogReturnVariance(
      this.ensemble.values,
      this.nPaths,
      this.nPoints,
    );
    return this.pooledVariance;
  }

  /**
   * Each path's running minimum and maximum over points [0, step], for every step of `steps` not
   * yet known, in one pass over the paths (up to the largest step); then kept. The running extremes
   * are what the discrete touch probabilities (liquidation windows, hit contracts) and the LP stay
   * probability read: a path touches a level from above within the window iff its minimum is ≤ it.
   * Same as `prepare({ extremeSteps: steps })`.
   * Throws `RangeError` for a step outside [0, nPoints − 1].
   * @param steps - the path points whose running extremes to keep, each in [0, nPoints − 1].
   * @example session.prepareExtremes([72, 144, 216, 288]);
   */
  prepareExtremes(steps: readonly number[]): void {
    for (const step of steps) this.requireStep("prepareExtremes", step);
    this.prepare({ extremeSteps: steps });
  }

  /**
   * Computes in ONE pass over the paths (`scanPaths`) every per-path intermediate of `request`
   * not yet known, and keeps it: the running extremes at `extremeSteps` (see
   * {@link InsightSession.prepareExtremes}), the counts of nested `intervals` around the current
   * price (see {@link InsightSession.nestedRangeStatistics}; the extremes at the last point come
   * with them) and the block log returns over `blockSteps` steps (see
   * {@link InsightSession.blockLogReturns}; in a SharedArrayBuffer when the paths are, so that an
   * `InsightThreads` worker reads them in place). Each intermediate asked for alone costs a pass of
   * its own, so a caller computing several records names them all here first; `prepareRecords`
   * does it from the records' paths. Intervals that `nestedRangeStatistics` does not take in one
   * pass (not nested, not finite, more than 64) are left to
   * {@link InsightSession.nestedRangeStatistics}, which then takes the general route.
   * Throws `RangeError` for a step outside [0, nPoints − 1] or a block size as
   * {@link InsightSession.blockLogReturns} does.
   * @example session.prepare({ extremeSteps: [72, 144, 216, 288], intervals: { lowers, uppers }, blockSteps: 3 });
   * @internal Part of the session's cache, shared with `prepareRecords` and `InsightThreads`.
   */
  prepare(request: PathPassRequest): void {
    const wanted: number[] = [];
    for (const step of request.extremeSteps ?? []) {
      this.requireStep("prepare", step);
      if (!this.extremes.has(step) && !wanted.includes(step)) wanted.push(step);
    }
    const intervals = request.intervals;
    const withRanges =
      intervals !== undefined &&
      isScannable(intervals.lowers, intervals.uppers) &&
      this.cachedRangeSums(intervals.lowers, intervals.uppers) === undefined;
    const last = this.nPoints - 1;
    if (withRanges && !this.extremes.has(last) && !wanted.includes(last)) wanted.push(last);
    const blockSteps = request.blockSteps;
    if (blockSteps !== undefined) this.requireBlockSteps("prepare", blockSteps);
    const withBlocks = blockSteps !== undefined && !this.blockReturns.has(blockSteps);
    if (wanted.length === 0 && !withRanges && !withBlocks) return;
    wanted.sort((a, b) => a - b);
    const { values, nPaths, nPoints } = this.ensemble;
    // Paths in shared memory get their block returns in shared memory too, so that an
    // `InsightThreads` worker can read them in place (the block percentiles).
    const blocks = withBlocks
      ? {
          steps: blockSteps,
          out: allocateValues(
            Math.floor((nPoints - 1) / blockSteps) * nPaths,
            values.buffer instanceof SharedArrayBuffer,
          ),
        }
      : undefined;
    const scan = scanPaths(
      values,
      nPaths,
      nPoints,
      Int32Array.from(wanted),
      withRanges ? { ...intervals, startPrice: this.currentPrice } : undefined,
      blocks,
    );
    if (blocks !== undefined) this.blockReturns.set(blocks.steps, blocks.out);
    wanted.forEach((step, index) => this.extremes.set(step, scan.extremes[index]));
    if (withRanges) {
      this.rangeSums.push({
        lowers: Float64Array.from(intervals.lowers),
        uppers: Float64Array.from(intervals.uppers),
        sums: scan.ranges as NestedRangeSums,
      });
    }
  }

  /**
   * `nestedRangeStatistics` of the session's paths for nested intervals around the current price
   * (P0 of the loss): stay, time inside (× `stepMinutes`) and impermanent loss, with standard
   * errors; from the counts `prepare` kept for these bounds, else from a pass
   * of its own (whose counts are then kept). Intervals that are not nested go to
   * `rangeStatistics` of core (not kept).
   * @param lowers - each interval's lower bound, a price.
   * @param uppers - each interval's upper bound, a price, in the order of `lowers`.
   * @param stepMinutes - minutes between two path points, which turns points inside into time
   *   inside.
   * @example session.nestedRangeStatistics(lowers, uppers, 5).probabilityToStay.values
   */
  nestedRangeStatistics(
    lowers: Float64Array,
    uppers: Float64Array,
    stepMinutes: number,
  ): RangeEstimates {
    const { values, nPaths, nPoints } = this.ensemble;
    if (!isScannable(lowers, uppers)) {
      return nestedRangeStatistics(
        values,
        nPaths,
        nPoints,
        lowers,
        uppers,
        this.currentPrice,
        stepMinutes,
      );
    }
    this.prepare({ intervals: { lowers, uppers } });
    const sums = this.cachedRangeSums(lowers, uppers) as NestedRangeSums;
    return nestedRangeEstimates(sums, nPaths, lowers, uppers, stepMinutes);
  }

  /**
   * Each path's minimum and maximum over points [0, step] ({@link InsightSession.prepareExtremes}
   * first when not yet known); do not write into them.
   * @example const { minima, maxima } = session.extremesAt(288);
   * @internal Part of the session's cache, shared with `prepareRecords` and `InsightThreads`.
   */
  extremesAt(step: number): PathExtremes {
    this.prepareExtremes([step]);
    return this.extremes.get(step) as PathExtremes;
  }

  /**
   * Log returns over blocks of `blockSteps` steps, step-major: entry `b·nPaths + p` is
   * ln(p[(b+1)·k] / p[b·k]) of path p, k = blockSteps, for the ⌊(nPoints − 1)/k⌋ blocks.
   * Computed once per block size and kept (do not write into it).
   * Throws `RangeError` unless blockSteps is a positive integer of at most nPoints − 1.
   * @param blockSteps - path steps per block, from 1 to nPoints − 1.
   * @example session.blockLogReturns(3) // 96 blocks of 15 minutes for a 24h ensemble
   */
  blockLogReturns(blockSteps: number): Float64Array {
    this.requireBlockSteps("blockLogReturns", blockSteps);
    let returns = this.blockReturns.get(blockSteps);
    if (returns === undefined) {
      const { values, nPaths, nPoints } = this.ensemble;
      returns = blockLogReturnsInto(values, nPaths, nPoints, blockSteps, this.stepMajorValues);
      this.blockReturns.set(blockSteps, returns);
    }
    return returns;
  }

  /**
   * The nine percentiles (`PERCENTILE_PROBABILITIES`) of the price at every step, with their
   * order-statistic standard errors (`stepQuantilesWithErrors` of the step-major paths, through
   * {@link InsightSession.withStepMajor}); computed once and kept (do not write into them). What
   * the prediction percentiles record reads.
   * @example session.stepPercentiles().values[288 * 9 + 4] // the median at the last step
   */
  stepPercentiles(): QuantileEstimates {
    this.stepPercentileEstimates ??= this.withStepMajor((stepMajor) =>
      stepPercentilesOf(stepMajor, this.nPaths, this.nPoints),
    );
    return this.stepPercentileEstimates;
  }

  /**
   * The nine percentiles across paths of each block's |log return| × `scale` (block-major, with
   * standard errors; `absoluteScaledQuantiles` of {@link InsightSession.blockLogReturns}), as the
   * volatility percentiles record reads them with `scale` its annualization factor; computed once
   * per block size and scale and kept (do not write into them).
   * Throws `RangeError` for a block size as {@link InsightSession.blockLogReturns} does.
   * @example session.blockPercentiles(3, annualizeVolatility(1, 15)).values.length // => 96 × 9
   * @internal Part of the session's cache, shared with `prepareRecords` and `InsightThreads`.
   */
  blockPercentiles(blockSteps: number, scale: number): QuantileEstimates {
    const key = `${blockSteps} ${scale}`;
    let estimates = this.blockPercentileEstimates.get(key);
    if (estimates === undefined) {
      estimates = absoluteScaledQuantiles(this.blockLogReturns(blockSteps), this.nPaths, scale);
      this.blockPercentileEstimates.set(key, estimates);
    }
    return estimates;
  }

  /**
   * The annualized volatility of each block of `blockSteps` steps (`blockMinutes` long) across
   * paths, with standard errors (`blockVolatilitiesOf` of {@link InsightSession.blockLogReturns}),
   * as the volatility record reads them; computed once per block layout and kept (do not write
   * into them).
   * Throws `RangeError` for a block size as {@link InsightSession.blockLogReturns} does.
   * @example session.blockVolatilities(3, 15).values.length // => 96
   * @internal Part of the session's cache, shared with `prepareRecords` and `InsightThreads`.
   */
  blockVolatilities(blockSteps: number, blockMinutes: number): BlockVolatilities {
    const key = `${blockSteps} ${blockMinutes}`;
    let volatilities = this.blockVolatilityEstimates.get(key);
    if (volatilities === undefined) {
      volatilities = blockVolatilitiesOf(
        this.blockLogReturns(blockSteps),
        this.nPaths,
        blockMinutes,
      );
      this.blockVolatilityEstimates.set(key, volatilities);
    }
    return volatilities;
  }

  /**
   * Keeps an intermediate computed elsewhere for this session's paths (an `InsightThreads` worker
   * ran the same kernel on them): later reads return it instead of computing it. Only for what
   * the same kernel gave on these very paths, or the records will not match. Throws `RangeError`
   * for a part whose size does not fit the session.
   * @example session.adopt({ kind: "step-percentiles", estimates });
   * @internal Part of the session's cache, shared with `prepareRecords` and `InsightThreads`.
   */
  adopt(part: SessionPart): void {
    const nPaths = this.nPaths;
    const nPoints = this.nPoints;
    switch (part.kind) {
      case "step-percentiles":
        requireLength("step-percentiles", part.estimates.values, nPoints * PERCENTILE_COUNT);
        this.stepPercentileEstimates = part.estimates;
        return;
      case "block-returns": {
        const nBlocks = this.blockCount("adopt", part.blockSteps);
        requireLength("block-returns", part.returns, nBlocks * nPaths);
        this.blockReturns.set(part.blockSteps, part.returns);
        return;
      }
      case "block-percentiles": {
        const nBlocks = this.blockCount("adopt", part.blockSteps);
        requireLength("block-percentiles", part.estimates.values, nBlocks * PERCENTILE_COUNT);
        this.blockPercentileEstimates.set(`${part.blockSteps} ${part.scale}`, part.estimates);
        return;
      }
      case "block-volatilities": {
        const nBlocks = this.blockCount("adopt", part.blockSteps);
        requireLength("block-volatilities", part.volatilities.values, nBlocks);
        requireLength("block-volatilities", part.volatilities.standardErrors, nBlocks);
        this.blockVolatilityEstimates.set(
          `${part.blockSteps} ${part.blockMinutes}`,
          part.volatilities,
        );
        return;
      }
    }
  }

  private cachedRangeSums(lowers: Float64Array, uppers: Float64Array): NestedRangeSums | undefined {
    const same = (a: Float64Array, b: Float64Array) =>
      a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
    return this.rangeSums.find(
      (cached) => same(cached.lowers, lowers) && same(cached.uppers, uppers),
    )?.sums;
  }

  /** The number of whole blocks of `blockSteps` steps, after {@link requireBlockSteps}. */
  private blockCount(operation: string, blockSteps: number): number {
    this.requireBlockSteps(operation, blockSteps);
    return Math.floor((this.nPoints - 1) / blockSteps);
  }

  private requireBlockSteps(operation: string, blockSteps: number): void {
    if (!Number.isInteger(blockSteps) || blockSteps < 1 || blockSteps > this.nPoints - 1) {
      throw new RangeError(
        `InsightSession.${operation} requires an integer blockSteps in [1, ${this.nPoints - 1}], got ${blockSteps}`,
      );
    }
  }

  private requireStep(operation: string, step: number): void {
    if (!Number.isInteger(step) || step < 0 || step >= this.nPoints) {
      throw new RangeError(
        `InsightSession.${operation} requires an integer step in [0, ${this.nPoints - 1}], got ${step}`,
      );
    }
  }

  /** The prices at `step`, unsorted, in path order (a fresh array). */
  private pricesAt(step: number): Float64Array {
    const nPaths = this.nPaths;
    const ensemble = this.ensemble;
    const out = new Float64Array(nPaths);
    // The step-major copy, once made, has the column contiguous; otherwise a strided gather.
    if (this.stepMajorValues !== undefined) {
      out.set(this.stepMajorValues.subarray(step * nPaths, (step + 1) * nPaths));
      return out;
    }
    const values = ensemble.values;
    const nPoints = this.nPoints;
    for (let path = 0, index = step; path < nPaths; ++path, index += nPoints)
      out[path] = values[index];
    return out;
  }
}

/** Percentiles per step or block (the nine of the percentile records). */
const PERCENTILE_COUNT = PERCENTILE_PROBABILITIES.length;

function requireLength(kind: string, values: Float64Array, expected: number): void {
  if (values.length !== expected) {
    throw new RangeError(
      `InsightSession.adopt requires ${kind} of ${expected} numbers for this session, got ${values.length}`,
    );
  }
}

/** Counts of one set of nested intervals, with copies of their bounds (the cache key). */
interface CachedRangeSums {
  readonly lowers: Float64Array;
  readonly uppers: Float64Array;
  readonly sums: NestedRangeSums;
}

/**
 * `session` itself, or a new {@link InsightSession} of `ensemble` for the context's price and
 * re-base mode. A session made for another price or mode throws a `RangeError` naming both.
 * @param source - an ensemble, or a session made for the same price and re-base mode.
 * @param options - the current price to re-base to, and how (additive by default); a context
 *   serves.
 * @example const session = insightSessionFor(ensemble, { currentPrice: 68000 });
 */
export function insightSessionFor(
  source: Ensemble | InsightSession,
  options: InsightSessionOptions,
): InsightSession {
  if (!(source instanceof InsightSession)) return new InsightSession(source, options);
  const rebase = options.rebase ?? "additive";
  if (source.currentPrice !== options.currentPrice || source.rebase !== rebase) {
    throw new RangeError(
      `insight session: the session was made for currentPrice ${source.currentPrice} (${source.rebase}), ` +
        `but the context asks for currentPrice ${options.currentPrice} (${rebase}); make a new session`,
    );
  }
  return source;
}

function rebasedEnsemble(ensemble: Ensemble, price: number, rebase: RebaseMode): Ensemble {
  if (ensemble.rebasedTo !== undefined) {
    if (ensemble.rebasedTo === price && ensemble.rebase === rebase) return ensemble;
    if (ensemble.rebase !== rebase) {
      throw new RangeError(
        `InsightSession requires an ensemble that is not re-based or re-based ${rebase}ly, ` +
          `got one re-based ${ensemble.rebase}ly to ${ensemble.rebasedTo}; build it from the raw path sets`,
      );
    }
    // Re-basing again the same way equals re-basing the raw paths: p₀ is then the old price.
  }
  const pathSets: PathSet[] = ensemble.members.map((member, index) => ({
    asset: ensemble.asset,
    minerUid: member.minerUid,
    startTime: ensemble.startTime,
    timeIncrement: ensemble.timeIncrement,
    nPaths: member.count,
    nPoints: ensemble.nPoints,
    values: ensemble.memberValues(index),
  }));
  // A shared ensemble stays shared, so that `InsightThreads` workers read the copy in place.
  const shared = ensemble.values.buffer instanceof SharedArrayBuffer;
  return ensembleOf(pathSets, { rebaseTo: price, rebase, shared });
}
