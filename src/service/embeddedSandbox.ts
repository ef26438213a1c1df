/**
 * The sandbox a job talks to when no service is named: `startSandbox` on 127.0.0.1, run in a
 * worker thread so that the sandbox's own computations (its validator's scoring, its reference
 * insights) use the second core while the job parses, recomputes and stores on the first.
 */

import { DEFAULT_SANDBOX_SEED, defaultSandboxApiKey } from "../sandbox/sandboxDefaults.ts";
import type { SandboxCacheOptions } from "../sandbox/index.ts";
import type { SandboxThreadMessage, SandboxThreadRequest } from "./sandboxThread.ts";
import { startServiceThread } from "./serviceThread.ts";
import type { Naming } from "../domain/operation.ts";

/**
 * Options of {@link startEmbeddedSandbox}.
 * @example const options: EmbeddedSandboxOptions = { seed: 42, now: "2026-02-25T23:47:00Z" };
 */
export interface EmbeddedSandboxOptions {
  /** Seed of the sandbox's world; default `DEFAULT_SANDBOX_SEED` (42). */
  readonly seed?: number;
  /** The sandbox's clock, ISO 8601; default the current time floored to the minute. */
  readonly now?: string;
  /** The key it accepts; default the key derived from the seed. */
  readonly apiKey?: string;
  /** Fault rules in `pathlab serve --faults` form; default none. */
  readonly faults?: string;
  /** The words it speaks (`liveNaming` for the live deployment's); default the spec's. */
  readonly naming?: Naming;
  /** Paths it also serves operations at, by spec path (a client's `paths`); default none. */
  readonly paths?: Readonly<Record<string, string>>;
  /** How many miners its world has (`WorldOptions.miners`); default all 36. */
  readonly miners?: number;
}

/**
 * The embedded sandbox's caches, smaller than `pathlab serve`'s defaults (64 MiB of responses,
 * 128 MiB of prediction sets, 3 insight ensembles): a job asks for most bodies once, and `sync`'s
 * fetch lane sends one unit's requests at a time, so bigger caches mostly hold memory. Measured
 * with `npm start` (one run each, 2026-11-27): peak 1245 MiB with the defaults, 1016 MiB with
 * these, in the same time. Not measured: a queue worker running several units at once against its
 * embedded sandbox, which may then build an insight ensemble more than once.
 */
const EMBEDDED_SANDBOX_CACHE: SandboxCacheOptions = {
  responseBytes: 16 * 2 ** 20,
  predictionBytes: 16 * 2 ** 20,
  ensembles: 1,
};

/**
 * A running embedded sandbox.
 * @example
 * const sandbox = await startEmbeddedSandbox({ now: "2026-02-25T23:47:00Z" });
 * const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
 * await sandbox.close();
 */
export interface EmbeddedSandbox {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The key it accepts. */
  readonly apiKey: string;
  readonly seed: number;
  /** Its clock, ISO 8601. */
  readonly now: string;
  /**
   * Replaces the fault rules (`pathlab serve --faults` form; empty for none); resolves once they
   * apply, rejects with the parser's error (a `RangeError`) for bad text, and with an Error once
   * the sandbox is closed or its thread has stopped.
   */
  setFaults(faults: string): Promise<void>;
  /** Stops the server and its thread; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox in a worker thread on 127.0.0.1, any free port, and resolves once it listens.
 * Rejects with an Error naming the cause when the sandbox cannot start (a bad `now`, fault text or
 * seed) or its thread dies.
 * @param options - the sandbox's seed, clock, API key, faults, naming and miners; see each field's
 *   default.
 * @example
 * const sandbox = await startEmbeddedSandbox({ seed: 7 });
 * try { console.log(sandbox.url); } finally { await sandbox.close(); }
 */
export async function startEmbeddedSandbox(
  options: EmbeddedSandboxOptions = {},
): Promise<EmbeddedSandbox> {
  const seed = options.seed ?? DEFAULT_SANDBOX_SEED;
  const apiKey = options.apiKey ?? defaultSandboxApiKey(seed);
  const thread = await startServiceThread<SandboxThreadMessage, SandboxThreadRequest>(
    import.meta.url,
    "sandboxThread",
    {
      seed,
      host: "127.0.0.1",
      port: 0,
      apiKeys: [apiKey],
      cache: EMBEDDED_SANDBOX_CACHE,
      ...(options.now !== undefined && { now: options.now }),
      ...(options.faults !== undefined && { faults: options.faults }),
      ...(options.naming !== undefined && { naming: options.naming }),
      ...(options.paths !== undefined && { paths: options.paths }),
      ...(options.miners !== undefined && { miners: options.miners }),
    },
    "the embedded sandbox",
  );
  return {
    url: thread.ready.url,
    apiKey,
    seed: thread.ready.seed,
    now: thread.ready.now,
    async setFaults(faults) {
      const answer = await thread.ask({ type: "faults", faults }, "faults");
      if (answer.error !== undefined) throw new RangeError(answer.error);
    },
    close: () => thread.close(),
  };
}
