/**
 * The full insight set of one asset (issue 5): the seven insight records and the model side of the
 * asset's daily venue records, recomputed from the 10 × 1,000 × 289 ensemble, beside a numpy
 * implementation of the same set (bench/peers/insights.py). Also each record alone, to show where
 * the time goes.
 *
 * What is timed: from an ensemble already pooled and re-based to the current price (as `sync`
 * builds it, one copy of the path sets), and the previous prompt's ensemble likewise, each run
 * wraps them in fresh `Ensemble` objects and fresh `InsightSession`s (so nothing is kept from the
 * run before: transpose, running extremes, block returns of both prompts), then computes every
 * record with its standard errors. The numpy peer computes the values only, no standard errors.
 * The set first names its records to `prepareRecords` (one pass over the paths for the running
 * extremes, the LP bounds' counts and the block returns); the variant row without it shows what
 * that pass saves. The threads row prepares the same set with `InsightThreads`, one worker thread
 * (the step percentiles and the previous prompt's block returns, volatilities and percentiles on
 * the worker, the pass over the paths on this thread, then the records that need no worker part
 * while the worker finishes), over paths in SharedArrayBuffers as
 * `ensembleOf(pathSets, { shared: true })` makes them; the thread starts once, at load (the
 * warm-up runs pay it), and each run awaits `prepareRecords`.
 */

import type { InsightContext, RangeMarket } from "../../src/insights/context.ts";
import { liquidationInsight } from "../../src/insights/liquidation.ts";
import { lpBoundsInsight } from "../../src/insights/lpBounds.ts";
import { lpProbabilitiesInsight } from "../../src/insights/lpProbabilities.ts";
import { optionPricingInsight } from "../../src/insights/optionPricing.ts";
import { predictionPercentilesInsight } from "../../src/insights/predictionPercentiles.ts";
import { prepareRecords } from "../../src/insights/prepareRecords.ts";
import { RECOMPUTABLE_PATHS } from "../../src/insights/recompute.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { rangeModelSides, upDownModelSide } from "../../src/insights/venueA.ts";
import { venueBModelSides } from "../../src/insights/venueB.ts";
import { volatilityInsight, volatilityPercentilesInsight } from "../../src/insights/volatility.ts";
import { InsightThreads } from "../../src/insights/insightThreads.ts";
import { Ensemble } from "../../src/paths/ensemble.ts";
import {
  defineSuite,
  MINERS,
  PATHS_PER_MINER,
  POINTS,
  TIME_INCREMENT,
  type BenchCase,
} from "../harness.ts";

/** 2026-02-25 23:45 UTC; the bench paths start at 68,000. */
const START_UNIX = 1772063100;
const CURRENT_PRICE = 68000;
const PREVIOUS_PRICE = 67500;

/** close(m) = 68000·exp(0.002·sin(m/420) + 0.0007·sin(m/37)), m in minutes (as the peer). */
function minuteClose(minuteUnix: number): number {
  const minute = minuteUnix / 60;
  return CURRENT_PRICE * Math.exp(0.002 * Math.sin(minute / 420) + 0.0007 * Math.sin(minute / 37));
}

/** The daily event's markets (as the peer): below, nine 2,000-wide buckets, above; thresholds; hits. */
const RANGE_MARKETS: RangeMarket[] = [
  { cmpType: "below", refPrices: [60000] },
  ...Array.from({ length: 9 }, (_, index): RangeMarket => ({
    cmpType: "range",
    refPrices: [60000 + 2000 * index, 62000 + 2000 * index],
  })),
  { cmpType: "above", refPrices: [78000] },
];
const ABOVE_MARKETS: RangeMarket[] = Array.from({ length: 11 }, (_, index) => ({
  cmpType: "above",
  refPrices: [60000 + 2000 * index],
}));
const HIT_MARKETS: RangeMarket[] = [
  58000, 60000, 62000, 64000, 66000, 70000, 72000, 74000, 76000, 78000,
].map((level) => ({ cmpType: "hit", refPrices: [level] }));

const threads = new InsightThreads(1);

/** A copy of `values` in a SharedArrayBuffer (as `ensembleOf` with `shared` pools them). */
function sharedCopy(values: Float64Array): Float64Array {
  const copy = new Float64Array(new SharedArrayBuffer(values.byteLength));
  copy.set(values);
  return copy;
}

/** A fresh Ensemble over already pooled, re-based values (no copy; no cached step-major copy). */
function wrap(values: Float64Array, startTime: number, rebasedTo: number): Ensemble {
  const members = Array.from({ length: MINERS }, (_, index) => ({
    minerUid: index,
    offset: index * PATHS_PER_MINER,
    count: PATHS_PER_MINER,
  }));
  return new Ensemble(
    { asset: "BTC", startTime, timeIncrement: TIME_INCREMENT, nPoints: POINTS },
    values,
    members,
    rebasedTo,
    "additive",
  );
}

