/**
 * The gathers of prompt scoring: a chunk of an interval's terms, every path's members of each,
 * written term-major from the path-major prices in one pass along the path rows, with the range
 * of them all; and the checks of the prices for 0 or not finite. Used by `promptCrpsOfValues.ts`.
 */

/**
 * The smallest and largest member the last gather wrote ({@link gatherPrices},
 * {@link gatherReturns}). Module-level, one per thread: the kernel reads them right after a
 * gather. Module variables rather than the elements of an array: a store to one needs no type
 * feedback, so a gather that V8 compiled on-stack during its first call does not fall back to
 * the interpreter at its end, on every later call (core/transpose.ts has the mechanism).
 */
let lowest = NaN;
let highest = NaN;

/**
 * The smallest member the last gather wrote.
 * @example gatherPrices(values, 1000, 289, 288, 0, 1, members); gatheredLow() // => the lowest end price
 */
export function gatheredLow(): number {
  return lowest;
}

/**
 * The largest member the last gather wrote.
 * @example gatherPrices(values, 1000, 289, 288, 0, 1, members); gatheredHigh() // => the highest end price
 */
export function gatheredHigh(): number {
  return highest;
}

/**
 * Writes the grid prices of `termCount` terms of an `_abs` interval from term `firstTerm` on into
 * `members`, term-major (the chunk's term t of path p, the price at grid point
 * firstTerm + t + 1, at t·nPaths + p); their smallest and largest are then
 * {@link gatheredLow} and {@link gatheredHigh}. Grid points are `stepsPerInterval` apart. Its own
 * function, as is `gatherReturns`: one loop for both kinds deoptimized on the kind it had not
 * seen yet.
 * @example gatherPrices(values, 1000, 289, 288, 0, 1, members) // members[p] = path p's end price
 */
export function gatherPrices(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  stepsPerInterval: number,
  firstTerm: number,
  termCount: number,
  members: Float64Array,
): void {
  let low = Infinity;
  let high = -Infinity;
  const offset = firstTerm * stepsPerInterval;
  for (let path = 0, row = offset; path < nPaths; path++, row += nPoints) {
    for (
      let term = 0, at = path, point = row + stepsPerInterval;
      term < termCount;
      term++, at += nPaths, point += stepsPerInterval
    ) {
      const member = values[point];
      members[at] = member;
      if (member < low) low = member;
      if (member > high) high = member;
    }
  }
  lowest = low;
  highest = high;
}

/**
 * `gatherPrices` for the other intervals: the chunk's term t of path p is the basis-point
 * return between grid points firstTerm + t and firstTerm + t + 1, ((to − from)/from)·10,000, the
 * validator's expression. One pass along the path rows: the rows left over (nPaths mod 4) one by
 * one, then four rows side by side (their four members of a term are adjacent). Reading rows in
 * order and writing each term's column was measured ~2× faster than gathering each term's column
 * from rows 2.3 kB apart, and four rows at a time ~1.5× faster than one (bench/README.md). The
 * rows left over come first so that no code follows the hot loop (core/transpose.ts says why).
 * With `check` it also tests every price it reads for 0 or not finite; at the first failure it
 * returns the index of the first such price of all `values` in path-major order (the
 * validator's, found by a rescan: the chunks checked so far cover other points of other rows),
 * and the members are then incomplete; otherwise −1.
 * @example gatherReturns(values, 1000, 61, 1, 0, 60, true, members) // => −1, members[t·1000 + p] = return t of path p
 */
export function gatherReturns(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  stepsPerInterval: number,
  firstTerm: number,
  termCount: number,
  check: boolean,
  members: Float64Array,
): number {
  let low = Infinity;
  let high = -Infinity;
  const blocksEnd = nPaths - (nPaths % 4);
  const row1 = nPoints;
  const row2 = 2 * nPoints;
  const row3 = 3 * nPoints;
  // Index of a path's grid point firstTerm, from its row's start.
  const start = firstTerm * stepsPerInterval;
  // The range is the same in either order of the rows (a zero's sign aside, which the radix
  // keys built from it do not see).
  for (
    let path = blocksEnd, row = start + blocksEnd * nPoints;
    path < nPaths;
    path++, row += nPoints
  ) {
    let from = values[row];
    if (check && !finiteNonZero(from)) return firstPriceProblem(values);
    for (
      let term = 0, at = path, point = row + stepsPerInterval;
      term < termCount;
      term++, at += nPaths, point += stepsPerInterval
    ) {
      const to = values[point];
      if (check && !finiteNonZero(to)) return firstPriceProblem(values);
      const member = ((to - from) / from) * 10000;
      members[at] = member;
      if (member < low) low = member;
      if (member > high) high = member;
      from = to;
    }
  }
  for (let path = 0, row = start; path < blocksEnd; path += 4, row += 4 * nPoints) {
    let from0 = values[row];
    let from1 = values[row + row1];
    let from2 = values[row + row2];
    let from3 = values[row + row3];
    if (check && !allFiniteNonZero(from0, from1, from2, from3)) return firstPriceProblem(values);
    for (
      let term = 0, at = path, point = row + stepsPerInterval;
      term < termCount;
      term++, at += nPaths, point += stepsPerInterval
    ) {
      const to0 = values[point];
      const to1 = values[point + row1];
      const to2 = values[point + row2];
      const to3 = values[point + row3];
      if (check && !allFiniteNonZero(to0, to1, to2, to3)) return firstPriceProblem(values);
      const member0 = ((to0 - from0) / from0) * 10000;
      const member1 = ((to1 - from1) / from1) * 10000;
      const member2 = ((to2 - from2) / from2) * 10000;
      const member3 = ((to3 - from3) / from3) * 10000;
      members[at] = member0;
      members[at + 1] = member1;
      members[at + 2] = member2;
      members[at + 3] = member3;
      if (member0 < low) low = member0;
      if (member0 > high) high = member0;
      if (member1 < low) low = member1;
      if (member1 > high) high = member1;
      if (member2 < low) low = member2;
      if (member2 > high) high = member2;
      if (member3 < low) low = member3;
      if (member3 > high) high = member3;
      from0 = to0;
      from1 = to1;
      from2 = to2;
      from3 = to3;
    }
  }
  lowest = low;
  highest = high;
  return -1;
}

/** Whether `price` is finite and non-zero, in one test for the common case. */
function finiteNonZero(price: number): boolean {
  return price - price === 0 && price !== 0;
}

/** {@link finiteNonZero} for four prices at once (a NaN or ±Infinity makes the sum NaN). */
function allFiniteNonZero(a: number, b: number, c: number, d: number): boolean {
  return a - a + (b - b) + (c - c) + (d - d) === 0 && a !== 0 && b !== 0 && c !== 0 && d !== 0;
}

/**
 * The index of the first price (in path-major order) that is 0 or not finite, or −1 when every one
 * is finite and non-zero.
 * @example firstPriceProblem(Float64Array.of(1, 2, 0, NaN)) // => 2
 */
export function firstPriceProblem(values: Float64Array): number {
  for (let index = 0; index < values.length; index++) {
    if (!finiteNonZero(values[index])) return index;
  }
  return -1;
}
