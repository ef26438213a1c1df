import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MessagePort } from "node:worker_threads";
import { afterAll, describe, expect, it, vi } from "vitest";
import { allocateValues, type PathSet } from "../../src/paths/pathSet.ts";
import { promptCalibration } from "../../src/scoring/promptCalibration.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import { scoreMiners, type MinerPromptScore } from "../../src/scoring/scoreMiners.ts";
import { ScoringThreads } from "../../src/scoring/scoringThreads.ts";
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

describe("scoreMiners and ScoringThreads", () => {
  const threads = new ScoringThreads(2);
  afterAll(() => threads.close());

  for (const kind of ["24h", "1h"] as const) {
    it(`the threads give the same numbers as the calling thread, with calibration (${kind})`, async () => {
      const last = PROMPT_SHAPES[kind].nPoints - 1;
      const pathSets = miners(kind, 7, kind === "24h" ? 400 : 500);
      const realized = realizedOf(realizedPrices(399, kind, [4, 5, last - 3]), kind);
      const target = { competition: kind === "24h" ? "crypto-24h" : "crypto-1h" } as const;
      for (const method of ["closed", "parity"] as const) {
        const threaded = await threads.scoreMiners(pathSets, realized, target, {
          method,
          calibration: true,
        });
        const here = scoreMiners(pathSets, realized, target, { method, calibration: true });
        expect(threaded).toEqual(here);
        pathSets.forEach((pathSet, index) => {
          const { minerUid, calibration, ...score } = threaded[index];
          expect(minerUid).toBe(pathSet.minerUid);
          expect(score).toEqual(scorePrompt(pathSet, realized, target, { method }));
          expect(calibration).toEqual(promptCalibration(pathSet, realized));
        });
        expect(threaded[2].crps).toBe(-1);
        expect(threaded[2].invalidReason).toBe("zero price encountered in simulation runs");
        expect(threaded[2].calibration).toBeUndefined();
        expect(threaded[0].crps).toBeGreaterThan(0);
      }
    });
  }

  it("the threads read path sets in SharedArrayBuffers in place and never detach the caller's arrays", async () => {
    const pathSets = miners("1h", 5, 600);
    const shared = pathSets.map((pathSet) => {
      const values = allocateValues(pathSet.values.length, true);
      values.set(pathSet.values);
      return { ...pathSet, values };
    });
    const realized = realizedOf(realizedPrices(599, "1h"), "1h");
    const posted = vi.spyOn(MessagePort.prototype, "postMessage");
    const sentTasks = () =>
      posted.mock.calls.flatMap(([message, transferList]) => {
        const task = (message as { task?: { values?: unknown } } | null)?.task;
        return task?.values instanceof Float64Array ? [{ values: task.values, transferList }] : [];
      });
    let fromShared: MinerPromptScore[];
    let fromCopies: MinerPromptScore[];
    try {
      fromShared = await threads.scoreMiners(shared, realized, { competition: "crypto-1h" });
      // Each thread got the caller's own array in shared memory (the same memory, no copy), and
      // nothing was transferred.
      const sent = sentTasks();
      expect(sent).toHaveLength(shared.length);
      for (const { values, transferList } of sent) {
        expect(shared.some((pathSet) => pathSet.values === values)).toBe(true);
        expect((values as Float64Array).buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(transferList ?? []).toEqual([]);
      }
      posted.mockClear();
      fromCopies = await threads.scoreMiners(pathSets, realized, { competition: "crypto-1h" });
      // Ordinary arrays go through staging buffers in shared memory instead, never transferred.
      const staged = sentTasks();
      expect(staged).toHaveLength(pathSets.length);
      for (const { values, transferList } of staged) {
        expect((values as Float64Array).buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(pathSets.some((pathSet) => pathSet.values === values)).toBe(false);
        expect(transferList ?? []).toEqual([]);
      }
    } finally {
      posted.mockRestore();
    }
    expect(fromShared).toEqual(fromCopies);
    expect(pathSets.every((pathSet) => pathSet.values.length === 1000 * 61)).toBe(true);
    expect(fromShared.map((score) => score.minerUid)).toEqual([100, 101, 102, 103, 104]);
  });

  it("the threads run concurrent calls, each in its own order", async () => {
    const pathSets = miners("1h", 6, 700);
    const realized = realizedOf(realizedPrices(699, "1h"), "1h");
    const [first, second] = await Promise.all([
      threads.scoreMiners(pathSets, realized, { competition: "crypto-1h" }),
      threads.scoreMiners(pathSets.slice(0, 3).reverse(), realized, { competition: "crypto-1h" }),
    ]);
    expect(second).toEqual(first.slice(0, 3).reverse());
    expect(scoreMiners(pathSets, realized, { competition: "crypto-1h" })).toEqual(first);
    expect(await threads.scoreMiners([], realized, { competition: "crypto-1h" })).toEqual([]);
    expect(scoreMiners([], realized, { competition: "crypto-1h" })).toEqual([]);
  });

  it("both reject path sets of another prompt or shape; closed threads reject calls", async () => {
    const pathSets = miners("1h", 4, 800);
    const realized = realizedOf(realizedPrices(799, "1h"), "1h");
    const other = { ...pathSets[1], startTime: pathSets[1].startTime + 60 };
    const fewer = pathSetOf(minerPaths(801, "1h", 10), "1h", 9);
    const target = { competition: "crypto-1h" } as const;
    for (const [wrong, message] of [
      [
        other,
        "scoreMiners requires the realized path's start_time to equal the path set's startTime (2026-02-25T23:46:00.000Z), got 2026-02-25T23:45:00.000Z",
      ],
      [
        fewer,
        "scoreMiners requires path sets of one shape: miner 100 has 1000 × 61, miner 9 has 10 × 61",
      ],
    ] as const) {
      const both = [pathSets[0], wrong];
      await expect(threads.scoreMiners(both, realized, target)).rejects.toThrow(message);
      expect(() => scoreMiners(both, realized, target)).toThrow(message);
    }
    const closing = new ScoringThreads(1);
    const rejection = expect(
      closing.scoreMiners(pathSets, realized, { competition: "crypto-1h" }),
    ).rejects.toThrow("ScoringThreads were closed while a scoreMiners call was in progress");
    await closing.close();
    await closing.close();
    await rejection;
    await expect(
      closing.scoreMiners(pathSets, realized, { competition: "crypto-1h" }),
    ).rejects.toThrow("ScoringThreads.scoreMiners requires open threads; they are closed");
    expect(() => new ScoringThreads(0)).toThrow(
      "ScoringThreads requires a whole number of threads ≥ 1, got 0",
    );
  });

  for (const mode of ["close", "forget"] as const) {
    it(`a process that ${mode === "close" ? "closes its threads" : "never closes its threads"} exits by itself, and the threads detach no ArrayBuffer`, async () => {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ["--trace-protector-invalidation", fixture, mode],
        { cwd: repoRoot, timeout: 25_000 },
      );
      const crps = JSON.parse(stdout.slice(0, stdout.indexOf("]") + 1)) as number[];
      expect(crps).toHaveLength(6);
      expect(crps.every((value) => value > 0)).toBe(true);
      // Sharing through SharedArrayBuffers and cloning (never transferring) keeps V8's
      // ArrayBufferDetaching protector intact in the main thread and in the threads
      // (bench/README.md, the tsx penalty).
      expect(stdout + stderr).not.toContain("ArrayBufferDetaching");
    });
  }
});
