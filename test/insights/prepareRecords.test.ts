import { describe, expect, it } from "vitest";
import { stepQuantiles } from "../../src/core/quantiles.ts";
import { transpose } from "../../src/core/transpose.ts";
import { prepareRecords } from "../../src/insights/prepareRecords.ts";
import {
  columnQuantilesWithErrors,
  stepQuantilesWithErrors,
} from "../../src/insights/quantileErrors.ts";
import { recompute, RECOMPUTABLE_PATHS } from "../../src/insights/recompute.ts";
import { standardErrorKey, standardErrorKeyGrid } from "../../src/insights/result.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { PERCENTILE_KEYS } from "../../src/domain/records/percentiles.ts";
import { ensembleWithContext, gbmEnsemble } from "./gbmEnsembles.ts";

describe("prepareRecords", () => {
  for (const [horizon, seed] of [
    ["24h", 41],
    ["1h", 43],
  ] as const) {
    it(`prepareRecords then recompute gives every record of a ${horizon} ensemble exactly as a session that was not prepared`, () => {
      const { ensemble, context } = ensembleWithContext(horizon, seed);
      const prepared = new InsightSession(ensemble, context);
      prepareRecords(prepared, context, RECOMPUTABLE_PATHS);
      for (const operationPath of RECOMPUTABLE_PATHS) {
        const alone = new InsightSession(ensemble, context);
        expect(recompute(operationPath, prepared, context), operationPath).toEqual(
          recompute(operationPath, alone, context),
        );
      }
    });
  }

  it("after prepareRecords, the records reuse the session's running extremes (liquidation windows, the hits' event end) and block returns, the same arrays", () => {
    const { ensemble, context } = ensembleWithContext("24h", 45);
    const session = new InsightSession(ensemble, context);
    prepareRecords(session, context, RECOMPUTABLE_PATHS);
    // now = 05:45 UTC: the daily event ends at 17:00, step 207; liquidation ends at 72…288.
    const kept = [72, 144, 207, 216, 288].map((step) => session.extremesAt(step));
    const returns = session.blockLogReturns(3);
    recompute("/insights/liquidation", session, context);
    recompute("/insights/venuea/hit/daily", session, context);
    recompute("/insights/volatility", session, context);
    [72, 144, 207, 216, 288].forEach((step, index) =>
      expect(session.extremesAt(step)).toBe(kept[index]),
    );
    expect(session.blockLogReturns(3)).toBe(returns);
    const alone = new InsightSession(ensemble, context);
    expect(returns).toEqual(alone.blockLogReturns(3));
    expect(kept[2]).toEqual(alone.extremesAt(207));
  });

  it("InsightSession.prepare refuses a step or a block size outside the ensemble", () => {
    const { ensemble, context } = ensembleWithContext("1h", 47);
    const session = new InsightSession(ensemble, context);
    expect(() => session.prepare({ extremeSteps: [61] })).toThrow(
      "InsightSession.prepare requires an integer step in [0, 60], got 61",
    );
    expect(() => session.prepare({ blockSteps: 0 })).toThrow(
      "InsightSession.prepare requires an integer blockSteps in [1, 60], got 0",
    );
  });
});

describe("shared buffers and caches of the records", () => {
  it("InsightSession.withStepMajor gives the step-major paths without keeping them, nested calls included", () => {
    const small = gbmEnsemble({
      seed: 51,
      startPrice: 100,
      annualVolatility: 0.5,
      horizon: "1h",
      members: 1,
      pathsPerMember: 30,
    });
    const large = gbmEnsemble({
      seed: 52,
      startPrice: 100,
      annualVolatility: 0.5,
      horizon: "24h",
      members: 1,
      pathsPerMember: 50,
    });
    for (const ensemble of [small, large, small]) {
      const session = new InsightSession(ensemble, { currentPrice: 100 });
      const expected = transpose(session.ensemble.values, session.nPaths, session.nPoints);
      const copied = session.withStepMajor((outer) => {
        const inner = session.withStepMajor((nested) => Float64Array.from(nested));
        expect(inner).toEqual(expected);
        return Float64Array.from(outer);
      });
      expect(copied).toEqual(expected);
      expect(session.withStepMajor((stepMajor) => stepMajor.length)).toBe(expected.length);
    }
  });

  it("columnQuantilesWithErrors equals stepQuantilesWithErrors on the whole matrix, value for value", () => {
    const ensemble = gbmEnsemble({
      seed: 53,
      startPrice: 100,
      annualVolatility: 0.5,
      horizon: "1h",
      members: 1,
      pathsPerMember: 300,
    });
    const { values, nPaths, nPoints } = ensemble;
    const stepMajor = transpose(values, nPaths, nPoints);
    const probabilities = [0.005, 0.2, 0.5, 0.95];
    for (const nSteps of [1, 8, 13, nPoints]) {
      const whole = stepMajor.subarray(0, nSteps * nPaths);
      const filled = columnQuantilesWithErrors(nPaths, nSteps, probabilities, (first, count, out) =>
        out.set(whole.subarray(first * nPaths, (first + count) * nPaths)),
      );
      expect(filled).toEqual(stepQuantilesWithErrors(whole, nPaths, nSteps, probabilities));
    }
    const medians = stepQuantilesWithErrors(stepMajor, nPaths, nPoints, [0.5]).values;
    expect(medians).toEqual(stepQuantiles(stepMajor, nPaths, nPoints, { probabilities: [0.5] }));
  });

  it("standardErrorKeyGrid gives standardErrorKey of every row and column, the same array each time", () => {
    const grid = standardErrorKeyGrid(["forecast_past", "percentiles"], 3, PERCENTILE_KEYS);
    expect(grid).toHaveLength(27);
    expect(grid[9 + 4]).toBe(standardErrorKey(["forecast_past", "percentiles", 1, "0.5"]));
    expect(grid[26]).toBe('forecast_past.percentiles[2]["0.995"]');
    expect(standardErrorKeyGrid(["forecast_past", "percentiles"], 3, PERCENTILE_KEYS)).toBe(grid);
  });

  it("InsightSession.sortedPricesAt equals the typed-array sort of the column, for 10,000 paths", () => {
    const ensemble = gbmEnsemble({
      seed: 54,
      startPrice: 2000,
      annualVolatility: 0.8,
      horizon: "1h",
      members: 2,
      pathsPerMember: 5000,
    });
    const session = new InsightSession(ensemble, { currentPrice: 2000 });
    const { values, nPaths, nPoints } = session.ensemble;
    for (const step of [1, 30, nPoints - 1]) {
      const column = Float64Array.from(
        { length: nPaths },
        (_, path) => values[path * nPoints + step],
      );
      expect(session.sortedPricesAt(step)).toEqual(column.sort());
    }
  });
});
