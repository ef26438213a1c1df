/**
 * The validator's prompt CRPS of one miner (DOMAIN.md §2), from a path set and the spec's realized
 * path record.
 */

import type { CrpsMethod } from "../core/crps.ts";
import type { PathSet } from "../paths/pathSet.ts";
import type { RealizedPath } from "../spec/records/validation.ts";
import { planPrompt, type PromptPlan } from "./promptPlan.ts";
import { promptCrpsOfValues, type PromptCrpsValue } from "./promptCrpsOfValues.ts";
import { checkRealizedMatches, realizedPricesOf } from "./realizedPrices.ts";
import { scoringIntervalsOf, type ScoringTarget } from "./scoringTarget.ts";

/**
 * Options of {@link scorePrompt}.
 * @example const options: ScorePromptOptions = { method: "parity" };
 */
export interface ScorePromptOptions {
  /**
   * `"closed"` (default): the sorted closed form, within ~1e-13 relative of properscoring;
   * `"parity"`: properscoring's own loop, equal to it (and to `src/reference/promptCrps.ts`) bit
   * for bit, ~15 % slower.
   */
  readonly method?: CrpsMethod;
}

/**
 * A miner's prompt CRPS with its per-interval sums.
 * @example scorePrompt(pathSet, realized, { competition: "crypto-24h" }).intervals["5min"] // => the 288-term sum
 */
export interface PromptCrps {
  /** The prompt CRPS (plain sum over intervals and terms), or −1 when the validator gives −1. */
  readonly crps: number;
  /**
   * Sum of each interval's CRPS terms, by interval name in the validator's order (`_abs` terms
   * normalized). Empty when the score is −1 before scoring (no realized prices, a zero or
   * non-finite price, term counts that do not line up); filled when the total is not finite.
   */
  readonly intervals: Readonly<Record<string, number>>;
  /** Why `crps` is −1, in words close to the validator's; `undefined` for a valid score. */
  readonly invalidReason: string | undefined;
}

/**
 * The validator's prompt CRPS of one miner (DOMAIN.md §2): the path set's simulated changes on
 * each interval's grid (basis-point returns, the first change for `_gaps`, end prices for `_abs`
 * with the validator's shortening of k on short realized paths) scored against the realized
 * changes by the ensemble CRPS of properscoring; missing realized prices (`null` or NaN) make their
 * changes NaN, and NaN changes are skipped (the validator's observed blocks add the same terms);
 * `_abs` terms are divided by the last realized price and multiplied by 10,000; the total is the
 * plain sum. −1 for an empty realized path, a simulated price equal to 0 or not finite, realized
 * and simulated term counts that do not line up where a realized change is observed, or a
 * non-finite total. The intervals come from `target`: a competition (`crypto-24h`,
 * `com-equ-24h`, `low` → the 24h set; `crypto-1h`, `high` → the 1h set) or explicit
 * `{ intervals }` (name → seconds).
 * Agreement: in `"parity"` mode bit for bit with `src/reference/promptCrps.ts` (and so with
 * properscoring); in `"closed"` mode within ~1e-13 relative. For many miners of one prompt use
 * {@link ScoringPool} (worker threads) or {@link planPrompt} once and {@link promptCrpsOfValues}
 * per miner.
 * Throws `RangeError` when the realized path belongs to another prompt (time increment or start
 * time differ), for an unknown competition or an invalid interval length.
 * @example
 * scorePrompt(pathSet, realized, { competition: "crypto-24h" }) // => { crps: 1234.5, intervals: { "5min": …, … }, invalidReason: undefined }
 * @example
 * scorePrompt(pathSet, realized, { intervals: { "5min": 300 } }, { method: "parity" }).crps
 */
export function scorePrompt(
  pathSet: PathSet,
  realized: RealizedPath,
  target: ScoringTarget,
  options: ScorePromptOptions = {},
): PromptCrps {
  const plan = planFor("scorePrompt", pathSet, realized, target);
  return scorePlanned(pathSet, plan, options.method ?? "closed");
}

/**
 * The {@link PromptPlan} of a path set's prompt: checks that `realized` belongs to it and prepares
 * its realized terms. Shared by {@link scorePrompt} and the scoring pool.
 * @example planFor("scorePrompt", pathSet, realized, { competition: "crypto-1h" }).intervals.length // => 18
 */
export function planFor(
  operation: string,
  pathSet: Pick<PathSet, "timeIncrement" | "startTime" | "nPoints">,
  realized: RealizedPath,
  target: ScoringTarget,
): PromptPlan {
  const intervals = scoringIntervalsOf(target, operation);
  checkRealizedMatches(operation, pathSet, realized);
  return planPrompt(realizedPricesOf(realized), {
    timeIncrement: pathSet.timeIncrement,
    nPoints: pathSet.nPoints,
    intervals,
  });
}

/**
 * Scores one path set against a plan made for its prompt, returning the named result.
 * @example scorePlanned(pathSet, plan, "closed").crps
 */
export function scorePlanned(pathSet: PathSet, plan: PromptPlan, method: CrpsMethod): PromptCrps {
  if (pathSet.nPoints !== plan.nPoints) {
    throw new RangeError(
      `scorePrompt requires path sets of ${plan.nPoints} points for this prompt, got ${pathSet.nPoints} (miner ${pathSet.minerUid})`,
    );
  }
  const sums = new Float64Array(plan.intervals.length);
  const result = promptCrpsOfValues(pathSet.values, pathSet.nPaths, plan, method, sums);
  return namedResult(plan, result, sums);
}

/**
 * A {@link PromptCrps} from a kernel result: per-interval sums named, or no intervals when the
 * miner was invalid before scoring.
 * @example namedResult(plan, { crps: -1, invalidReason: "zero price encountered in simulation runs", scored: false }, sums).intervals // => {}
 */
export function namedResult(
  plan: PromptPlan,
  result: PromptCrpsValue,
  sums: ArrayLike<number>,
): PromptCrps {
  const { crps, invalidReason, scored } = result;
  const intervals: Record<string, number> = {};
  if (scored) {
    for (let index = 0; index < plan.intervals.length; index++) {
      intervals[plan.intervals[index].name] = sums[index];
    }
  }
  return { crps, intervals, invalidReason };
}
