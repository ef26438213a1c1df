/**
 * The scratch memory of the prompt-scoring kernel (`sortMembers.ts`): in a `ScoringPool` worker
 * thread, buffers the pool allocated for that worker on the calling thread; elsewhere, buffers of
 * its own. Why: the same kernel measured ~20 % slower in a worker thread on scratch the worker had
 * allocated itself than on scratch the main thread had allocated and shared with it (11.4 vs
 * 9.1 µs per 1,000-member term; bench/README.md). The cause is not known; where the buffers come
 * from is the only difference.
 */

import { isMainThread, workerData } from "node:worker_threads";

/** Members per term the kernel's scratch holds: the radix sort's upper length. */
export const KERNEL_SCRATCH_MEMBERS = 8192;

/**
 * The kernel's scratch buffers: values (Float64), keys and scattered keys (Uint16), and the two
 * digit-count tables (Int32, 257 each).
 * @example new Float64Array(KERNEL_SCRATCH.values).length // => 8192
 */
export interface KernelScratch {
  readonly values: ArrayBufferLike;
  readonly keys: ArrayBufferLike;
  readonly scatteredKeys: ArrayBufferLike;
  readonly lowCounts: ArrayBufferLike;
  readonly highCounts: ArrayBufferLike;
}

/** Byte lengths of the buffers of a {@link KernelScratch}. */
const BYTE_LENGTHS: Readonly<Record<keyof KernelScratch, number>> = {
  values: KERNEL_SCRATCH_MEMBERS * Float64Array.BYTES_PER_ELEMENT,
  keys: KERNEL_SCRATCH_MEMBERS * Uint16Array.BYTES_PER_ELEMENT,
  scatteredKeys: KERNEL_SCRATCH_MEMBERS * Uint16Array.BYTES_PER_ELEMENT,
  lowCounts: 257 * Int32Array.BYTES_PER_ELEMENT,
  highCounts: 257 * Int32Array.BYTES_PER_ELEMENT,
};

/**
 * A new {@link KernelScratch}, in SharedArrayBuffers with `shared` (what a pool allocates on the
 * calling thread and hands to a worker in `workerData.kernelScratch`).
 * @example spawnPoolWorker({ ...options, data: { kernelScratch: allocateKernelScratch(true) } })
 */
export function allocateKernelScratch(shared: boolean): KernelScratch {
  const allocate = (byteLength: number) =>
    shared ? new SharedArrayBuffer(byteLength) : new ArrayBuffer(byteLength);
  return {
    values: allocate(BYTE_LENGTHS.values),
    keys: allocate(BYTE_LENGTHS.keys),
    scatteredKeys: allocate(BYTE_LENGTHS.scatteredKeys),
    lowCounts: allocate(BYTE_LENGTHS.lowCounts),
    highCounts: allocate(BYTE_LENGTHS.highCounts),
  };
}

/** `candidate` when it is a complete {@link KernelScratch} of the right sizes, else undefined. */
function validScratch(candidate: unknown): KernelScratch | undefined {
  if (typeof candidate !== "object" || candidate === null) return undefined;
  const buffers = candidate as Record<string, unknown>;
  for (const [name, byteLength] of Object.entries(BYTE_LENGTHS)) {
    const buffer = buffers[name];
    const isBuffer = buffer instanceof SharedArrayBuffer || buffer instanceof ArrayBuffer;
    if (!isBuffer || buffer.byteLength !== byteLength) return undefined;
  }
  return candidate as KernelScratch;
}

/**
 * This thread's kernel scratch: the worker's `workerData.kernelScratch` when a pool handed it one
 * (of the right sizes), else new buffers.
 * @example new Int32Array(KERNEL_SCRATCH.lowCounts).length // => 257
 */
export const KERNEL_SCRATCH: KernelScratch =
  (isMainThread
    ? undefined
    : validScratch((workerData as { kernelScratch?: unknown } | null)?.kernelScratch)) ??
  allocateKernelScratch(false);
