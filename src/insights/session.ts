/**
 * One ensemble prepared for the insights: re-based to the current price once, with the
 * intermediates several insights share (step-major copy, running extremes, sorted prices at a
 * step, pooled step variance, block log returns) computed on first use and kept.
 */

import { logReturn, pooledLogReturnVariance } from "../core/volatility.ts";
import { ensembleOf, type Ensemble, type RebaseMode } from "../paths/ensemble.ts";
import type { PathSet } from "../paths/pathSet.ts";

/**
 * Options of {@link InsightSession}.
 * @example const options: InsightSessionOptions = { currentPrice: 67676.62, rebase: "additive" };
 */
export interface InsightSessionOptions {
  /** The spot price the paths are re-based to (the record's `current_price`), finite and > 0. */
  readonly currentPrice: number;
  /**
   * How paths are re-based to `currentPrice`: `"additive"` p − p₀ + c (default, the service's
   * ensembles, DOMAIN.md §4) or `"multiplicative"` p·c / p₀.
   */
  readonly rebase?: RebaseMode;
}

/**
 * An {@link Ensemble} re-based to a current price, plus the intermediates that several insights
 * share, each computed once on first use: the step-major copy (prediction percentiles), each
 * path's running minimum and maximum at window ends (liquidation, LP stay, hit contracts), the
 * sorted prices at a step (terminal prices, option expiry, venue event ends), the pooled one-step
 * log-return variance (bridge-corrected touch) and the step-major block log returns (volatility).
 * The insight functions accept a session in place of an ensemble, so a caller computing several
 * records of one ensemble pays for each intermediate once. For a whole set of records: compute
 * the prediction percentiles first (their step-major copy then also serves the sorted columns and
 * the block returns), and name every window's end step to {@link InsightSession.prepareExtremes}
 * at once (one pass instead of one per call). Memory: the re-based copy and the step-major copy
 * are each nPaths × nPoints doubles (23 MB for 10 × 1,000 × 289).
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
  private pooledVariance: number | undefined;
  private stepMajorReady = false;

  /**
   * Re-bases `ensemble` to `options.currentPrice` (a copy; `ensemble` is not changed), unless it
   * already is re-based to that price the same way. An ensemble re-based the other way (additive
   * vs multiplicative) cannot be re-based again without its raw paths: that throws a `RangeError`.
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
   * The re-based paths step-major (step t, path p at `t·nPaths + p`), transposed on first use.
   * @example stepQuantiles(session.stepMajor, session.nPaths, session.nPoints)
   */
  get stepMajor(): Float64Array {
    this.stepMajorReady = true;
    return this.ensemble.stepMajor;
  }

  /**
   * The prices of every path at point `step`, sorted ascending (NaN last); computed once per step
   * and kept, so do not write into the result. `sortedPricesAt(nPoints − 1)` is the sorted
   * terminal prices. Throws `RangeError` for a step outside [0, nPoints − 1].
   * @example const terminal = session.sortedPricesAt(session.nPoints - 1);
   */
  sortedPricesAt(step: number): Float64Array {
    this.requireStep("sortedPricesAt", step);
    let sorted = this.sortedAtStep.get(step);
    if (sorted === undefined) {
      sorted = this.pricesAt(step).sort();
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
   * Throws `RangeError` for a step outside [0, nPoints − 1].
   * @example session.prepareExtremes([72, 144, 216, 288]);
   */
  prepareExtremes(steps: readonly number[]): void {
    const wanted: number[] = [];
    for (const step of steps) {
      this.requireStep("prepareExtremes", step);
      if (!this.extremes.has(step) && !wanted.includes(step)) wanted.push(step);
    }
    if (wanted.length === 0) return;
    wanted.sort((a, b) => a - b);
    const computed = computeExtremes(this.ensemble, Int32Array.from(wanted));
    wanted.forEach((step, index) => this.extremes.set(step, computed[index]));
  }

  /**
   * Each path's minimum and maximum over points [0, step] ({@link InsightSession.prepareExtremes}
   * first when not yet known); do not write into them.
   * @example const { minima, maxima } = session.extremesAt(288);
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
   * @example session.blockLogReturns(3) // 96 blocks of 15 minutes for a 24h ensemble
   */
  blockLogReturns(blockSteps: number): Float64Array {
    if (!Number.isInteger(blockSteps) || blockSteps < 1 || blockSteps > this.nPoints - 1) {
      throw new RangeError(
        `InsightSession.blockLogReturns requires an integer blockSteps in [1, ${this.nPoints - 1}], got ${blockSteps}`,
      );
    }
    let returns = this.blockReturns.get(blockSteps);
    if (returns === undefined) {
      returns = computeBlockLogReturns(
        this.ensemble,
        blockSteps,
        this.stepMajorReady ? this.ensemble.stepMajor : undefined,
      );
      this.blockReturns.set(blockSteps, returns);
    }
    return returns;
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
    if (this.stepMajorReady) {
      out.set(ensemble.stepMajor.subarray(step * nPaths, (step + 1) * nPaths));
      return out;
    }
    const values = ensemble.values;
    const nPoints = this.nPoints;
    for (let path = 0, index = step; path < nPaths; ++path, index += nPoints)
      out[path] = values[index];
    return out;
  }
}

/**
 * Each path's minimum and maximum over a window of points [0, step], in path order. Both are NaN
 * for a path with a non-finite point in the window (and `finite` is then false).
 * @example const { minima, maxima, finite } = session.extremesAt(72);
 */
export interface PathExtremes {
  readonly minima: Float64Array;
  readonly maxima: Float64Array;
  /** Whether every point of every path in the window is finite. */
  readonly finite: boolean;
}

/**
 * `session` itself, or a new {@link InsightSession} of `ensemble` for the context's price and
 * re-base mode. A session made for another price or mode throws a `RangeError` naming both.
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
  return ensembleOf(pathSets, { rebaseTo: price, rebase });
}

function computeBlockLogReturns(
  ensemble: Ensemble,
  blockSteps: number,
  stepMajor: Float64Array | undefined,
): Float64Array {
  const { nPaths, nPoints, values } = ensemble;
  const nBlocks = Math.floor((nPoints - 1) / blockSteps);
  const out = new Float64Array(nBlocks * nPaths);
  if (stepMajor !== undefined) {
    // Columns are contiguous: block b is column (b+1)·k over column b·k.
    for (let block = 0; block < nBlocks; ++block) {
      const from = block * blockSteps * nPaths;
      const to = from + blockSteps * nPaths;
      const row = block * nPaths;
      for (let path = 0; path < nPaths; ++path) {
        out[row + path] = logReturn(stepMajor[to + path], stepMajor[from + path]);
      }
    }
    return out;
  }
  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    for (let block = 0; block < nBlocks; ++block) {
      const start = base + block * blockSteps;
      out[block * nPaths + path] = logReturn(values[start + blockSteps], values[start]);
    }
  }
  return out;
}

/** Running extremes of every path at each of the ascending `steps`, in one pass. */
function computeExtremes(ensemble: Ensemble, steps: Int32Array): PathExtremes[] {
  const { nPaths, nPoints, values } = ensemble;
  const nSteps = steps.length;
  const minima = Array.from({ length: nSteps }, () => new Float64Array(nPaths));
  const maxima = Array.from({ length: nSteps }, () => new Float64Array(nPaths));
  const finite = new Uint8Array(nSteps).fill(1);
  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    let minimum = values[base];
    let maximum = minimum;
    let valid = minimum - minimum === 0;
    let point = 1;
    for (let index = 0; index < nSteps; ++index) {
      const end = base + steps[index];
      for (let at = base + point; at <= end; ++at) {
        const price = values[at];
        // Most points lie inside [minimum, maximum]: test that first (a NaN fails it).
        if (price <= maximum && price >= minimum) continue;
        if (price > maximum) maximum = price;
        else if (price < minimum) minimum = price;
        else valid = false;
      }
      point = steps[index] + 1;
      const ok = valid && maximum < Infinity && minimum > -Infinity;
      if (!ok) finite[index] = 0;
      minima[index][path] = ok ? minimum : NaN;
      maxima[index][path] = ok ? maximum : NaN;
    }
  }
  return Array.from({ length: nSteps }, (_, index) => ({
    minima: minima[index],
    maxima: maxima[index],
    finite: finite[index] === 1,
  }));
}
