import { MessagePort } from "node:worker_threads";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  absoluteScaledQuantiles,
  blockVolatilitiesOf,
} from "../../src/insights/blockReturnStatistics.ts";
import type { InsightContext } from "../../src/insights/context.ts";
import { InsightThreads } from "../../src/insights/insightThreads.ts";
import { runInsightTask } from "../../src/insights/insightTasks.ts";
import { prepareRecords } from "../../src/insights/prepareRecords.ts";
import { recompute, RECOMPUTABLE_PATHS } from "../../src/insights/recompute.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { Ensemble, ensembleOf } from "../../src/paths/ensemble.ts";
import { annualizeVolatility } from "../../src/domain/insightConventions.ts";
import { ensembleWithContext, gbmPathSets } from "./gbmEnsembles.ts";

/** Every recomputable record of a fresh session (and a fresh previous session) of the same seed. */
async function everyRecord(
  horizon: "24h" | "1h",
  seed: number,
  prepare: (ready: Prepared) => void | Promise<void>,
) {
  const { ensemble, context } = ensembleWithContext(horizon, seed);
  const session = new InsightSession(ensemble, context);
  await prepare({ session, context });
  return RECOMPUTABLE_PATHS.map((path) => recompute(path, session, context));
}

interface Prepared {
  readonly session: InsightSession;
  readonly context: InsightContext;
}

/** A copy of an ensemble whose values live in a SharedArrayBuffer. */
function sharedEnsemble(ensemble: Ensemble): Ensemble {
  const values = new Float64Array(new SharedArrayBuffer(ensemble.values.byteLength));
  values.set(ensemble.values);
  return new Ensemble(ensemble, values, ensemble.members, ensemble.rebasedTo, ensemble.rebase);
}

