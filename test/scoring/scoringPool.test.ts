import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it, vi } from "vitest";
import { allocateValues, type PathSet } from "../../src/paths/pathSet.ts";
import { promptCalibration } from "../../src/scoring/promptCalibration.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import type { MinerPromptScore } from "../../src/scoring/scoringCall.ts";
import { createScoringPool } from "../../src/scoring/scoringPool.ts";
import {
  minerPaths,
  pathSetOf,
  PROMPT_SHAPES,
  realizedOf,
  realizedPrices,
  type PromptKind,
} from "./prompts.ts";

const fixture = fileURLToPath(new URL("./fixtures/poolProcess.mjs", import.meta.url));
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** `count` miners of a prompt, one of them with a zero price (scored −1). */
function miners(kind: PromptKind, count: number, seed: number): PathSet[] {
  return Array.from({ length: count }, (_, miner) => {
    const paths = minerPaths(seed + miner, kind, 1000, 0.4 + 0.05 * miner);
    if (miner === 2) paths[10][20] = 0;
    return pathSetOf(paths, kind, 100 + miner);
  });
}

describe("ScoringPool", () => {
  const pool = createScoringPool({ threads: 2, synchronousBelow: 0 });
  afterAll(() => pool.close());

  for (const kind of ["24h", "1h"] as const) {
    it(`the worker pool gives the same numbers as the calling thread, with calibration (${kind})`, async () => {
      const last = PROMPT_SHAPES[kind].nPoints - 1;
      const pathSets = miners(kind, 7, kind === "24h" ? 400 : 500);
      const realized = realizedOf(realizedPrices(399, kind, [4, 5, last - 3]), kind);
      const target = { competition: kind === "24h" ? "crypto-24h" : "crypto-1h" } as const;
      for (const method of ["closed", "parity"] as const) {
        const pooled = await pool.scoreMiners(pathSets, realized, target, {
          method,
          calibration: true,
        });
        const synchronous = await createScoringPool({ threads: 0 }).scoreMiners(
          pathSets,
          realized,
          target,
          { method, calibration: true },
        );
        expect(pooled).toEqual(synchronous);
        pathSets.forEach((pathSet, index) => {
          const { minerUid, calibration, ...score } = pooled[index];
          expect(minerUid).toBe(pathSet.minerUid);
          expect(score).toEqual(scorePrompt(pathSet, realized, target, { method }));
          expect(calibration).toEqual(promptCalibration(pathSet, realized));
        });
        expect(pooled[2].crps).toBe(-1);
        expect(pooled[2].calibration).toBeUndefined();
        expect(pooled[0].crps).toBeGreaterThan(0);
      }
    });
  }

  it("the pool reads path sets in SharedArrayBuffers in place and never detaches the caller's arrays", async () => {
    const pathSets = miners("1h", 5, 600);
    const shared = pathSets.map((pathSet) => {
      const values = allocateValues(pathSet.values.length, true);
      values.set(pathSet.values);
      return { ...pathSet, values };
    });
    const realized = realizedOf(realizedPrices(599, "1h"), "1h");
    const posted = vi.spyOn(Worker.prototype, "postMessage");
    let fromShared: MinerPromptScore[];
    let fromCopies: MinerPromptScore[];
    try {
      fromShared = await pool.scoreMiners(shared, realized, { competition: "crypto-1h" });
      // Each worker got the caller's own array (the same memory, no staging copy).
      const sent = posted.mock.calls.map(
        ([message]) => (message as { values: Float64Array }).values,
      );
      expect(sent).toHaveLength(shared.length);
      for (const values of sent) {
        expect(shared.some((pathSet) => pathSet.values === values)).toBe(true);
      }
      posted.mockClear();
      fromCopies = await pool.scoreMiners(pathSets, realized, { competition: "crypto-1h" });
      // Ordinary arrays go through staging buffers in shared memory instead.
      for (const [message] of posted.mock.calls) {
        const { values } = message as { values: Float64Array };
        expect(values.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(pathSets.some((pathSet) => pathSet.values === values)).toBe(false);
      }
    } finally {
      posted.mockRestore();
    }
    expect(fromShared).toEqual(fromCopies);
    expect(pathSets.every((pathSet) => pathSet.values.length === 1000 * 61)).toBe(true);
    expect(fromShared.map((score) => score.minerUid)).toEqual([100, 101, 102, 103, 104]);
  });

  it("scoreMinersBlocking gives the same numbers as scoreMiners, once the workers are started", async () => {
    const pathSets = miners("24h", 6, 900);
    const realized = realizedOf(realizedPrices(899, "24h", [100]), "24h");
    const fresh = createScoringPool({ threads: 2, synchronousBelow: 0 });
    expect(() => fresh.scoreMinersBlocking(pathSets, realized, { competition: "low" })).toThrow(
      "ScoringPool.scoreMinersBlocking requires started workers: await pool.start() first",
    );
    await fresh.start();
    const options = { calibration: { ties: "mid-rank" } } as const;
    // An asynchronous call whose jobs are in flight when the blocking call starts: both finish.
    const pending = fresh.scoreMiners(pathSets, realized, { competition: "low" }, options);
    await new Promise((resolve) => setImmediate(resolve));
    const blocking = fresh.scoreMinersBlocking(pathSets, realized, { competition: "low" }, options);
    expect(await pending).toEqual(blocking);
    expect(blocking.map((score) => score.minerUid)).toEqual([100, 101, 102, 103, 104, 105]);
    expect(blocking[2].invalidReason).toBe("zero price encountered in simulation runs");
    await fresh.close();
  });

  it("a blocking call scores queued miners on the calling thread too (callerScores), with the same numbers", async () => {
    const pathSets = miners("24h", 6, 950);
    const realized = realizedOf(realizedPrices(949, "24h", [7]), "24h");
    const target = { competition: "crypto-24h" } as const;
    const expected = await createScoringPool({ threads: 0 }).scoreMiners(
      pathSets,
      realized,
      target,
    );
    const posted = vi.spyOn(Worker.prototype, "postMessage");
    try {
      for (const callerScores of [true, false]) {
        const single = createScoringPool({ threads: 1, synchronousBelow: 0, callerScores });
        expect(single.callerScores).toBe(callerScores);
        await single.start();
        posted.mockClear();
        expect(single.scoreMinersBlocking(pathSets, realized, target)).toEqual(expected);
        // Jobs sent to the worker: all six without help; with help the calling thread took some.
        if (callerScores) expect(posted.mock.calls.length).toBeLessThan(pathSets.length);
        else expect(posted.mock.calls.length).toBe(pathSets.length);
        await single.close();
      }
    } finally {
      posted.mockRestore();
    }
    // By default the calling thread helps only when a core would otherwise idle.
    expect(createScoringPool({ threads: availableParallelism() }).callerScores).toBe(false);
    expect(createScoringPool({ threads: availableParallelism() - 1 }).callerScores).toBe(true);
  });

  it("the pool runs concurrent calls and small calls on the calling thread", async () => {
    const pathSets = miners("1h", 6, 700);
    const realized = realizedOf(realizedPrices(699, "1h"), "1h");
    const [first, second] = await Promise.all([
      pool.scoreMiners(pathSets, realized, { competition: "crypto-1h" }),
      pool.scoreMiners(pathSets.slice(0, 3).reverse(), realized, { competition: "crypto-1h" }),
    ]);
    expect(second).toEqual(first.slice(0, 3).reverse());
    const small = createScoringPool({ threads: 2, synchronousBelow: 10 });
    expect(await small.scoreMiners(pathSets, realized, { competition: "crypto-1h" })).toEqual(
      first,
    );
    await small.close();
    expect(await pool.scoreMiners([], realized, { competition: "crypto-1h" })).toEqual([]);
  });

  it("the pool rejects path sets of another prompt or shape, and calls on a closed pool", async () => {
    const pathSets = miners("1h", 4, 800);
    const realized = realizedOf(realizedPrices(799, "1h"), "1h");
    const other = { ...pathSets[1], startTime: pathSets[1].startTime + 60 };
    await expect(
      pool.scoreMiners([pathSets[0], other], realized, { competition: "crypto-1h" }),
    ).rejects.toThrow(
      "scoreMiners requires the realized path's start_time to equal the path set's startTime (2026-02-25T23:46:00.000Z), got 2026-02-25T23:45:00.000Z",
    );
    const fewer = pathSetOf(minerPaths(801, "1h", 10), "1h", 9);
    await expect(
      pool.scoreMiners([pathSets[0], fewer], realized, { competition: "crypto-1h" }),
    ).rejects.toThrow(
      "scoreMiners requires path sets of one shape: miner 100 has 1000 × 61, miner 9 has 10 × 61",
    );
    const closing = createScoringPool({ threads: 1, synchronousBelow: 0 });
    const rejection = expect(
      closing.scoreMiners(pathSets, realized, { competition: "crypto-1h" }),
    ).rejects.toThrow("ScoringPool was closed while a scoreMiners call was in progress");
    await closing.close();
    await closing.close();
    await rejection;
    await expect(
      closing.scoreMiners(pathSets, realized, { competition: "crypto-1h" }),
    ).rejects.toThrow("ScoringPool.scoreMiners requires an open pool; it is closed");
  });

  for (const mode of ["close", "forget"] as const) {
    it(`a process that ${mode === "close" ? "closes its pool" : "never closes its pool"} exits by itself, and the pool detaches no ArrayBuffer`, async () => {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ["--trace-protector-invalidation", fixture, mode],
        { cwd: repoRoot, timeout: 25_000 },
      );
      const crps = JSON.parse(stdout.slice(0, stdout.indexOf("]") + 1)) as number[];
      expect(crps).toHaveLength(6);
      expect(crps.every((value) => value > 0)).toBe(true);
      // Sharing through SharedArrayBuffers (never transferring) keeps V8's ArrayBufferDetaching
      // protector intact in the main thread and in the workers (bench/NOTES.md, the tsx penalty).
      expect(stdout + stderr).not.toContain("ArrayBufferDetaching");
    });
  }
});
