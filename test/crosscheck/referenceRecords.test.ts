/**
 * The fast recomputation (src/insights, on src/core) against the sandbox's record builders
 * (src/sandbox/insights, on src/reference): the same ensemble gives every field `exact`; one miner
 * swapped gives `within-mc` and never `mismatch`; a service reporting hours or re-basing
 * multiplicatively is diagnosed. In process, without HTTP (the HTTP tests are in sandboxHttp.test.ts).
 */

import { beforeAll, describe, expect, it } from "vitest";
import { crossCheck } from "../../src/crosscheck/crossCheck.ts";
import type { InsightContext } from "../../src/insights/context.ts";
import { contextFromServiceRecord } from "../../src/insights/contextFromServiceRecord.ts";
import {
  recompute,
  RECOMPUTABLE_PATHS,
  type RecomputablePath,
} from "../../src/insights/recompute.ts";
import { ensembleOf, type Ensemble } from "../../src/paths/ensemble.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { buildInsightResponse } from "../../src/sandbox/insights/buildInsightResponse.ts";
import type { SandboxInsightInputs } from "../../src/sandbox/insights/inputs.ts";
import { gbmPathSets, isoOf, START_UNIX, syntheticMinuteClose } from "../insights/gbmEnsembles.ts";

const HORIZON_SECONDS = { "24h": 86400, "1h": 3600 } as const;

/** The paths of path sets as the sandbox takes them: `paths[p][t]`, miner after miner. */
function rowsOf(pathSets: readonly PathSet[]): number[][] {
  const rows: number[][] = [];
  for (const pathSet of pathSets) {
    for (let path = 0; path < pathSet.nPaths; path++) {
      rows.push(
        Array.from(pathSet.values.subarray(path * pathSet.nPoints, (path + 1) * pathSet.nPoints)),
      );
    }
  }
  return rows;
}

/** One world: current and previous path sets, a minute market, the sandbox inputs. */
interface World {
  readonly horizon: "24h" | "1h";
  readonly pathSets: PathSet[];
  readonly previousPathSets: PathSet[];
  readonly inputs: Omit<SandboxInsightInputs, "operationPath">;
}

function worldOf(horizon: "24h" | "1h", seed: number): World {
  const asset = "ETH";
  const base = 2500;
  const minuteClose = syntheticMinuteClose(base);
  // The last close at or before a time (no missing minute is two in a row).
  const priceAt = (unix: number): number => {
    const minute = Math.floor(unix / 60) * 60;
    const close = minuteClose(minute);
    return Number.isFinite(close) ? close : minuteClose(minute - 60);
  };
  const forecastStartUnix = START_UNIX;
  const nowUnix = forecastStartUnix + 137;
  const options = {
    startPrice: 2497.5,
    annualVolatility: 0.7,
    horizon,
    asset,
    members: 10,
    pathsPerMember: 200,
  };
  const pathSets = gbmPathSets({ ...options, seed, startUnix: forecastStartUnix });
  const previousPathSets = gbmPathSets({
    ...options,
    seed: seed + 1,
    startUnix: forecastStartUnix - HORIZON_SECONDS[horizon],
  });
  return {
    horizon,
    pathSets,
    previousPathSets,
    inputs: {
      asset,
      horizon,
      nowUnix,
      currentPrice: priceAt(nowUnix),
      forecastStartUnix,
      timeIncrement: horizon === "24h" ? 300 : 60,
      minerUids: pathSets.map((pathSet) => pathSet.minerUid),
      paths: rowsOf(pathSets),
      previousPaths: rowsOf(previousPathSets),
      minuteClose,
      priceAt,
      seed: 11,
    },
  };
}

/** The recomputation's context for a service record of `world` (its grids and markets included). */
function contextFor(
  world: World,
  path: RecomputablePath,
  serviceRecord: unknown,
  previous: Ensemble,
): InsightContext {
  const { inputs } = world;
  return {
    asset: inputs.asset,
    horizon: world.horizon,
    currentPrice: inputs.currentPrice,
    forecastStartTime: isoOf(inputs.forecastStartUnix),
    now: isoOf(inputs.nowUnix),
    minuteClose: inputs.minuteClose,
    priceAt: inputs.priceAt,
    previous: {
      ensemble: previous,
      currentPrice: inputs.priceAt(inputs.forecastStartUnix - HORIZON_SECONDS[world.horizon]),
    },
    ...contextFromServiceRecord(path, serviceRecord),
  };
}

/** Which operations a horizon's ensemble serves (the venue windows priced by it). */
function pathsOf(horizon: "24h" | "1h"): RecomputablePath[] {
  const oneHour = ["hourly", "15min", "5min"];
  return RECOMPUTABLE_PATHS.filter((path) => {
    const intraday = oneHour.some((window) => path.endsWith(`/${window}`));
    return horizon === "1h" ? intraday || !path.includes("/venue") : !intraday;
  });
}

