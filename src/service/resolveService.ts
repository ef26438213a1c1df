/**
 * Which service a job talks to: the embedded sandbox (started here, on 127.0.0.1) when no base URL
 * is given, else the service at `baseUrl` with the caller's key, or, when replaying, a replay
 * server answering from a recording. Shared by `sync` and `score`.
 */
import type { Naming } from "../domain/operation.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import { UsageError } from "./usageError.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "./embeddedSandbox.ts";
import type { LoadedRecording, ReplayServer } from "./replay.ts";
import { startReplayThread } from "./replayOnThread.ts";
import type { ServiceInfo } from "./serviceInfo.ts";

/**
 * Which service a job talks to, as every job's options say it: a service and its key, or the
 * embedded sandbox's clock, seed and miners.
 * @example const choice: ServiceChoice = { now: "2026-02-25T23:47:00Z", sandboxMiners: 9 };
 */
export interface ServiceChoice {
  /**
   * The service; without one, the embedded sandbox is started on 127.0.0.1 and stopped at the end.
   */
  readonly baseUrl?: string;
  /** The API key: required with `baseUrl`; with the embedded sandbox, the key it accepts. */
  readonly apiKey?: string;
  /** The embedded sandbox's clock (ISO 8601); only without `baseUrl`. */
  readonly now?: string;
  /** The embedded sandbox's seed; only without `baseUrl`. */
  readonly seed?: number;
  /**
   * How many miners the embedded sandbox's network has: its first N (default all 36, fewer is
   * lighter); only without `baseUrl`.
   */
  readonly sandboxMiners?: number;
  /**
   * Ask the service (`baseUrl`) once, before the job, which naming it speaks, and use it
   * (`--naming auto`; `ServiceInfo.namingFound` says what it found). The embedded sandbox speaks
   * the neutral naming, a replay its recording's.
   */
  readonly namingAuto?: boolean;
}

/** What a job was asked to talk to: the service and the deployment's naming and paths. */
export interface ServiceRequest extends ServiceChoice {
  /** The deployment's naming and paths: the embedded sandbox speaks them too. */
  readonly client?: { readonly naming?: Naming; readonly paths?: Readonly<Record<string, string>> };
}

/** The service a job talks to, and the sandbox to close at the end when it is the embedded one. */
export interface ResolvedService {
  readonly service: ServiceInfo;
  readonly apiKey: string;
  /** The embedded sandbox's clock in unix seconds; `undefined` for a real service (use the time). */
  readonly clockUnix: number | undefined;
  readonly sandbox: EmbeddedSandbox | undefined;
  /** The replay server to close at the end, when replaying. */
  readonly replay?: ReplayServer;
}

/**
 * Refuses a service request that cannot work: the embedded sandbox's clock, seed or miners with a service
 * (`baseUrl`), and a service without a key. Throws a `UsageError` naming `command` and the option.
 * @example checkServiceRequest("sync", { baseUrl: "https://api.example", now: "2026-02-25T23:47:00Z" }); // throws: --now with a service
 */
export function checkServiceRequest(command: string, request: ServiceRequest): void {
  if (request.baseUrl === undefined) return;
  for (const [name, value] of [
    ["--now", request.now],
    ["--seed", request.seed],
    ["--sandbox-miners", request.sandboxMiners],
  ] as const) {
    if (value !== undefined) {
      throw new UsageError(
        `${command}: ${name} sets the embedded sandbox; it cannot be used with a service (--base-url or PATHLAB_BASE_URL)`,
      );
    }
  }
  if (request.apiKey === undefined || request.apiKey === "") {
    throw new UsageError(
      `${command}: a service (--base-url or PATHLAB_BASE_URL) needs an API key: pass --api-key or set PATHLAB_API_KEY`,
    );
  }
}

/**
 * Starts the replay server of `recording` when given (no sandbox then: the clock is the
 * recording's), else the embedded sandbox unless `request.baseUrl` is set, and pushes the key it
 * accepts onto `secrets` (so that it is redacted like a user's key). The caller closes `sandbox`
 * and `replay`.
 * @example
 * const { service, apiKey, clockUnix, sandbox } = await resolveService({ now: "2026-02-25T23:47:00Z" }, secrets);
 * try { … } finally { await sandbox?.close(); }
 */
export async function resolveService(
  request: ServiceRequest,
  secrets: string[],
  recording?: LoadedRecording,
): Promise<ResolvedService> {
  if (recording !== undefined) {
    const replay = await startReplayThread(recording);
    const { kind, seed, now, miners } = recording.info.service;
    return {
      service: {
        kind,
        baseUrl: replay.url,
        ...(seed !== undefined && { seed }),
        ...(now !== undefined && { now }),
        ...(miners !== undefined && { miners }),
      },
      // The replay server asks for no key; the client needs one for the operations that do.
      apiKey: "replay",
      clockUnix: recording.clockUnix,
      sandbox: undefined,
      replay,
    };
  }
  if (request.baseUrl !== undefined) {
    return {
      service: { kind: "service", baseUrl: request.baseUrl },
      apiKey: (request.apiKey as string).trim(),
      clockUnix: undefined,
      sandbox: undefined,
    };
  }
  const sandbox = await startEmbeddedSandbox({
    ...(request.seed !== undefined && { seed: request.seed }),
    ...(request.now !== undefined && { now: request.now }),
    ...(request.sandboxMiners !== undefined && { miners: request.sandboxMiners }),
    ...(request.apiKey !== undefined && { apiKey: request.apiKey.trim() }),
    ...(request.client?.naming !== undefined && { naming: request.client.naming }),
    ...(request.client?.paths !== undefined && { paths: request.client.paths }),
  });
  secrets.push(sandbox.apiKey);
  return {
    service: {
      kind: "embedded sandbox",
      baseUrl: sandbox.url,
      seed: sandbox.seed,
      now: sandbox.now,
      ...(request.sandboxMiners !== undefined && { miners: request.sandboxMiners }),
    },
    apiKey: sandbox.apiKey,
    clockUnix: parseIsoTimeMs(sandbox.now) / 1000,
    sandbox,
  };
}

/**
 * The forms of `apiKey` to keep out of every output, log, error and stored row: as given and
 * trimmed (a key read with a trailing space or `\r` is sent trimmed).
 * @example secretsOf("sk-1234 \r") // => ["sk-1234 \r", "sk-1234"]
 */
export function secretsOf(apiKey: string | undefined): string[] {
  if (apiKey === undefined) return [];
  return [...new Set([apiKey, apiKey.trim()])].filter((secret) => secret !== "");
}
