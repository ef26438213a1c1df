/**
 * The validator's prompt CRPS of one miner (the validator's CRPS and its dated rules), from a path set and the spec's
 * realized path record, under the validator's rules of the prompt's date.
 */

import type { CrpsMethod } from "../core/crps.ts";
import type { PathSet } from "../paths/pathSet.ts";
import { VOLATILITY_BLOCKS_1H } from "../domain/intervals.ts";
import type { RealizedPath } from "../domain/records/validation.ts";
import { planPrompt, type PromptPlan } from "./promptPlan.ts";
import { promptCrpsOfValues, type PromptCrpsValue } from "./promptCrpsOfValues.ts";
import { checkRealizedMatches, realizedPricesOf } from "./realizedPrices.ts";
import {
  promptCrpsRules,
  scoringIntervalsOf,
  type PromptCrpsRuleOptions,
  type ScoringTarget,
} from "./scoringTarget.ts";

/**
 * Options of {@link scorePrompt}: the CRPS method, and the dated rules (the validator's dated rules), which
 * come from the validator's era at the prompt's scored time (start + time length) unless set
 * here (`promptCrpsRules`).
 * @example const options: ScorePromptOptions = { method: "parity", eraSettings: { volatilityCrpsFromUnix: null } };
 */
export interface ScorePromptOptions extends PromptCrpsRuleOptions {
  /**
   * `"closed"` (default): the sorted closed form, within ~1e-13 relative of properscoring;
   * `"parity"`: properscoring's own loop, equal to it (and to `src/reference/promptCrps.ts`) bit
   * for bit, ~15 % slower.
   */
  readonly method?: CrpsMethod;
}

/**
 * A miner's prompt CRPS with its parts: the price CRPS with its per-interval sums, and the
 * volatility CRPS with its per-block-size sums.
 * @example scorePrompt(pathSet, realized, { competition: "crypto-24h" }).intervals["5min"] // => the 288-term sum
 * @example scorePrompt(pathSet, realized, { competition: "crypto-1h" }, { volatility: true }).volatilityBlocks.vol_5min // => the 12 blocks' CRPS sum
 */
