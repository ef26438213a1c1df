/**
 * `startSandbox`: the offline, deterministic implementation of the whole interface, listening on
 * a local port. What `pathlab serve` runs, and what every job talks to by default.
 */
import type { AddressInfo } from "node:net";
import { liveNaming, neutralNaming } from "../domain/naming.ts";
import type { Naming } from "../domain/operation.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import type { SandboxInsightOptions } from "./insights/inputs.ts";
import { DEFAULT_SANDBOX_SEED, defaultSandboxApiKey } from "./sandboxDefaults.ts";
import type { AccessOptions } from "./server/accessControl.ts";
import { startComputeThreads } from "./server/computeThreads.ts";
import {
  createSandboxServer,
  type SandboxCacheOptions,
  type SandboxServer,
} from "./server/createSandboxServer.ts";
import type { SandboxFaults } from "./server/faults.ts";
import { parseFaults } from "./server/parseFaults.ts";
import { createWorld, type PromptCadence, type World } from "./world/world.ts";

/**
 * Options of {@link startSandbox}; all optional.
 * @example
 * const options: StartSandboxOptions = { seed: 7, now: "2026-02-25T23:45:00Z", faults: "5xx=0.1", naming: "live" };
 */
export interface StartSandboxOptions {
  /** Seed of the world and of the fault draws (an integer). Default `DEFAULT_SANDBOX_SEED` (42). */
  readonly seed?: number;
  /**
   * The sandbox's clock, fixed for the server's life (the same seed and `now` give byte-identical
   * bodies). Default: the current time floored to the minute.
   */
  readonly now?: string | Date;
  /** Default 0: any free port (read the chosen one from `url`). */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Accepted API keys. Default: one key derived from the seed (see `apiKey`). */
  readonly apiKeys?: readonly string[];
  /** Credits per key, one per insights request (see `AccessOptions`). */
  readonly credits?: AccessOptions["credits"];
  /** Per-key rate limit, or `false` for none (see `AccessOptions`). */
  readonly rateLimit?: AccessOptions["rateLimit"];
  /** Fault rules, or their text form (`parseFaults`, as `pathlab serve --faults`). Default none. */
  readonly faults?: SandboxFaults | string;
  /** `neutral` (the spec's words, the default), `live` (`polymarket`, `synth`), or any naming. */
  readonly naming?: Naming | "neutral" | "live";
  /**
   * Paths of the deployment by spec path (`{"/validation/smoothed-scores": "/rewards/scores"}`),
   * served beside the naming's own, as a client's `paths` option names them.
   */
  readonly paths?: Readonly<Record<string, string>>;
  /** Keys with basic access: raw prediction paths answer them 401 (see `AccessOptions`). */
  readonly basicKeys?: readonly string[];
  /** Days of prediction sets served before the clock (default 11, as the live API at most). */
  readonly retentionDays?: number;
  /** Modes of the "service" that depart from the insight conventions (default none). */
  readonly insightOptions?: SandboxInsightOptions;
  /** The world's prompt cadence (default the world's own, `sandbox`). */
  readonly cadence?: PromptCadence;
  /** How many miners the world has (`WorldOptions.miners`; default all 36). */
  readonly miners?: number;
  /** Bounds of the server's caches (shared out among the compute threads). */
  readonly cache?: SandboxCacheOptions;
  /**
   * Threads that compute the bodies (each over its own copy of the world; a request goes to the
   * thread of its asset, and miners), while the server's thread only serves; at most 64. Default
   * 0: the server's thread computes them itself.
   */
  readonly computeThreads?: number;
}

/**
 * A running sandbox.
 * @example
 * const sandbox = await startSandbox();
 * const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
 * await sandbox.close();
 */
