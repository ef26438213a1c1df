/**
 * The scratch memory of the prompt-scoring kernel (`promptCrpsOfValues.ts`,
 * `volatilityCrpsOfValues.ts`, `sortMembers.ts`): in a `ScoringThreads` worker thread, buffers
 * allocated for it on the calling thread; elsewhere, buffers of its own. Why: the same kernel
 * measured ~20 % slower in a worker thread on memory the worker had allocated itself than on
 * memory the main thread had allocated and shared with it (11.4 vs 9.1 µs per 1,000-member
 * term; in plain JavaScript without tsx, 9.7–10.5 vs 8.2 µs, one or two workers;
 * bench/README.md). The cause is not known; where the buffers come from is the only difference
 * (it is not V8's ArrayBufferDetaching protector, which nothing invalidates here, nor the two
 * cores slowing each other: two processes score at full speed side by side).
 */

import { isMainThread, workerData } from "node:worker_threads";

/** Members per term the kernel's scratch holds: the radix sort's upper length. */
export const KERNEL_SCRATCH_MEMBERS = 8192;

/**
 * Members of a chunk of an interval's terms the scratch holds: 96 terms of 1,000 paths (768 kB,
 * which stays in a core's 2 MB L2 cache from the gather to the sorts). The kernel gathers and
 * scores an interval chunk by chunk; a term with more members grows a buffer of the thread's own.
 * Chunks of 48, 96, 144 and all 288 five-minute terms of a 24h prompt measured alike (3.44–3.51 ms
 * per miner; bench/README.md), so the chunks keep the scratch at a third of the 2.3 MB that all
 * 288 terms need, at no cost in time.
 */
export const KERNEL_SCRATCH_TERM_MEMBERS = 96 * 1000;

/**
 * Block volatilities the scratch holds for the volatility CRPS of crypto-1h prompts: 24 blocks of
 * 1,000 paths (192 kB; the 1h prompt has 1 + 4 + 12 = 17 blocks). More paths grow a buffer of the
 * thread's own.
 */
export const KERNEL_SCRATCH_VOLATILITY_MEMBERS = 24 * 1000;

/**
 * The kernel's scratch buffers: the radix sort's values (Float64), keys and scattered keys
 * (Uint16) and two digit tables (Int32, 512 each: 256 counts, zero between sorts, then 256 start
 * positions); the sorted members of a term (Float64, {@link KERNEL_SCRATCH_MEMBERS}), the
 * gathered members of a chunk of an interval's terms (Float64, {@link KERNEL_SCRATCH_TERM_MEMBERS};
 * 768 kB) and every path's block volatilities (Float64,
 * {@link KERNEL_SCRATCH_VOLATILITY_MEMBERS}).
 * @example new Float64Array(KERNEL_SCRATCH.values).length // => 8192
 */
export interface KernelScratch {
  readonly termMembers: ArrayBufferLike;
  readonly volatilityMembers: ArrayBufferLike;
  readonly sorted: ArrayBufferLike;
  readonly values: ArrayBufferLike;
  readonly keys: ArrayBufferLike;
  readonly scatteredKeys: ArrayBufferLike;
  readonly lowCounts: ArrayBufferLike;
  readonly highCounts: ArrayBufferLike;
}

/** Byte lengths of the buffers of a {@link KernelScratch}. */
const BYTE_LENGTHS: Readonly<Record<keyof KernelScratch, number>> = {
  termMembers: KERNEL_SCRATCH_TERM_MEMBERS * Float64Array.BYTES_PER_ELEMENT,
  volatilityMembers: KERNEL_SCRATCH_VOLATILITY_MEMBERS * Float64Array.BYTES_PER_ELEMENT,
  sorted: KERNEL_SCRATCH_MEMBERS * Float64Array.BYTES_PER_ELEMENT,
  values: KERNEL_SCRATCH_MEMBERS * Float64Array.BYTES_PER_ELEMENT,
  keys: KERNEL_SCRATCH_MEMBERS * Uint16Array.BYTES_PER_ELEMENT,
  scatteredKeys: KERNEL_SCRATCH_MEMBERS * Uint16Array.BYTES_PER_ELEMENT,
  lowCounts: 512 * Int32Array.BYTES_PER_ELEMENT,
  highCounts: 512 * Int32Array.BYTES_PER_ELEMENT,
};

/**
 * A new {@link KernelScratch}, in SharedArrayBuffers with `shared`.
 * @example allocateKernelScratch(false).values.byteLength // => 65536
 */
export function allocateKernelScratch(shared: boolean): KernelScratch {
  const allocate = (byteLength: number) =>
    shared ? new SharedArrayBuffer(byteLength) : new ArrayBuffer(byteLength);
  return {
    termMembers: allocate(BYTE_LENGTHS.termMembers),
    volatilityMembers: allocate(BYTE_LENGTHS.volatilityMembers),
    sorted: allocate(BYTE_LENGTHS.sorted),
    values: allocate(BYTE_LENGTHS.values),
    keys: allocate(BYTE_LENGTHS.keys),
    scatteredKeys: allocate(BYTE_LENGTHS.scatteredKeys),
    lowCounts: allocate(BYTE_LENGTHS.lowCounts),
    highCounts: allocate(BYTE_LENGTHS.highCounts),
  };
}

/**
 * Kernel scratches that a pool allocates on the calling thread for its worker threads and hands
 * them all in `workerData.kernelScratch` (a pool gives every thread the same `workerData`): each
 * thread takes the first scratch whose claim is still 0, setting it to 1 (`Atomics`), so that no
 * two threads share one; a thread that finds none free allocates its own.
 * @example new Piscina({ filename, workerData: { kernelScratch: allocateKernelScratches(2) } })
 */
export interface KernelScratches {
  readonly scratches: readonly KernelScratch[];
  /** One claim per scratch: 0 free, 1 taken (over a SharedArrayBuffer). */
  readonly claims: Int32Array;
}

/**
 * {@link KernelScratches} for `count` threads, in SharedArrayBuffers, all free.
 * @example allocateKernelScratches(2).scratches.length // => 2
 */
export function allocateKernelScratches(count: number): KernelScratches {
  return {
    scratches: Array.from({ length: count }, () => allocateKernelScratch(true)),
    claims: new Int32Array(new SharedArrayBuffer(count * Int32Array.BYTES_PER_ELEMENT)),
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

/** The first free scratch of `candidate` (a {@link KernelScratches}), now claimed; else undefined. */
function claimScratch(candidate: unknown): KernelScratch | undefined {
  if (typeof candidate !== "object" || candidate === null) return undefined;
  const { scratches, claims } = candidate as Partial<KernelScratches>;
  if (!Array.isArray(scratches) || !(claims instanceof Int32Array)) return undefined;
  if (!(claims.buffer instanceof SharedArrayBuffer) || claims.length !== scratches.length) {
    return undefined;
  }
  for (let index = 0; index < scratches.length; index++) {
    const scratch = validScratch(scratches[index]);
    if (scratch !== undefined && Atomics.compareExchange(claims, index, 0, 1) === 0) {
      return scratch;
    }
  }
  return undefined;
}

/**
 * This thread's kernel scratch: in a worker thread, a free one of the pool's
 * `workerData.kernelScratch` ({@link KernelScratches}, of the right sizes), else new buffers.
 * @example new Int32Array(KERNEL_SCRATCH.lowCounts).length // => 512
 */
export const KERNEL_SCRATCH: KernelScratch =
  (isMainThread
    ? undefined
    : claimScratch((workerData as { kernelScratch?: unknown } | null)?.kernelScratch)) ??
  allocateKernelScratch(false);