describe("InsightThreads", () => {
  const threads = new InsightThreads(1);
  afterAll(() => threads.close());

  for (const horizon of ["24h", "1h"] as const) {
    it(`prepared on a worker thread, every record equals the one-thread record, number for number (${horizon})`, async () => {
      const seed = horizon === "24h" ? 71 : 73;
      const expected = await everyRecord(horizon, seed, () => {});
      const { ensemble, context } = ensembleWithContext(horizon, seed);
      const session = new InsightSession(ensemble, context);
      const previous = context.previous!.ensemble as InsightSession;
      const adopted = vi.spyOn(session, "adopt");
      const adoptedPast = vi.spyOn(previous, "adopt");
      await threads.prepareRecords(session, context, RECOMPUTABLE_PATHS);
      // The worker's parts reached both sessions: the step percentiles, and the previous
      // prompt's block returns and block percentiles, with their volatilities when they are the
      // volatility record's points: the 24h prompts start on a quarter hour; the 1h prompts on an
      // odd minute, inside a 2-minute clock block, whose points the record computes itself.
      expect(adopted.mock.calls.map(([part]) => part.kind)).toEqual(["step-percentiles"]);
      expect(adoptedPast.mock.calls.map(([part]) => part.kind).sort()).toEqual(
        horizon === "24h"
          ? ["block-percentiles", "block-returns", "block-volatilities"]
          : ["block-percentiles", "block-returns"],
      );
      const records = RECOMPUTABLE_PATHS.map((path) => recompute(path, session, context));
      expect(records).toEqual(expected);
    });
  }

  it("reads shared paths in place, splits the current block percentiles, and gives the same records", async () => {
    const expected = await everyRecord("24h", 75, () => {});
    const records = await everyRecord("24h", 75, async ({ session, context }) => {
      const shared = new InsightSession(sharedEnsemble(session.ensemble), context);
      const previous = context.previous!.ensemble as InsightSession;
      const sharedPrevious = new InsightSession(sharedEnsemble(previous.ensemble), {
        currentPrice: previous.currentPrice,
      });
      const sharedContext = {
        ...context,
        previous: { ensemble: sharedPrevious, currentPrice: previous.currentPrice },
      };
      const adopted = vi.spyOn(shared, "adopt");
      await threads.prepareRecords(shared, sharedContext, RECOMPUTABLE_PATHS);
      // The previous session's block returns are the buffer the worker wrote into.
      expect(sharedPrevious.blockLogReturns(3).buffer).toBeInstanceOf(SharedArrayBuffer);
      // The pass wrote the current block returns into shared memory, and the block percentiles
      // were split: the worker's half and this thread's half, adopted as one part.
      expect(shared.blockLogReturns(3).buffer).toBeInstanceOf(SharedArrayBuffer);
      const kinds = adopted.mock.calls.map(([part]) => part.kind);
      expect(kinds).toEqual(["step-percentiles", "block-percentiles"]);
      const scale = annualizeVolatility(1, 15);
      expect(adopted.mock.calls[1][0]).toEqual({
        kind: "block-percentiles",
        blockSteps: 3,
        scale,
        estimates: session.blockPercentiles(3, scale),
      });
      for (const path of RECOMPUTABLE_PATHS) {
        expect(recompute(path, shared, sharedContext)).toEqual(recompute(path, session, context));
      }
    });
    expect(records).toEqual(expected);
  });

  it("over shared paths of a plain previous ensemble: half the current block percentiles go to the worker, and every record equals the one-thread record", async () => {
    const expected = await everyRecord("24h", 79, () => {});
    const { ensemble, context } = ensembleWithContext("24h", 79);
    const session = new InsightSession(sharedEnsemble(ensemble), context);
    const adopted = vi.spyOn(session, "adopt");
    await threads.prepareRecords(session, context, RECOMPUTABLE_PATHS);
    expect(adopted.mock.calls.map(([part]) => part.kind)).toEqual([
      "step-percentiles",
      "block-percentiles",
    ]);
    const records = RECOMPUTABLE_PATHS.map((path) => recompute(path, session, context));
    expect(records).toEqual(expected);
  });

  it("meanwhile runs on the calling thread before the wait; its records and the later ones equal the one-thread records", async () => {
    const expected = await everyRecord("24h", 85, () => {});
    const independent = RECOMPUTABLE_PATHS.filter(
      (path) =>
        path !== "/insights/prediction-percentiles" &&
        path !== "/insights/volatility" &&
        path !== "/insights/volatility-percentiles",
    );
    const { ensemble, context } = ensembleWithContext("24h", 85);
    const session = new InsightSession(ensemble, context);
    const early = new Map<string, unknown>();
    let calls = 0;
    await threads.prepareRecords(session, context, RECOMPUTABLE_PATHS, () => {
      calls += 1;
      for (const path of independent) early.set(path, recompute(path, session, context));
    });
    expect(calls).toBe(1);
    const records = RECOMPUTABLE_PATHS.map((path) =>
      early.has(path) ? early.get(path) : recompute(path, session, context),
    );
    expect(records).toEqual(expected);
    const failing = new Error("meanwhile failed");
    await expect(
      threads.prepareRecords(
        new InsightSession(ensembleWithContext("24h", 85).ensemble, context),
        context,
        RECOMPUTABLE_PATHS,
        () => {
          throw failing;
        },
      ),
    ).rejects.toBe(failing);
  });

  it("a set with no worker part is prepared on the calling thread alone, meanwhile included", async () => {
    // No prediction percentiles, and a plain previous ensemble: nothing for a worker.
    const paths = RECOMPUTABLE_PATHS.filter((path) => path !== "/insights/prediction-percentiles");
    const recordsOf = async (
      prepare: (session: InsightSession, context: InsightContext) => unknown,
    ) => {
      const { ensemble, context } = ensembleWithContext("1h", 77);
      const { ensemble: previous, currentPrice } = context.previous!;
      const plainPrevious = { ensemble: (previous as InsightSession).ensemble, currentPrice };
      const plain = { ...context, previous: plainPrevious };
      const session = new InsightSession(ensemble, plain);
      await prepare(session, plain);
      return paths.map((path) => recompute(path, session, plain));
    };
    const expected = await recordsOf(() => {});
    const posted = vi.spyOn(MessagePort.prototype, "postMessage");
    let calls = 0;
    try {
      const records = await recordsOf((session, context) =>
        threads.prepareRecords(session, context, paths, () => (calls += 1)),
      );
      expect(records).toEqual(expected);
      // No task was posted to a thread (piscina posts `{ task, taskId, … }`).
      const tasks = posted.mock.calls.filter(
        ([message]) => typeof message === "object" && message !== null && "task" in message,
      );
      expect(tasks).toEqual([]);
    } finally {
      posted.mockRestore();
    }
    expect(calls).toBe(1);
  });

  it("a context that does not fit rejects as prepareRecords throws; misuse gets a specific error", async () => {
    const { ensemble, context } = ensembleWithContext("24h", 79);
    const session = new InsightSession(ensemble, context);
    const wrong = { ...context, forecastStartTime: "not a time" };
    let expected: unknown;
    try {
      prepareRecords(session, wrong, RECOMPUTABLE_PATHS);
    } catch (error) {
      expected = error;
    }
    expect(expected).toBeInstanceOf(RangeError);
    await expect(threads.prepareRecords(session, wrong, RECOMPUTABLE_PATHS)).rejects.toThrow(
      (expected as Error).message,
    );

    const closed = new InsightThreads(1);
    await closed.close();
    await closed.close();
    await expect(closed.prepareRecords(session, context, RECOMPUTABLE_PATHS)).rejects.toThrow(
      "InsightThreads.prepareRecords requires open threads; they are closed",
    );
    expect(() => new InsightThreads(-1)).toThrow(
      "InsightThreads requires a whole number of threads ≥ 1, got -1",
    );
  });
});