export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** The first accepted key: send it as `Authorization: Apikey <key>`. */
  readonly apiKey: string;
  readonly apiKeys: readonly string[];
  readonly seed: number;
  /** The sandbox's clock, ISO 8601. */
  readonly now: string;
  readonly naming: Naming;
  /**
   * The world served (markets, miners, validator), for pathlab's own tests and jobs that compare
   * against it; not a stable API.
   * @internal
   */
  readonly world: World;
  /** Replaces the fault rules (objects or their text form); counters start again. */
  setFaults(faults: SandboxFaults | string): void;
  /** Stops listening and closes every connection; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox on `host:port` and resolves once it listens. Throws `RangeError` for a seed
 * that is not an integer, a `now` that is not a valid time, a bad fault text or access option,
 * and rejects with an `Error` naming the address when the port cannot be bound.
 * @param options - the address, seed, clock, keys, credits, rate limits, faults, naming and world;
 *   see each field's default.
 * @example
 * const sandbox = await startSandbox({ seed: 7, now: "2026-02-25T23:45:00Z", credits: 100 });
 * const response = await fetch(`${sandbox.url}/v2/leaderboard/latest`);
 * await sandbox.close();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? DEFAULT_SANDBOX_SEED;
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`startSandbox: seed must be an integer, got ${seed}`);
  }
  const nowUnix = nowUnixOf(options.now);
  const naming =
    options.naming === undefined || options.naming === "neutral"
      ? neutralNaming
      : options.naming === "live"
        ? liveNaming
        : options.naming;
  const apiKeys = options.apiKeys ?? [defaultSandboxApiKey(seed)];
  const faultsOf = (faults: SandboxFaults | string | undefined) =>
    typeof faults === "string" ? parseFaults(faults) : (faults ?? []);
  const worldOptions = {
    seed,
    nowUnix,
    ...(options.cadence !== undefined && { cadence: options.cadence }),
    ...(options.miners !== undefined && { miners: options.miners }),
  };
  const world = createWorld(worldOptions);
  const faults = faultsOf(options.faults);
  const computeThreads = options.computeThreads ?? 0;
  if (!(Number.isInteger(computeThreads) && computeThreads >= 0 && computeThreads <= 64)) {
    throw new RangeError(
      `startSandbox: computeThreads must be a whole number from 0 to 64, got ${computeThreads}`,
    );
  }
  const threads =
    computeThreads === 0
      ? undefined
      : startComputeThreads(computeThreads, {
          world: worldOptions,
          computer: {
            naming,
            ...(options.retentionDays !== undefined && { retentionDays: options.retentionDays }),
            ...(options.insightOptions !== undefined && { insightOptions: options.insightOptions }),
            ...(options.cache !== undefined && { cache: options.cache }),
          },
        });
  const host = options.host ?? "127.0.0.1";
  let sandbox: SandboxServer;
  try {
    sandbox = createSandboxServer({
      world,
      naming,
      access: {
        apiKeys,
        ...(options.credits !== undefined && { credits: options.credits }),
        ...(options.basicKeys !== undefined && { basicKeys: options.basicKeys }),
        ...(options.rateLimit !== undefined && { rateLimit: options.rateLimit }),
      },
      faults,
      ...(options.paths !== undefined && { paths: options.paths }),
      ...(options.retentionDays !== undefined && { retentionDays: options.retentionDays }),
      ...(options.insightOptions !== undefined && { insightOptions: options.insightOptions }),
      ...(options.cache !== undefined && { cache: options.cache }),
      ...(threads !== undefined && { bodies: threads.answer }),
    });
    const { server } = sandbox;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) =>
        reject(
          new Error(
            `startSandbox: cannot listen on ${host}:${options.port ?? 0} (${error.code ?? error.name}: ${error.message})`,
            { cause: error },
          ),
        );
      server.once("error", onError);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", onError);
        resolve();
      });
    });
  } catch (error) {
    await threads?.close();
    throw error;
  }
  const { server } = sandbox;
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    apiKey: apiKeys[0],
    apiKeys,
    seed,
    now: new Date(nowUnix * 1000).toISOString(),
    naming,
    world,
    setFaults: (faults) => sandbox.setFaults(faultsOf(faults)),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => threads?.close());
      return closing;
    },
  };
}

/** The clock in unix seconds, floored to the minute. */
function nowUnixOf(now: string | Date | undefined): number {
  const milliseconds =
    now === undefined ? Date.now() : now instanceof Date ? now.getTime() : parseIsoTimeMs(now);
  if (!Number.isFinite(milliseconds)) {
    throw new RangeError(
      `startSandbox: now must be an ISO 8601 time (e.g. 2026-02-25T23:45:00Z) or a valid Date, got ${
        now instanceof Date ? "an invalid Date" : JSON.stringify(now)
      }`,
    );
  }
  return Math.floor(milliseconds / 60_000) * 60;
}
