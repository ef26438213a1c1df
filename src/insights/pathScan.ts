/**
 * One pass over the paths of an ensemble for the per-path intermediates of the insights: running
 * extremes at window ends (liquidation, hits, LP stay), the nested-interval counts of the LP
 * bounds (time inside, stay, impermanent loss) and the block log returns (volatility).
 * Over 300 lines because the pass needs its lookup table, its unrolled count loop and the loss
 * terms prepared per interval; clarity was traded for speed, and the readable forms are
 * `touchProbabilities`, `rangeStatistics` and `forecastVolatility` of core and `src/reference/`.
 */

import type { RangeSums } from "../core/rangeStatistics.ts";
import { logReturn } from "../core/volatility.ts";

/**
 * Nested intervals (`lowers` strictly decreasing, `uppers` strictly increasing, every bound
 * finite, lowers[0] < uppers[0]) and the start price of the impermanent loss, for {@link scanPaths}.
 * @example const intervals: NestedIntervals = { lowers: Float64Array.of(99, 98), uppers: Float64Array.of(101, 102), startPrice: 100 };
 */
export interface NestedIntervals {
  readonly lowers: Float64Array;
  readonly uppers: Float64Array;
  /** P0 of the impermanent loss (the service's insight conventions). */
  readonly startPrice: number;
}

/**
 * Per-interval sums over paths, in path order, from which `rangeEstimatesOfSums` of core finishes
 * the estimates: points 1..N−1 strictly inside (and their squares), paths inside at every point, and
 * the impermanent loss at the last point (and its square).
 * @example const { insideSums, stayCounts } = scanPaths(values, nPaths, nPoints, Int32Array.of(288), intervals).ranges!;
 */