export interface PromptCrps {
  /**
   * The prompt CRPS: the price CRPS plus, when the prompt has one, the volatility CRPS; −1 when
   * the validator gives −1.
   */
  readonly crps: number;
  /** The price CRPS: the plain sum over intervals and terms; NaN when −1 before scoring. */
  readonly priceCrps: number;
  /**
   * The volatility CRPS added to it, Σ weight × block-size sum (the validator's dated rules); `null` when the
   * prompt's rules add none (not crypto-1h, an era without it, or `volatility: false`); NaN when
   * they do but the miner is −1 before it is computed.
   */
  readonly volatilityCrps: number | null;
  /**
   * Sum of each volatility block size's CRPS, unweighted, by name in the validator's order
   * (`vol_60min`, `vol_15min`, `vol_5min`; 0 for a size without an observed block), as the
   * validator's detail rows; empty when the volatility CRPS was not computed.
   */
  readonly volatilityBlocks: Readonly<Record<string, number>>;
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
 * The validator's prompt CRPS of one miner (the validator's CRPS and its dated rules): the path set's simulated changes on
 * each interval's grid (basis-point returns, the first change for `_gaps`, end prices for `_abs`
 * with the validator's shortening of k on short realized paths) scored against the realized
 * changes by the ensemble CRPS of properscoring; missing realized prices (`null` or NaN) make their
 * changes NaN, and NaN changes are skipped (the validator's observed blocks add the same terms);
 * `_abs` terms are divided by the last realized price and multiplied by 10,000; the total is the
 * plain sum. For crypto-1h prompts from the volatility era on, the volatility CRPS is added:
 * per block size (one 60-minute, four 15-minute, twelve 5-minute blocks) the CRPS of the realized
 * block volatility (sample std of the block's 1-step basis-point returns) against the simulated
 * ones, summed and weighted λ/(3·blocks), λ = 5.25 (`volatilityCrpsOfValues`). −1 for an empty
 * realized path, a simulated price equal to 0 or not finite, realized and simulated term counts
 * (or volatility blocks) that do not line up where a realized one is observed, or a non-finite
 * total. The intervals come from `target`: a competition (`crypto-24h`, `com-equ-24h`, `low` →
 * the 24h set; `crypto-1h`, `high` → the 1h set) or explicit `{ intervals }` (name → seconds).
 * The dated rules come from the validator's era at the prompt's scored time (start +
 * `realized.time_length`, under `options.eraSettings`), unless `options` sets them
 * (`promptCrpsRules`): the volatility CRPS for `crypto-1h` targets only (`volatility: true` adds
 * it to any target, `false` leaves it out), and, before 2026-03-11, `_gaps` intervals scored as
 * ordinary intervals, for every target (`gapsFirstChangeOnly` sets the formula).
 * Agreement: in `"parity"` mode bit for bit with `src/reference/promptCrps.ts` under the same
 * rules (and so with properscoring); in `"closed"` mode within ~1e-13 relative. For many miners
 * of one prompt use {@link scoreMiners} (or `ScoringThreads`, on worker threads) or
 * {@link planPrompt} once and {@link promptCrpsOfValues} per miner.
 * Throws `RangeError` when the realized path belongs to another prompt (time increment or start
 * time differ), for an unknown competition, an invalid interval length, or a volatility block
 * shorter than one time increment (`volatility: true` on prompts of more than 5-minute steps).
 * @param pathSet - the miner's path set.
 * @param realized - the realized path of the same prompt.
 * @param target - the competition, or the intervals (name → seconds) to score.
 * @param options - the CRPS method (`"closed"` by default) and the era settings or rules to score
 *   under (the era's by default).
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
  const plan = planFor("scorePrompt", pathSet, realized, target, options);
  return scorePlanned(pathSet, plan, options.method ?? "closed");
}

/**
 * The {@link PromptPlan} of a path set's prompt: checks that `realized` belongs to it, resolves
 * the dated rules at its scored time (start + `realized.time_length`; `promptCrpsRules`) and
 * prepares its realized terms and block volatilities. Shared by {@link scorePrompt} and
 * {@link scoreMiners}.
 * @example planFor("scorePrompt", pathSet, realized, { competition: "crypto-1h" }).intervals.length // => 18
 */
export function planFor(
  operation: string,
  pathSet: Pick<PathSet, "timeIncrement" | "startTime" | "nPoints">,
  realized: RealizedPath,
  target: ScoringTarget,
  options: PromptCrpsRuleOptions = {},
): PromptPlan {
  const intervals = scoringIntervalsOf(target, operation);
  checkRealizedMatches(operation, pathSet, realized);
  const rules = promptCrpsRules(target, pathSet.startTime + realized.time_length, options);
  return planPrompt(realizedPricesOf(realized), {
    timeIncrement: pathSet.timeIncrement,
    nPoints: pathSet.nPoints,
    intervals,
    gapsFirstChangeOnly: rules.gapsFirstChangeOnly,
    volatilityBlocks: rules.volatility ? VOLATILITY_BLOCKS_1H : undefined,
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
  const volatilitySums = new Float64Array(plan.volatility?.length ?? 0);
  const result = promptCrpsOfValues(pathSet.values, pathSet.nPaths, plan, {
    method,
    intervalSums: sums,
    volatilitySums: plan.volatility === undefined ? undefined : volatilitySums,
  });
  return namedResult(plan, result, sums, volatilitySums);
}

/**
 * A {@link PromptCrps} from a kernel result: per-interval sums named (none when the miner was
 * invalid before scoring), and per-block-size volatility sums named (none when the volatility
 * CRPS was not computed).
 * @example namedResult(plan, { crps: -1, invalidReason: "zero price encountered in simulation runs", scored: false, priceCrps: NaN, volatilityCrps: null, volatilityScored: false }, sums, []).intervals // => {}
 */
export function namedResult(
  plan: PromptPlan,
  result: PromptCrpsValue,
  sums: ArrayLike<number>,
  volatilitySums: ArrayLike<number>,
): PromptCrps {
  const { crps, invalidReason, scored, priceCrps, volatilityCrps, volatilityScored } = result;
  const intervals: Record<string, number> = {};
  if (scored) {
    for (let index = 0; index < plan.intervals.length; index++) {
      intervals[plan.intervals[index].name] = sums[index];
    }
  }
  const volatilityBlocks: Record<string, number> = {};
  if (plan.volatility !== undefined && volatilityScored) {
    for (let index = 0; index < plan.volatility.length; index++) {
      volatilityBlocks[plan.volatility[index].name] = volatilitySums[index];
    }
  }
  return { crps, priceCrps, volatilityCrps, intervals, volatilityBlocks, invalidReason };
}