for (const horizon of ["24h", "1h"] as const) {
  describe(`cross-check of the recomputation against the reference-based sandbox records (${horizon})`, () => {
    let world: World;
    let ensemble: Ensemble;
    let previous: Ensemble;

    beforeAll(() => {
      world = worldOf(horizon, horizon === "24h" ? 31 : 32);
      ensemble = ensembleOf(world.pathSets);
      previous = ensembleOf(world.previousPathSets);
    });

    it("crossCheck finds every field exact when the ensemble is the same", () => {
      for (const path of pathsOf(horizon)) {
        const service = buildInsightResponse({ ...world.inputs, operationPath: path });
        const context = contextFor(world, path, service, previous);
        const { record, standardErrors } = recompute(path, ensemble, context);
        const check = crossCheck(path, service, record, {
          nPaths: ensemble.nPaths,
          standardErrors,
        });
        const notExact = check.rows.filter((row) => row.verdict !== "exact");
        expect(notExact, `${path}: ${JSON.stringify(notExact.slice(0, 3))}`).toEqual([]);
        expect(check.rows.length, path).toBeGreaterThan(0);
        expect(check.summary.verdict).toBe("exact");
        expect(check.diagnoses).toEqual([]);
      }
    });

    it("crossCheck moves to within-mc, never mismatch, when one miner of the ensemble is swapped", () => {
      const swapped = gbmPathSets({
        seed: 999,
        startPrice: 2497.5,
        annualVolatility: 0.7,
        horizon,
        asset: "ETH",
        members: 1,
        pathsPerMember: 200,
      });
      const swappedEnsemble = ensembleOf([swapped[0], ...world.pathSets.slice(1)]);
      let withinMonteCarlo = 0;
      for (const path of pathsOf(horizon)) {
        const service = buildInsightResponse({ ...world.inputs, operationPath: path });
        const context = contextFor(world, path, service, previous);
        const { record, standardErrors } = recompute(path, swappedEnsemble, context);
        const check = crossCheck(path, service, record, {
          nPaths: ensemble.nPaths,
          standardErrors,
        });
        const bad = check.rows.filter(
          (row) => row.verdict === "mismatch" || row.verdict === "missing",
        );
        expect(bad, `${path}: ${JSON.stringify(bad.slice(0, 3))}`).toEqual([]);
        withinMonteCarlo += check.summary.counts["within-mc"];
        if (check.summary.counts["within-mc"] > 0) {
          expect(check.diagnoses.map((diagnosis) => diagnosis.kind)).toContain("ensemble");
        }
      }
      expect(withinMonteCarlo).toBeGreaterThan(100);
    });
  });
}

describe("diagnosis of a sandbox service in another mode", () => {
  let world: World;
  let ensemble: Ensemble;
  let previous: Ensemble;

  beforeAll(() => {
    world = worldOf("24h", 41);
    ensemble = ensembleOf(world.pathSets);
    previous = ensembleOf(world.previousPathSets);
  });

  it("crossCheck diagnoses a service reporting expected_time_in_interval in hours as a unit ratio of 1/60", () => {
    const path = "/insights/lp-bounds";
    const service = buildInsightResponse({
      ...world.inputs,
      operationPath: path,
      options: { timeInIntervalUnit: "hours" },
    });
    const { record, standardErrors } = recompute(
      path,
      ensemble,
      contextFor(world, path, service, previous),
    );
    const check = crossCheck(path, service, record, { nPaths: ensemble.nPaths, standardErrors });
    expect(check.summary.counts.mismatch).toBeGreaterThan(10);
    const unit = check.diagnoses.find((diagnosis) => diagnosis.kind === "unit");
    expect(unit?.field).toBe("data[].expected_time_in_interval");
    expect(unit?.value).toBeCloseTo(1 / 60, 12);
    expect(unit?.message).toContain("hours where pathlab reports minutes");
  });

  it("crossCheck diagnoses a service re-basing multiplicatively as a scaling re-base on prediction percentiles", () => {
    const path = "/insights/prediction-percentiles";
    const service = buildInsightResponse({
      ...world.inputs,
      operationPath: path,
      options: { rebase: "multiplicative" },
    });
    const { record, standardErrors } = recompute(
      path,
      ensemble,
      contextFor(world, path, service, previous),
    );
    const check = crossCheck(path, service, record, { nPaths: ensemble.nPaths, standardErrors });
    expect(check.summary.counts.exact).toBeLessThan(check.rows.length);
    const rebase = check.diagnoses.find((diagnosis) => diagnosis.kind === "rebase");
    expect(rebase?.field).toBe("forecast_future.percentiles[]{}");
    // Multiplicative p·c/p₀ against additive p − p₀ + c: slope c/p₀ with p₀ = 2497.5.
    expect(rebase?.value).toBeCloseTo(world.inputs.currentPrice / 2497.5, 4);
  });
});