export interface NestedRangeSums extends RangeSums {
  /** Whether every point of every path is finite (the sums are meaningless otherwise). */
  readonly finite: boolean;
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
 * What {@link scanPaths} found: the running extremes at each window end (in the order of
 * `windowEndSteps`) and, when intervals were given, their sums.
 * @example const { extremes, ranges } = scanPaths(values, nPaths, nPoints, Int32Array.of(72, 288));
 */
export interface PathScan {
  readonly extremes: PathExtremes[];
  readonly ranges: NestedRangeSums | undefined;
}

/** Cells of the lookup table that places a point among the nested intervals' bounds. */
const CELLS = 4096;
/**
 * The lookup table and the per-path counts. Module-level constants on purpose (V8 embeds constant
 * typed arrays in optimized code, as in `rankSelector.ts`); safe because `scanPaths` runs to
 * completion without calling out. CELL_SLOTS[c] ≥ 0 is the slot of every point in cell c; −1 − k
 * points to the k-th cell holding exactly one bound (BOUNDS, and the slots below, at and above
 * it); MANY_BOUNDS marks a cell holding several bounds (each point is then placed by comparisons).
 */
const CELL_SLOTS = new Int16Array(CELLS);
const MANY_BOUNDS = -32768;
/**
 * The most intervals the table takes: more bounds than that crowd its cells, where every point is
 * placed by comparisons (`nestedRangeStatistics` hands such sets to `rangeStatistics`).
 */
const MAX_INTERVALS = 64;
const BOUNDS = new Float64Array(2 * MAX_INTERVALS);
const SLOTS_BELOW = new Int16Array(2 * MAX_INTERVALS);
const SLOTS_AT = new Int16Array(2 * MAX_INTERVALS);
const SLOTS_ABOVE = new Int16Array(2 * MAX_INTERVALS);
/**
 * Points per slot of the current path, in four lanes (points 4k, 4k+1, … counted apart, at
 * `lane·stride + slot`): consecutive points mostly share a slot, and one count array would make
 * every increment wait for the previous one (measured ~1.6× slower).
 */
const LANES = 4;
const SLOT_COUNTS = new Int32Array(LANES * (MAX_INTERVALS + 2));

/**
 * In one pass over the path-major `values` (path p, point t at `p·nPoints + t`), for the records
 * of an `InsightSession` (`InsightSession.prepare`):
 * - each path's minimum and maximum over points [0, s] for every s of `windowEndSteps`
 *   (ascending, distinct, in [0, nPoints − 1]); NaN for a path with a non-finite point in the
 *   window, and `finite` false for that window;
 * - for `intervals` (nested, see {@link NestedIntervals}): per interval, the points 1..N−1 of each
 *   path strictly inside (lower < p < upper), whether the path stays strictly inside at every point
 *   (its minimum and maximum over all points), and the impermanent loss at its last point, summed
 *   over paths in path order (so `nestedRangeStatistics` gives exactly `rangeStatistics`' values).
 *
 * Method: the intervals containing a point are those from the narrowest one that does (its slot:
 * 1..I, or I + 1 for none), so a point needs only its slot, counted per path; the cumulative
 * counts are the points inside each interval. A point's slot comes from a table of 4,096 cells
 * over [widest lower, widest upper]: cell(x) = ⌊x·scale + shift⌋ clamped is monotone in x, so a
 * cell holding no bound's cell has one slot for all its points, and a cell holding one bound needs
 * one comparison with it (exact, ties on bounds included); no walk, no unpredictable branch for
 * most points (measured ~2× faster than `rangeStatistics`' walk on 10,000 × 289 with 16 widths).
 * The counts go to four lanes (`countSlots`), four points per iteration.
 * The loss reuses each interval's constants and the path's √P, with `impermanentLoss`' arithmetic
 * operation for operation, so it is bit-identical. With `blocks`, each path's log returns over
 * blocks of `blocks.steps` steps ({@link InsightSession.blockLogReturns}: ln(p[(b+1)·k] / p[b·k]),
 * `logReturn` of core) are written block-major into `blocks.out` (block b, path p at
 * `b·nPaths + p`) while the path is in cache. O(nPaths·(nPoints + I) + 4,096·I).
 * The intervals must be nested with finite bounds (`isScannable`); the results are unspecified
 * otherwise. Throws `RangeError` for `values` of another length than nPaths × nPoints, window ends
 * not ascending in [0, nPoints − 1], more than 64 intervals, or a block size that is not a
 * positive integer or a `blocks.out` of another length than ⌊(nPoints − 1)/k⌋ × nPaths.
 * @example
 * const { extremes } = scanPaths(values, 10000, 289, Int32Array.of(72, 144, 216, 288));
 */
export function scanPaths(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  windowEndSteps: Int32Array,
  intervals?: NestedIntervals,
  blocks?: { readonly steps: number; readonly out: Float64Array },
): PathScan {
  checkScan(values, nPaths, nPoints, windowEndSteps, intervals, blocks);
  const nWindows = windowEndSteps.length;
  const minima = Array.from({ length: nWindows }, () => new Float64Array(nPaths));
  const maxima = Array.from({ length: nWindows }, () => new Float64Array(nPaths));
  const windowFinite = new Uint8Array(nWindows).fill(1);
  const nIntervals = intervals === undefined ? 0 : intervals.lowers.length;
  const lowers = intervals?.lowers ?? new Float64Array(0);
  const uppers = intervals?.uppers ?? new Float64Array(0);
  const withRanges = intervals !== undefined;
  const sums = createSums(nIntervals);
  const losses = withRanges ? prepareLosses(intervals) : undefined;
  let scale = 0;
  let shift = 0;
  if (withRanges) ({ scale, shift } = fillCellTable(lowers, uppers));
  const stride = nIntervals + 2;
  const blockSteps = blocks?.steps ?? 0;
  const nBlocks = blocks === undefined ? 0 : Math.floor((nPoints - 1) / blockSteps);
  const blockReturns = blocks?.out ?? new Float64Array(0);
  let allFinite = true;

  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    const first = values[base];
    let minimum = first;
    let maximum = first;
    let valid = first - first === 0;
    let point = 1;
    // Up to each window end, then (intervals only) on to the last point.
    for (let window = 0; window <= nWindows; ++window) {
      const end = window < nWindows ? windowEndSteps[window] : withRanges ? nPoints - 1 : -1;
      for (let at = base + point, last = base + end; at <= last; ++at) {
        const price = values[at];
        if (price > maximum) maximum = price;
        else if (!(price >= minimum)) {
          if (price < minimum) minimum = price;
          else valid = false; // NaN
        }
      }
      if (end >= point) point = end + 1;
      if (window === nWindows) break;
      const ok = valid && maximum < Infinity && minimum > -Infinity;
      if (!ok) windowFinite[window] = 0;
      minima[window][path] = ok ? minimum : NaN;
      maxima[window][path] = ok ? maximum : NaN;
    }
    for (let block = 0, at = base, to = path; block < nBlocks; ++block, to += nPaths) {
      const from = values[at];
      at += blockSteps;
      blockReturns[to] = logReturn(values[at], from);
    }
    if (!withRanges) continue;
    if (!(valid && maximum < Infinity && minimum > -Infinity)) allFinite = false;
    countSlots(values, base + 1, base + nPoints, scale, shift, lowers, uppers, stride);
    accumulatePath(
      sums,
      losses as PreparedLosses,
      lowers,
      uppers,
      minimum,
      maximum,
      values[base + nPoints - 1],
    );
  }
  return {
    extremes: Array.from({ length: nWindows }, (_, index) => ({
      minima: minima[index],
      maxima: maxima[index],
      finite: windowFinite[index] === 1,
    })),
    ranges: withRanges ? { ...sums, finite: allFinite } : undefined,
  };
}