export const suite = defineSuite({
  name: "insights",
  cases: (data) => {
    // The bench paths all start at 68,000 = the current price: re-basing changes no value.
    const current = data.pooled;
    const previous = Float64Array.from(
      data.pooled,
      (price) => price - CURRENT_PRICE + PREVIOUS_PRICE,
    );
    const contextOf = (previousEnsemble: InsightSession, startUnix: number): InsightContext => ({
      asset: "BTC",
      horizon: "24h",
      currentPrice: CURRENT_PRICE,
      forecastStartTime: new Date(startUnix * 1000).toISOString(),
      minuteClose,
      previous: { ensemble: previousEnsemble, currentPrice: PREVIOUS_PRICE },
      startPrice: 67900,
    });
    const currentShared = sharedCopy(current);
    const previousShared = sharedCopy(previous);
    const fresh = (shared = false, startUnix = START_UNIX) => {
      const ensemble = wrap(shared ? currentShared : current, startUnix, CURRENT_PRICE);
      const previousEnsemble = wrap(
        shared ? previousShared : previous,
        startUnix - 86400,
        PREVIOUS_PRICE,
      );
      const context = contextOf(
        new InsightSession(previousEnsemble, { currentPrice: PREVIOUS_PRICE }),
        startUnix,
      );
      return { session: new InsightSession(ensemble, context), context };
    };
    // The records that read no worker part of `InsightThreads`, and those that do.
    const ownRecords = (session: InsightSession, context: InsightContext) => [
      liquidationInsight(session, context),
      lpBoundsInsight(session, context),
      lpProbabilitiesInsight(session, context),
      optionPricingInsight(session, context),
      upDownModelSide(session, context, "daily"),
      rangeModelSides(session, { ...context, rangeMarkets: RANGE_MARKETS }),
      rangeModelSides(session, { ...context, rangeMarkets: ABOVE_MARKETS }),
      rangeModelSides(session, { ...context, rangeMarkets: HIT_MARKETS }),
      venueBModelSides(session, context, "daily"),
    ];
    const workerPartRecords = (session: InsightSession, context: InsightContext) => [
      predictionPercentilesInsight(session, context),
      volatilityInsight(session, context),
      volatilityPercentilesInsight(session, context),
    ];
    const records = (session: InsightSession, context: InsightContext) => [
      ...workerPartRecords(session, context),
      ...ownRecords(session, context),
    ];
    const fullSet = (startUnix = START_UNIX) => {
      const { session, context } = fresh(false, startUnix);
      // The per-path intermediates of the whole set in one pass: the running extremes of every
      // window it reads (liquidation 6/12/18/24 h, the daily event's end for hits), the LP
      // bounds' counts and the block returns.
      prepareRecords(session, { ...context, rangeMarkets: HIT_MARKETS }, RECOMPUTABLE_PATHS);
      return records(session, context);
    };
    const threadsSet = async () => {
      const { session, context } = fresh(true);
      const hits = { ...context, rangeMarkets: HIT_MARKETS };
      // The records that need no worker part are computed while the worker finishes.
      let own: unknown[] = [];
      await threads.prepareRecords(session, hits, RECOMPUTABLE_PATHS, () => {
        own = ownRecords(session, context);
      });
      return [...workerPartRecords(session, context), ...own];
    };
    const one = (compute: (session: InsightSession, context: InsightContext) => unknown) => () => {
      const { session, context } = fresh();
      return compute(session, context);
    };
    const size = `${MINERS * PATHS_PER_MINER} × ${POINTS}`;
    const cases: BenchCase[] = [
      {
        name: "full insight set of one asset (7 records + daily venue model sides)",
        size,
        pathlab: () => fullSet(),
        peer: { script: "insights", case: "full_set" },
        targetMs: 40,
      },
      {
        name: "  same set, a start 7 minutes past the quarter hour (the network's cadence)",
        size,
        pathlab: () => fullSet(START_UNIX + 420),
        note: "volatility points of unequal length",
      },
      {
        name: "  same set, InsightThreads: 1 worker thread beside this one",
        size,
        pathlab: threadsSet,
        peer: { script: "insights", case: "full_set" },
        targetMs: 40,
      },
      {
        name: "  variant: the same set without prepareRecords (a pass per intermediate)",
        size,
        pathlab: one(records),
        note: "not used",
      },
      {
        name: "  liquidation (20 levels × 4 windows)",
        size,
        pathlab: one(liquidationInsight),
        peer: { script: "insights", case: "liquidation" },
        note: "part of the set",
      },
      {
        name: "  LP bounds (16 widths)",
        size,
        pathlab: one(lpBoundsInsight),
        peer: { script: "insights", case: "lp_bounds" },
        note: "part of the set",
      },
      {
        name: "  prediction percentiles (9 × 289, with SEs)",
        size,
        pathlab: one(predictionPercentilesInsight),
        peer: { script: "insights", case: "prediction_percentiles" },
        note: "part of the set",
      },
      {
        name: "  volatility (realized, past, future)",
        size,
        pathlab: one(volatilityInsight),
        peer: { script: "insights", case: "volatility" },
        note: "part of the set",
      },
      {
        name: "  volatility, a start 7 minutes past the quarter hour (points of unequal length)",
        size,
        pathlab: () => {
          const { session, context } = fresh(false, START_UNIX + 420);
          return volatilityInsight(session, context);
        },
        peer: { script: "insights", case: "volatility_inside_block" },
        note: "the network's cadence",
      },
      {
        name: "  volatility percentiles (past, future)",
        size,
        pathlab: one(volatilityPercentilesInsight),
        peer: { script: "insights", case: "volatility_percentiles" },
        note: "part of the set",
      },
      {
        name: "  LP probabilities, options, venue model sides",
        size,
        pathlab: one((session, context) => [
          lpProbabilitiesInsight(session, context),
          optionPricingInsight(session, context),
          upDownModelSide(session, context, "daily"),
          rangeModelSides(session, { ...context, rangeMarkets: RANGE_MARKETS }),
          rangeModelSides(session, { ...context, rangeMarkets: ABOVE_MARKETS }),
          rangeModelSides(session, { ...context, rangeMarkets: HIT_MARKETS }),
          venueBModelSides(session, context, "daily"),
        ]),
        peer: { script: "insights", case: "terminal_and_venues" },
        note: "part of the set",
      },
    ];
    return cases;
  },
});
