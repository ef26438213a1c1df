/**
 * How far the miners of an ensemble disagree on a probability. The service pools the top miners'
 * paths into one ensemble, so its probability of an event is the mean of the miners' own
 * probabilities. Their spread is the model's uncertainty: ten miners who say 0.02, 0.30 and
 * everything between do not make a 0.12 that an edge of 0.01 can be traded against, however many
 * paths the pool holds.
 */

import { DEFAULT_TOUCH_ESTIMATE, hitDirection } from "../domain/insightConventions.ts";
import type { EnsembleMember } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import type { InsightSession } from "./session.ts";

/**
 * The between-miner standard error of a pooled probability: with p_m the fraction of member m's
 * paths for which `holds(path)` is true, the sample standard deviation of the p_m (ddof 1) over
 * √M, M the number of members (each member weighs alike; the service's members send 1,000 paths
 * each). It is the standard error of the pooled probability when the miners are taken as a sample
 * of the models the pool could hold. NaN with fewer than two members.
 * @param members - the ensemble's members, tiling its paths in order (`Ensemble.members`).
 * @param holds - whether the event holds on a path, by the path's index in the ensemble.
 * @example betweenMinerError([{ minerUid: 1, offset: 0, count: 2 }, { minerUid: 2, offset: 2, count: 2 }], (path) => path === 0) // => 0.25 (p = 0.5 and 0: sd 0.3536, over √2)
 */
export function betweenMinerError(
  members: readonly EnsembleMember[],
  holds: (path: number) => boolean,
): number {
  const count = members.length;
  if (count < 2) return Number.NaN;
  let mean = 0;
  let sumSquares = 0;
  members.forEach((member, index) => {
    let hits = 0;
    for (let path = member.offset; path < member.offset + member.count; ++path) {
      if (holds(path)) hits += 1;
    }
    const fraction = member.count > 0 ? hits / member.count : Number.NaN;
    const delta = fraction - mean;
    mean += delta / (index + 1);
    sumSquares += delta * (fraction - mean);
  });
  return Math.sqrt(sumSquares / (count - 1) / count);
}

/**
 * {@link betweenMinerError} of an event on the prices at one point of the paths: `holds(price)`
 * on each path's price at `step` (`values` path-major, `nPoints` per path).
 * @param ensemble - the (re-based) ensemble: its members, values and points per path.
 * @param step - the point of the paths the event reads.
 * @param holds - whether the event holds at a price.
 * @example betweenMinerErrorAt(session.ensemble, 288, (price) => price >= 70000)
 */
export function betweenMinerErrorAt(
  ensemble: {
    readonly members: readonly EnsembleMember[];
    readonly values: Float64Array;
    readonly nPoints: number;
  },
  step: number,
  holds: (price: number) => boolean,
): number {
  const { values, nPoints } = ensemble;
  return betweenMinerError(ensemble.members, (path) => holds(values[path * nPoints + step]));
}

/**
 * {@link betweenMinerError} of a `hit` market, the touch of `level` over the points [0, endStep]
 * under the discrete estimate: a path touches a level above the current price when its maximum
 * reaches it, one below when its minimum does (the session's running extremes, prepared at
 * `endStep` by the touch estimate). NaN under the bridge estimate, whose per-path touch is a
 * probability and not an event.
 * @param session - the session whose touch probabilities were read at `endStep`.
 * @param context - the context: its current price and touch estimate.
 * @param endStep - the last point of the touch window.
 * @param level - the market's level.
 * @example touchBetweenMinerError(session, context, 288, 70000)
 */
export function touchBetweenMinerError(
  session: InsightSession,
  context: Pick<InsightContext, "currentPrice" | "touchEstimate">,
  endStep: number,
  level: number,
): number {
  if ((context.touchEstimate ?? DEFAULT_TOUCH_ESTIMATE) !== "discrete") return NaN;
  const { minima, maxima } = session.extremesAt(endStep);
  const members = session.ensemble.members;
  return hitDirection(level, context.currentPrice) === "up"
    ? betweenMinerError(members, (path) => maxima[path] >= level)
    : betweenMinerError(members, (path) => minima[path] <= level);
}