function checkScan(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  windowEndSteps: Int32Array,
  intervals: NestedIntervals | undefined,
  blocks: { readonly steps: number; readonly out: Float64Array } | undefined,
): void {
  if (!(Number.isInteger(nPaths) && nPaths >= 0 && Number.isInteger(nPoints) && nPoints >= 1)) {
    throw new RangeError(
      `scanPaths requires integer nPaths ≥ 0 and nPoints ≥ 1, got ${nPaths} and ${nPoints}`,
    );
  }
  if (values.length !== nPaths * nPoints) {
    throw new RangeError(
      `scanPaths requires values of nPaths × nPoints = ${nPaths * nPoints} numbers, got ${values.length}`,
    );
  }
  for (let index = 0; index < windowEndSteps.length; ++index) {
    const step = windowEndSteps[index];
    if (step < 0 || step >= nPoints || (index > 0 && step <= windowEndSteps[index - 1])) {
      throw new RangeError(
        `scanPaths requires ascending window ends in [0, ${nPoints - 1}], got windowEndSteps[${index}] = ${step}`,
      );
    }
  }
  const nIntervals = intervals?.lowers.length ?? 1;
  if (intervals !== undefined && (nIntervals < 1 || nIntervals > MAX_INTERVALS)) {
    throw new RangeError(
      `scanPaths requires between 1 and ${MAX_INTERVALS} intervals, got ${nIntervals}`,
    );
  }
  if (intervals !== undefined && intervals.uppers.length !== nIntervals) {
    throw new RangeError(
      `scanPaths requires as many uppers as lowers (${nIntervals}), got ${intervals.uppers.length}`,
    );
  }
  if (blocks === undefined) return;
  const { steps, out } = blocks;
  if (!(Number.isInteger(steps) && steps >= 1)) {
    throw new RangeError(`scanPaths requires a positive integer block size, got ${steps}`);
  }
  const expected = Math.floor((nPoints - 1) / steps) * nPaths;
  if (out.length !== expected) {
    throw new RangeError(
      `scanPaths requires blocks.out of ⌊(nPoints − 1)/steps⌋ × nPaths = ${expected} numbers, got ${out.length}`,
    );
  }
}

/**
 * Counts the slots of points [from, to) of `values` into SLOT_COUNTS (cleared first), four
 * points per iteration, one lane each.
 */
function countSlots(
  values: Float64Array,
  from: number,
  to: number,
  scale: number,
  shift: number,
  lowers: Float64Array,
  uppers: Float64Array,
  stride: number,
): void {
  SLOT_COUNTS.fill(0, 0, LANES * stride);
  const top = CELLS - 1;
  const lane1 = stride;
  const lane2 = 2 * stride;
  const lane3 = 3 * stride;
  let at = from;
  for (; at + 3 < to; at += 4) {
    const price0 = values[at];
    const price1 = values[at + 1];
    const price2 = values[at + 2];
    const price3 = values[at + 3];
    const position0 = price0 * scale + shift;
    const position1 = price1 * scale + shift;
    const position2 = price2 * scale + shift;
    const position3 = price3 * scale + shift;
    let slot0 = CELL_SLOTS[position0 < 0 ? 0 : position0 > top ? top : position0 | 0];
    let slot1 = CELL_SLOTS[position1 < 0 ? 0 : position1 > top ? top : position1 | 0];
    let slot2 = CELL_SLOTS[position2 < 0 ? 0 : position2 > top ? top : position2 | 0];
    let slot3 = CELL_SLOTS[position3 < 0 ? 0 : position3 > top ? top : position3 | 0];
    if (slot0 < 0) slot0 = slotWithin(slot0, price0, lowers, uppers);
    if (slot1 < 0) slot1 = slotWithin(slot1, price1, lowers, uppers);
    if (slot2 < 0) slot2 = slotWithin(slot2, price2, lowers, uppers);
    if (slot3 < 0) slot3 = slotWithin(slot3, price3, lowers, uppers);
    SLOT_COUNTS[slot0]++;
    SLOT_COUNTS[lane1 + slot1]++;
    SLOT_COUNTS[lane2 + slot2]++;
    SLOT_COUNTS[lane3 + slot3]++;
  }
  for (; at < to; ++at) {
    const price = values[at];
    const position = price * scale + shift;
    let slot = CELL_SLOTS[position < 0 ? 0 : position > top ? top : position | 0];
    if (slot < 0) slot = slotWithin(slot, price, lowers, uppers);
    SLOT_COUNTS[slot]++;
  }
}