describe("runInsightTask and InsightSession.adopt", () => {
  it("a task's parts equal what the session computes itself", () => {
    const { ensemble, context } = ensembleWithContext("24h", 81);
    const session = new InsightSession(ensemble, context);
    const { values, nPaths, nPoints } = session.ensemble;
    const [steps] = runInsightTask({ kind: "step-percentiles", values, nPaths, nPoints });
    expect(steps).toEqual({ kind: "step-percentiles", estimates: session.stepPercentiles() });

    const scale = annualizeVolatility(1, 15);
    const returns = new Float64Array(96 * nPaths);
    const parts = runInsightTask({
      kind: "block-returns",
      values,
      nPaths,
      nPoints,
      blockSteps: 3,
      returns,
      percentiles: true,
      scale,
      volatilities: true,
      blockMinutes: 15,
    });
    expect(returns).toEqual(session.blockLogReturns(3));
    expect(parts).toEqual([
      {
        kind: "block-volatilities",
        blockSteps: 3,
        blockMinutes: 15,
        volatilities: blockVolatilitiesOf(returns, nPaths, 15),
      },
      {
        kind: "block-percentiles",
        blockSteps: 3,
        scale,
        estimates: absoluteScaledQuantiles(returns, nPaths, scale),
      },
    ]);
    expect(session.blockVolatilities(3, 15)).toEqual(blockVolatilitiesOf(returns, nPaths, 15));
    // Percentiles of block returns computed elsewhere, here of blocks 10 … 19.
    const some = returns.subarray(10 * nPaths, 20 * nPaths);
    expect(
      runInsightTask({ kind: "block-percentiles", returns: some, nPaths, blockSteps: 3, scale }),
    ).toEqual([
      {
        kind: "block-percentiles",
        blockSteps: 3,
        scale,
        estimates: absoluteScaledQuantiles(some, nPaths, scale),
      },
    ]);
    expect(session.blockPercentiles(3, scale)).toEqual(
      parts[1].kind === "block-percentiles" && parts[1].estimates,
    );
  });

  it("adopted parts are what the session then reads; parts of the wrong size are refused", () => {
    const { ensemble, context } = ensembleWithContext("1h", 83);
    const session = new InsightSession(ensemble, context);
    const returns = new Float64Array(30 * session.nPaths).fill(0.001);
    session.adopt({ kind: "block-returns", blockSteps: 2, returns });
    expect(session.blockLogReturns(2)).toBe(returns);
    expect(() =>
      session.adopt({ kind: "block-returns", blockSteps: 2, returns: new Float64Array(5) }),
    ).toThrow(
      `InsightSession.adopt requires block-returns of ${30 * session.nPaths} numbers for this session, got 5`,
    );
    const volatilities = { values: new Float64Array(30), standardErrors: new Float64Array(30) };
    session.adopt({ kind: "block-volatilities", blockSteps: 2, blockMinutes: 2, volatilities });
    expect(session.blockVolatilities(2, 2)).toBe(volatilities);
    expect(() =>
      session.adopt({
        kind: "block-volatilities",
        blockSteps: 2,
        blockMinutes: 2,
        volatilities: { values: new Float64Array(30), standardErrors: new Float64Array(3) },
      }),
    ).toThrow(
      "InsightSession.adopt requires block-volatilities of 30 numbers for this session, got 3",
    );
    const estimates = { values: new Float64Array(9), standardErrors: new Float64Array(9) };
    expect(() => session.adopt({ kind: "step-percentiles", estimates })).toThrow(
      "InsightSession.adopt requires step-percentiles of 549 numbers for this session, got 9",
    );
    expect(() =>
      runInsightTask({ kind: "step-percentiles", values: returns, nPaths: 7, nPoints: 61 }),
    ).toThrow(
      `runInsightTask (step-percentiles) requires values of nPaths × nPoints numbers, got ${returns.length} for 7 × 61`,
    );
    expect(() =>
      runInsightTask({ kind: "block-percentiles", returns, nPaths: 7, blockSteps: 2, scale: 1 }),
    ).toThrow(
      `runInsightTask (block-percentiles) requires whole blocks of nPaths ≥ 1 returns, got ${returns.length} returns for 7 paths`,
    );
  });

  it("ensembleOf pools into a SharedArrayBuffer on request, and a session keeps it shared", () => {
    const pathSets = gbmPathSets({
      startPrice: 100,
      annualVolatility: 0.5,
      horizon: "1h",
      members: 2,
      pathsPerMember: 20,
      seed: 85,
    });
    const shared = ensembleOf(pathSets, { shared: true });
    const plain = ensembleOf(pathSets);
    expect(shared.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(plain.values.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(shared.values).toEqual(plain.values);
    const session = new InsightSession(shared, { currentPrice: 101 });
    expect(session.ensemble.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(session.ensemble.values).toEqual(
      new InsightSession(plain, { currentPrice: 101 }).ensemble.values,
    );
  });
});
