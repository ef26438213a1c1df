import { requireLength, requirePathShape } from "./entryChecks.ts";

/**
 * The terminal price S_T (the last point) of every path of a path-major ensemble. O(nPaths).
 * Sort the result (`Float64Array.prototype.sort`, ascending, NaN last) once for the `…Sorted`
 * kernels: {@link terminalProbabilitiesSorted}, {@link terminalBetweenSorted},
 * {@link optionPricesSorted}.
 * Throws `RangeError` for a shape mismatch or an `out` of length other than nPaths.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths.
 * @param nPoints - points per path, ≥ 1.
 * @param out - where to write, `nPaths` numbers; a new array by default.
 * @example terminalPrices(Float64Array.of(100, 96, 99, 100, 101, 102), 2, 3) // => [99, 102]
 */
export function terminalPrices(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  out: Float64Array = new Float64Array(nPaths),
): Float64Array {
  requirePathShape("terminalPrices", values, nPaths, nPoints);
  requireLength("terminalPrices", "out", out.length, nPaths);
  for (let path = 0, index = nPoints - 1; path < nPaths; ++path, index += nPoints) {
    out[path] = values[index];
  }
  return out;
}
