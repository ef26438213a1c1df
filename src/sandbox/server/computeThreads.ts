/**
 * The sandbox's compute threads: the server's thread serves (routes, faults, access, sockets)
 * and hands each request's body to one of these threads, each a body computer over its own copy
 * of the world (the same seed and clock, so the same answers). A request goes to the thread of
 * its asset, or, when it names miners (prediction sets), of its asset and miners: a client that
 * fetches one asset at a time still keeps every thread busy. Work that several threads need is
 * done by each of them: the competitions' leaderboards, and the path sets of an insight ensemble
 * whose miners' sets another thread serves (measured in bench/README.md: about 40 % more CPU
 * with 2 threads). By competition instead, nothing would repeat, but a client that fetches one
 * asset at a time would keep one thread busy.
 * Each thread is a one-thread piscina pool: piscina starts, queues and reports; the routing is
 * ours, since piscina picks threads by load.
 */
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { canonicalAsset } from "../../domain/assets.ts";
import type { Operation } from "../../domain/operation.ts";
import { workerEntry } from "../../domain/workerEntry.ts";
import type { WorldOptions } from "../world/world.ts";
import type { BodyAnswer, BodyComputerOptions, SandboxCacheOptions } from "./bodyComputer.ts";
import type { FaultDecision } from "./faults.ts";
import type { QueryParams } from "./readQueryParams.ts";

/**
 * What a compute thread is started with: the world to build and its computer's options.
 * @example const setup: ComputeThreadSetup = { world: { seed: 42, nowUnix }, computer: {} };
 */
export interface ComputeThreadSetup {
  readonly world: WorldOptions;
  readonly computer: Omit<BodyComputerOptions, "world">;
}

/**
 * One request as a compute thread receives it.
 * @example const task: ComputeTask = { operation: "/v2/leaderboard/latest", params: {}, shape: undefined };
 */
export interface ComputeTask {
  /** The operation's path in the spec's words. */
  readonly operation: string;
  readonly params: QueryParams;
  readonly shape: FaultDecision["shape"];
}

/**
 * Running compute threads, as {@link startComputeThreads} returns them.
 * @example const answer = await threads.answer(operation, params, undefined);
 */
export interface ComputeThreads {
  readonly threads: number;
  /** The body of one checked request, computed on the thread of its asset (and miners). */
  answer(
    operation: Operation<string, unknown, unknown>,
    params: QueryParams,
    shape: FaultDecision["shape"],
  ): Promise<BodyAnswer>;
  /** Tasks each thread has finished, by thread. */
  completedTasks(): number[];
  /** Stops every thread; a task under way is cut, and its request answered 500. */
  close(): Promise<void>;
}

/**
 * Starts `threads` compute threads over worlds made with `setup.world`. The cache bounds are
 * shared out: each thread keeps its part of the bytes and at least one ensemble. Throws
 * `RangeError` unless `threads` is a positive integer.
 * @example const threads = startComputeThreads(2, { world: { seed, nowUnix }, computer: {} });
 */
export function startComputeThreads(threads: number, setup: ComputeThreadSetup): ComputeThreads {
  if (!(Number.isInteger(threads) && threads >= 1)) {
    throw new RangeError(
      `startComputeThreads requires a positive whole number of threads, got ${threads}`,
    );
  }
  const filename = fileURLToPath(workerEntry(import.meta.url, "computeThread"));
  const workerData: ComputeThreadSetup = {
    world: setup.world,
    computer: { ...setup.computer, cache: shareOf(setup.computer.cache, threads) },
  };
  const pools: Piscina<ComputeTask, BodyAnswer>[] = [];
  const failures: (string | undefined)[] = [];
  try {
    for (let index = 0; index < threads; index++) {
      const pool = new Piscina<ComputeTask, BodyAnswer>({
        filename,
        workerData,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: Infinity,
      });
      // A thread that fails outside a task (its start, say) is not replaced: its requests are
      // answered 500 from then on, and the tasks it had queued are cut.
      pool.on("error", (error: unknown) => {
        failures[index] = error instanceof Error ? error.message : String(error);
        void pool.destroy();
      });
      pools.push(pool);
    }
  } catch (error) {
    void Promise.all(pools.map((pool) => pool.destroy()));
    throw error;
  }
  // Assets and named competitions take the threads in the order they are first asked for (a
  // small set: the parameters are checked); a request that names miners goes by a hash of its
  // asset and miners, so that any number of miner lists keeps no state.
  const threadOfKey = new Map<string, number>();
  function threadOf(params: QueryParams): number {
    const key = affinityKey(params);
    if (params.miner !== undefined) return hashOf(key) % threads;
    let index = threadOfKey.get(key);
    if (index === undefined) {
      index = threadOfKey.size % threads;
      threadOfKey.set(key, index);
    }
    return index;
  }

  return {
    threads,
    async answer(operation, params, shape) {
      const index = threadOf(params);
      const failure = failures[index];
      if (failure !== undefined) {
        return {
          status: 500,
          message: `sandbox internal error: ${operation.path}: compute thread ${index} failed (${failure})`,
        };
      }
      const pool = pools[index];
      try {
        return await pool.run({ operation: operation.path, params, shape });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          status: 500,
          message: `sandbox internal error: ${operation.path}: a compute thread failed (${message})`,
        };
      }
    },
    completedTasks: () => pools.map((pool) => pool.completed),
    async close() {
      await Promise.all(pools.map((pool) => pool.destroy()));
    },
  };
}

/**
 * What a request's thread is chosen by: its asset (both symbol forms alike) and the miners it
 * names, else the competition it names, else nothing ("").
 */
function affinityKey(params: QueryParams): string {
  if (typeof params.asset === "string") {
    const asset = canonicalAsset(params.asset);
    return params.miner === undefined ? asset : `${asset}|${String(params.miner)}`;
  }
  if (typeof params.prompt_name === "string") return params.prompt_name;
  if (typeof params.competition === "string") return params.competition;
  return "";
}

/** FNV-1a of a string's UTF-16 units: a stable spread of keys over the threads. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

/** Each thread's part of the cache bounds (the defaults of `createBodyComputer` when unset). */
function shareOf(cache: SandboxCacheOptions | undefined, threads: number): SandboxCacheOptions {
  return {
    responseBytes: Math.ceil((cache?.responseBytes ?? 64 * 2 ** 20) / threads),
    predictionBytes: Math.ceil((cache?.predictionBytes ?? 128 * 2 ** 20) / threads),
    ensembles: Math.max(1, Math.ceil((cache?.ensembles ?? 3) / threads)),
  };
}