type MutableSums = Omit<NestedRangeSums, "finite">;

function createSums(nIntervals: number): MutableSums {
  return {
    insideSums: new Float64Array(nIntervals),
    insideSumsOfSquares: new Float64Array(nIntervals),
    stayCounts: new Float64Array(nIntervals),
    lossSums: new Float64Array(nIntervals),
    lossSumsOfSquares: new Float64Array(nIntervals),
  };
}

/** The slot of a point in a cell that holds a bound (`code` < 0 from CELL_SLOTS). */
function slotWithin(
  code: number,
  price: number,
  lowers: Float64Array,
  uppers: Float64Array,
): number {
  if (code !== MANY_BOUNDS) {
    const index = -1 - code;
    const bound = BOUNDS[index];
    return price < bound
      ? SLOTS_BELOW[index]
      : price > bound
        ? SLOTS_ABOVE[index]
        : SLOTS_AT[index];
  }
  for (let interval = 0; interval < lowers.length; ++interval) {
    if (lowers[interval] < price && price < uppers[interval]) return interval + 1;
  }
  return lowers.length + 1;
}

/**
 * Fills CELL_SLOTS (and the bound tables) for nested intervals; returns the cell map
 * x ↦ x·scale + shift, which puts the widest lower bound near cell 1 and the widest upper near
 * cell 4,095. Exact for any point because the map is monotone: a point in a cell before a bound's
 * cell is below the bound, one in a cell after it is above it.
 */
function fillCellTable(
  lowers: Float64Array,
  uppers: Float64Array,
): { scale: number; shift: number } {
  const nIntervals = lowers.length;
  const low = lowers[nIntervals - 1];
  const high = uppers[nIntervals - 1];
  const scale = (CELLS - 2) / (high - low);
  const shift = 1 - low * scale;
  const cellOf = (price: number) => {
    const position = price * scale + shift;
    return position < 0 ? 0 : position > CELLS - 1 ? CELLS - 1 : position | 0;
  };
  const lowerCells = Int32Array.from(lowers, cellOf);
  const upperCells = Int32Array.from(uppers, cellOf);
  // Bounds per cell: none (one slot), one (compare with it), several (compare with all).
  const boundsInCell = new Int32Array(CELLS);
  const boundOfCell = new Float64Array(CELLS);
  for (let interval = 0; interval < nIntervals; ++interval) {
    boundsInCell[lowerCells[interval]]++;
    boundOfCell[lowerCells[interval]] = lowers[interval];
    boundsInCell[upperCells[interval]]++;
    boundOfCell[upperCells[interval]] = uppers[interval];
  }
  // The slot of a point in `cell` whose relation to the bound of that cell (if any) is `side`:
  // −1 below it, 0 at it, +1 above it; every other bound is ordered against it by its cell.
  const slotOf = (cell: number, side: number): number => {
    for (let interval = 0; interval < nIntervals; ++interval) {
      const lowerCell = lowerCells[interval];
      const upperCell = upperCells[interval];
      const aboveLower = lowerCell === cell ? side > 0 : lowerCell < cell;
      const belowUpper = upperCell === cell ? side < 0 : cell < upperCell;
      if (aboveLower && belowUpper) return interval + 1;
    }
    return nIntervals + 1;
  };
  let nBoundCells = 0;
  for (let cell = 0; cell < CELLS; ++cell) {
    const count = boundsInCell[cell];
    if (count === 0) {
      CELL_SLOTS[cell] = slotOf(cell, 0);
    } else if (count === 1) {
      BOUNDS[nBoundCells] = boundOfCell[cell];
      SLOTS_BELOW[nBoundCells] = slotOf(cell, -1);
      SLOTS_AT[nBoundCells] = slotOf(cell, 0);
      SLOTS_ABOVE[nBoundCells] = slotOf(cell, 1);
      CELL_SLOTS[cell] = -1 - nBoundCells;
      nBoundCells++;
    } else {
      CELL_SLOTS[cell] = MANY_BOUNDS;
    }
  }
  return { scale, shift };
}

