import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import {
  allocateKernelScratch,
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

  it("a worker handed scratch in workerData works in that memory; other workers allocate their own", async () => {
    const given = allocateKernelScratch(true);
    expect(await scratchInWorker({ kernelScratch: given })).toEqual({ shared: true });
    expect(new Float64Array(given.values)[0]).toBe(42);

    // Scratch of the wrong size, or none at all: the worker's own buffers.
    const wrong = { ...allocateKernelScratch(true), keys: new SharedArrayBuffer(16) };
    expect(await scratchInWorker({ kernelScratch: wrong })).toEqual({ shared: false });
    expect(new Float64Array(wrong.values)[0]).toBe(0);
    expect(await scratchInWorker({})).toEqual({ shared: false });
  });
});
