import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import {
  allocateKernelScratch,
  allocateKernelScratches,
  KERNEL_SCRATCH,
  KERNEL_SCRATCH_MEMBERS,
  KERNEL_SCRATCH_TERM_MEMBERS,
} from "../../src/scoring/kernelScratch.ts";

/** Starts the fixture worker with `workerData` and returns what it posted. */
async function scratchInWorker(workerData: unknown): Promise<{ shared: boolean }> {
  const worker = new Worker(new URL("./fixtures/kernelScratchWorker.mjs", import.meta.url), {
    workerData,
  });
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe("kernel scratch", () => {
  it("on the main thread the kernel allocates its own scratch, of the sizes the radix sort needs", () => {
    expect(KERNEL_SCRATCH.values).toBeInstanceOf(ArrayBuffer);
    expect(new Float64Array(KERNEL_SCRATCH.values)).toHaveLength(KERNEL_SCRATCH_MEMBERS);
    expect(new Uint16Array(KERNEL_SCRATCH.keys)).toHaveLength(KERNEL_SCRATCH_MEMBERS);
    expect(new Uint16Array(KERNEL_SCRATCH.scatteredKeys)).toHaveLength(KERNEL_SCRATCH_MEMBERS);
    expect(new Int32Array(KERNEL_SCRATCH.lowCounts)).toHaveLength(512);
    expect(new Int32Array(KERNEL_SCRATCH.highCounts)).toHaveLength(512);
    expect(new Float64Array(KERNEL_SCRATCH.sorted)).toHaveLength(KERNEL_SCRATCH_MEMBERS);
    // A chunk of an interval's terms: 96 terms of 1,000 members (768 kB, within a 2 MB L2 cache).
    expect(new Float64Array(KERNEL_SCRATCH.termMembers)).toHaveLength(96 * 1000);
    expect(KERNEL_SCRATCH_TERM_MEMBERS).toBe(96 * 1000);
    const shared = allocateKernelScratch(true);
    for (const buffer of Object.values(shared)) expect(buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("a worker handed scratches in workerData works in a free one; other workers allocate their own", async () => {
    const given = allocateKernelScratches(2);
    expect(await scratchInWorker({ kernelScratch: given })).toEqual({ shared: true });
    expect(new Float64Array(given.scratches[0].values)[0]).toBe(42);
    expect(Array.from(given.claims)).toEqual([1, 0]);
    // The next worker given the same scratches takes the second; a third finds none free.
    expect(await scratchInWorker({ kernelScratch: given })).toEqual({ shared: true });
    expect(new Float64Array(given.scratches[1].values)[0]).toBe(42);
    expect(Array.from(given.claims)).toEqual([1, 1]);
    expect(await scratchInWorker({ kernelScratch: given })).toEqual({ shared: false });

    // Scratch of the wrong size, or none at all: the worker's own buffers.
    const wrong = allocateKernelScratches(1);
    const scratches = [{ ...wrong.scratches[0], keys: new SharedArrayBuffer(16) }];
    expect(await scratchInWorker({ kernelScratch: { ...wrong, scratches } })).toEqual({
      shared: false,
    });
    expect(new Float64Array(wrong.scratches[0].values)[0]).toBe(0);
    expect(Array.from(wrong.claims)).toEqual([0]);
    expect(await scratchInWorker({ kernelScratch: allocateKernelScratch(true) })).toEqual({
      shared: false,
    });
    expect(await scratchInWorker({})).toEqual({ shared: false });
  });
});
