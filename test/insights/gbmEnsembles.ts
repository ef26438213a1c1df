/**
 * Test ensembles for the insight functions: seeded GBM path sets pooled into an `Ensemble` (paths
 * exact on the grid, `src/reference/gbm.ts`), a smooth synthetic minute market for the realized
 * part, and the closed forms of GBM the tests compare against.
 */

import type { InsightContext } from "../../src/insights/context.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { ensembleOf, type Ensemble, type RebaseMode } from "../../src/paths/ensemble.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";
import { normalCdf } from "../reference/closedForms.ts";

/** 2026-02-25 23:45:00 UTC, a 5-minute boundary. */
export const START_UNIX = 1772063100;

/** Shape and law of a GBM test ensemble. */
export interface GbmEnsembleOptions {
  readonly seed: number;
  readonly startPrice: number;
  /** σ per √year, as a fraction. */
  readonly annualVolatility: number;
  readonly horizon: "24h" | "1h";
  readonly members?: number;
  readonly pathsPerMember?: number;
  readonly startUnix?: number;
  readonly asset?: string;
  /** Re-base the pooled ensemble to this price. */
  readonly rebaseTo?: number;
  readonly rebase?: RebaseMode;
}

/** The path sets of a GBM ensemble (members × pathsPerMember paths, 289 or 61 points). */
export function gbmPathSets(options: GbmEnsembleOptions): PathSet[] {
  const random = createRandom(options.seed);
  const stepMinutes = options.horizon === "24h" ? 5 : 1;
  const stepCount = options.horizon === "24h" ? 288 : 60;
  const members = options.members ?? 10;
  const pathsPerMember = options.pathsPerMember ?? 1000;
  return Array.from({ length: members }, (_, member) => {
    const rows = simulateGbmPaths(random, {
      startPrice: options.startPrice,
      annualVolatility: options.annualVolatility,
      stepMinutes,
      stepCount,
      pathCount: pathsPerMember,
    });
    const values = new Float64Array(pathsPerMember * (stepCount + 1));
    rows.forEach((row, path) => values.set(row, path * (stepCount + 1)));
    return {
      asset: options.asset ?? "BTC",
      minerUid: 100 + member,
      startTime: options.startUnix ?? START_UNIX,
      timeIncrement: stepMinutes * 60,
      nPaths: pathsPerMember,
      nPoints: stepCount + 1,
      values,
    };
  });
}

/** A pooled GBM ensemble. */
export function gbmEnsemble(options: GbmEnsembleOptions): Ensemble {
  return ensembleOf(gbmPathSets(options), { rebaseTo: options.rebaseTo, rebase: options.rebase });
}

/** ISO text of a unix time (`…Z`). */
export function isoOf(unix: number): string {
  return new Date(unix * 1000).toISOString();
}

/** Years of `minutes`. */
export function yearsOf(minutes: number): number {
  return minutes / 525600;
}

/**
 * P(S_T > k) for GBM without drift from S0 over T years: 1 − Φ((ln(k/S0) + σ²T/2)/(σ√T)).
 */
export function lognormalAbove(s0: number, sigma: number, years: number, k: number): number {
  const deviation = sigma * Math.sqrt(years);
  return 1 - normalCdf((Math.log(k / s0) + (deviation * deviation) / 2) / deviation);
}

/** Black–Scholes call and put with r = 0 (forward = spot). */
export function blackScholes(
  s0: number,
  strike: number,
  sigma: number,
  years: number,
): { call: number; put: number } {
  const deviation = sigma * Math.sqrt(years);
  const d1 = (Math.log(s0 / strike) + (deviation * deviation) / 2) / deviation;
  const d2 = d1 - deviation;
  const call = s0 * normalCdf(d1) - strike * normalCdf(d2);
  return { call, put: call - s0 + strike };
}

/**
 * Reflection principle with drift: X = ln(S/S0) is Brownian motion with drift ν = −σ²/2 (per year)
 * and volatility σ. P(min X over [0, T] ≤ −b) = Φ((−b − νT)/(σ√T)) + e^{−2νb/σ²}·Φ((−b + νT)/(σ√T))
 * for b > 0 (a long's liquidation at S0·e^{−b}); P(max X ≥ a) = Φ((−a + νT)/(σ√T)) +
 * e^{2νa/σ²}·Φ((−a − νT)/(σ√T)) for a > 0 (a short's).
 */
export function firstPassage(s0: number, level: number, sigma: number, years: number): number {
  const drift = (-sigma * sigma) / 2;
  const deviation = sigma * Math.sqrt(years);
  const distance = Math.log(level / s0);
  if (distance < 0) {
    const b = -distance;
    return (
      normalCdf((-b - drift * years) / deviation) +
      Math.exp((-2 * drift * b) / (sigma * sigma)) * normalCdf((-b + drift * years) / deviation)
    );
  }
  const a = distance;
  return (
    normalCdf((-a + drift * years) / deviation) +
    Math.exp((2 * drift * a) / (sigma * sigma)) * normalCdf((-a - drift * years) / deviation)
  );
}

/**
 * A smooth synthetic 1-minute market: close(m) = base·exp(0.002·sin(m/420) + 0.0007·sin(m/37)),
 * with every 97th minute missing (NaN), for the realized part of the volatility records.
 */
export function syntheticMinuteClose(base: number): (minuteUnix: number) => number {
  return (minuteUnix) => {
    const minute = minuteUnix / 60;
    if (minute % 97 === 0) return NaN;
    return base * Math.exp(0.002 * Math.sin(minute / 420) + 0.0007 * Math.sin(minute / 37));
  };
}

/** A context that every recomputable path accepts, with hit, range, above and below markets. */
export function everyRecordContext(
  horizon: "24h" | "1h",
  previous: InsightSession,
): InsightContext {
  const horizonSeconds = horizon === "24h" ? 86400 : 3600;
  return {
    asset: "ETH",
    horizon,
    currentPrice: 2000,
    forecastStartTime: isoOf(START_UNIX),
    minuteClose: syntheticMinuteClose(2000),
    previous: { ensemble: previous, currentPrice: previous.currentPrice },
    startPrice: 1995,
    now: isoOf(START_UNIX + horizonSeconds / 4),
    rangeMarkets: [
      { cmpType: "range", refPrices: [1950, 2050], title: "[1950, 2050]" },
      { cmpType: "above", refPrices: [2060], title: ">2060" },
      { cmpType: "below", refPrices: [1940], title: "<1940" },
      { cmpType: "hit", refPrices: [2100], title: "2100" },
      { cmpType: "hit", refPrices: [1930], title: "1930" },
    ],
  };
}

/**
 * A 24h or 1h GBM ensemble (2 members × 600 paths) with a context every recomputable path accepts
 * (its previous prompt's session included).
 */
export function ensembleWithContext(horizon: "24h" | "1h", seed: number) {
  const horizonSeconds = horizon === "24h" ? 86400 : 3600;
  const shape = { startPrice: 1990, annualVolatility: 0.9, horizon, members: 2 } as const;
  const ensemble = gbmEnsemble({ ...shape, seed, pathsPerMember: 600 });
  const previousEnsemble = gbmEnsemble({
    ...shape,
    seed: seed + 1,
    pathsPerMember: 500,
    startUnix: START_UNIX - horizonSeconds,
  });
  const previous = new InsightSession(previousEnsemble, { currentPrice: 1985 });
  return { ensemble, context: everyRecordContext(horizon, previous) };
}
