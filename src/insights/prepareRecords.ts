/** Prepares a session for several records at once: their per-path intermediates in one pass. */

import {
  DEFAULT_TOUCH_ESTIMATE,
  LIQUIDATION_WINDOWS,
  LP_WIDTHS,
  liquidationWindowSteps,
  lpBounds,
  stepOfTime,
  venueEventWindow,
  volatilityBlockSteps,
} from "../domain/insightConventions.ts";
import { recomputedPathsReading } from "../domain/insightKindLists.ts";
import { resolveContext, type InsightContext } from "./context.ts";
import type { RecomputablePath } from "./recompute.ts";
import type { InsightSession } from "./session.ts";

/** The range-family paths whose hit markets read running extremes at the daily event's end. */
const RANGE_FAMILY: readonly RecomputablePath[] = recomputedPathsReading("range-markets");

/** The volatility records, which read the block log returns of this and the previous prompt. */
const VOLATILITY_RECORDS: readonly RecomputablePath[] = recomputedPathsReading("previous-prompt");

/**
 * Before computing several records of one session: computes, in ONE pass over the paths
 * (`InsightSession.prepare`), every per-path intermediate that the records of `paths` will read
 * under `context`: the running extremes at the liquidation windows' ends (discrete touch), at the
 * daily event's end (hit markets of the range family, when `context.rangeMarkets` has one) and at
 * the last point, the counts of the 16 LP bounds around the current price, and the block log
 * returns of the volatility records (the previous prompt's come from its own session). Without it each
 * intermediate costs a pass of its own (same results, more time). The sorted prices at a step
 * (terminal, expiry, event ends) are kept by the session on first use.
 * The windows are computed as the records compute them; a record asking for others (another
 * context) only pays a pass of its own. Throws `RangeError` for a context that does not fit.
 * @param session - the session that keeps what is prepared.
 * @param context - the records' context, as {@link recompute} takes it.
 * @param paths - the spec paths of the records that will be computed.
 * @example
 * prepareRecords(session, context, ["/insights/liquidation", "/insights/lp-bounds"]);
 * const liquidation = recompute("/insights/liquidation", session, context);
 */
export function prepareRecords(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
): void {
  const resolved = resolveContext("prepareRecords", context, session.ensemble);
  const discrete = (context.touchEstimate ?? DEFAULT_TOUCH_ESTIMATE) === "discrete";
  const extremeSteps: number[] = [];
  if (discrete && paths.includes("/insights/liquidation")) {
    for (const window of context.liquidationWindows ?? LIQUIDATION_WINDOWS[context.horizon]) {
      extremeSteps.push(liquidationWindowSteps(window, resolved.timeIncrement).toStep);
    }
  }
  const hits = context.rangeMarkets?.some((market) => market.cmpType === "hit") === true;
  if (discrete && hits && paths.some((path) => RANGE_FAMILY.includes(path))) {
    const { endUnix } = venueEventWindow("daily", resolved.nowUnix);
    extremeSteps.push(
      stepOfTime(endUnix, resolved.forecastStartUnix, resolved.timeIncrement, resolved.nPoints),
    );
  }
  let intervals: { lowers: Float64Array; uppers: Float64Array } | undefined;
  if (paths.includes("/insights/lp-bounds")) {
    const bounds = LP_WIDTHS.map((width) => lpBounds(context.currentPrice, width.fraction));
    intervals = {
      lowers: Float64Array.from(bounds, (bound) => bound.lower),
      uppers: Float64Array.from(bounds, (bound) => bound.upper),
    };
  }
  const volatility = paths.some((path) => VOLATILITY_RECORDS.includes(path));
  const blockSteps = volatility
    ? volatilityBlockSteps(context.horizon, resolved.timeIncrement)
    : undefined;
  session.prepare({ extremeSteps, intervals, blockSteps });
}