/** Per interval, the terms of `impermanentLoss` (core) that do not depend on the price. */
interface PreparedLosses {
  readonly startPrice: number;
  readonly sqrtStart: number;
  /** Whether impermanentLoss is a number for the interval (0 < L < U < ∞, L ≤ P0 ≤ U). */
  readonly valid: Uint8Array;
  readonly startAmountY: Float64Array;
  readonly upperGap: Float64Array;
  readonly startAmountX: Float64Array;
  readonly rootLowerProduct: Float64Array;
  readonly rootUpperProduct: Float64Array;
}

function prepareLosses(intervals: NestedIntervals): PreparedLosses {
  const { lowers, uppers, startPrice } = intervals;
  const nIntervals = lowers.length;
  const sqrtStart = Math.sqrt(startPrice);
  const prepared = {
    startPrice,
    sqrtStart,
    valid: new Uint8Array(nIntervals),
    startAmountY: new Float64Array(nIntervals),
    upperGap: new Float64Array(nIntervals),
    startAmountX: new Float64Array(nIntervals),
    rootLowerProduct: new Float64Array(nIntervals),
    rootUpperProduct: new Float64Array(nIntervals),
  };
  for (let interval = 0; interval < nIntervals; ++interval) {
    const lower = lowers[interval];
    const upper = uppers[interval];
    prepared.valid[interval] =
      lower > 0 && lower < upper && upper < Infinity && startPrice >= lower && startPrice <= upper
        ? 1
        : 0;
    const sqrtLower = Math.sqrt(lower);
    const sqrtUpper = Math.sqrt(upper);
    // As impermanentLoss: differences of roots as quotients of exact differences.
    prepared.startAmountY[interval] = (startPrice - lower) / (sqrtStart + sqrtLower);
    prepared.upperGap[interval] = (upper - startPrice) / (sqrtUpper + sqrtStart);
    prepared.startAmountX[interval] = prepared.upperGap[interval] / (sqrtStart * sqrtUpper);
    prepared.rootLowerProduct[interval] = sqrtStart * sqrtLower;
    prepared.rootUpperProduct[interval] = sqrtStart * sqrtUpper;
  }
  return prepared;
}

/** Adds one path's inside counts, stay and loss to the sums. */
function accumulatePath(
  sums: MutableSums,
  losses: PreparedLosses,
  lowers: Float64Array,
  uppers: Float64Array,
  minimum: number,
  maximum: number,
  terminal: number,
): void {
  const nIntervals = lowers.length;
  const stride = nIntervals + 2;
  const priceValid = terminal >= 0 && terminal < Infinity;
  // The in-range loss does not depend on the interval: (√P − √P0)²/√P0 as in impermanentLoss.
  const rootDifference = (terminal - losses.startPrice) / (Math.sqrt(terminal) + losses.sqrtStart);
  const insideLoss = (rootDifference * rootDifference) / losses.sqrtStart;
  let inside = 0;
  for (let interval = 0; interval < nIntervals; ++interval) {
    const slot = interval + 1;
    inside +=
      SLOT_COUNTS[slot] +
      SLOT_COUNTS[stride + slot] +
      SLOT_COUNTS[2 * stride + slot] +
      SLOT_COUNTS[3 * stride + slot];
    sums.insideSums[interval] += inside;
    sums.insideSumsOfSquares[interval] += inside * inside;
    const lower = lowers[interval];
    const upper = uppers[interval];
    if (minimum > lower && maximum < upper) sums.stayCounts[interval] += 1;
    let loss = NaN;
    if (losses.valid[interval] === 1 && priceValid) {
      const holdValue = terminal * losses.startAmountX[interval] + losses.startAmountY[interval];
      const difference =
        terminal < lower
          ? losses.startAmountY[interval] * (1 - terminal / losses.rootLowerProduct[interval])
          : terminal > upper
            ? losses.upperGap[interval] * (terminal / losses.rootUpperProduct[interval] - 1)
            : insideLoss;
      loss = difference / holdValue;
    }
    sums.lossSums[interval] += loss;
    sums.lossSumsOfSquares[interval] += loss * loss;
  }
}
