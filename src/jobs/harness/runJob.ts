/**
 * The run harness: what every job needs, done once. A job (`sync`, `score`, `baseline`, `audit`,
 * `enqueue`) declares its checks and runs its plan → units → reduce in `body`; the harness does
 * the rest: the secrets kept out of every output, record and replay, the service (the embedded
 * sandbox, a service, or a replay), the store (a database file, or a working store in memory for a
 * lake), one client with one set of defaults, the run's row, interruption, the job's deadline and
 * breaker (`JobStop`, `Breaker`: a job that declares a `defaultDeadlineMs`, as sync and score do,
 * takes `deadlineMs` from its options), and closing everything whatever happened.
 *
 * Over 300 lines because the options, the definition and the `Job` a body sees are the one
 * contract between the harness and every job, and read best beside the function that keeps it.
 */

import type { ClientEvent } from "../../client/events.ts";
import type { ClientOptions } from "../../client/options.ts";
import { createClient } from "../../client/create-client.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { prepareLake } from "../../store/lake.ts";
import { openStore, type Store } from "../../store/openStore.ts";
import { finishRun, startRun, type Run, type RunEnd } from "../../store/runs.ts";
import { withoutSecrets } from "../../store/withoutSecrets.ts";
import { jobClientOptions, type Deployment } from "../../service/jobClient.ts";
import { checkNaming, speaksLiveNaming } from "../../service/namingCheck.ts";
import { liveNaming, neutralNaming } from "../../domain/naming.ts";
import { beginRecording, prepareRecordReplay } from "../../service/recordReplay.ts";
import type { Recorder } from "../../service/record.ts";
import type { LoadedRecording, RecordReplaySummary } from "../../service/replay.ts";
import {
  resolveService,
  secretsOf,
  type ResolvedService,
  type ServiceChoice,
} from "../../service/resolveService.ts";
import type { ServiceInfo } from "../../service/serviceInfo.ts";
import { UsageError } from "../../service/usageError.ts";
import { Breaker } from "./breaker.ts";
import { BREAKER_UNITS, DEFAULT_DATABASE, jobStoreOptions, type StoreMemory } from "./defaults.ts";
import { JobInterruptedError, JobStoppedError } from "./interruptedError.ts";
import { JobStop } from "./jobStop.ts";

/**
 * The options every job shares (each job's options extend them).
 * @example const options: JobOptions = { now: "2026-02-25T23:47:00Z", database: "/tmp/p.duckdb" };
 */
export interface JobOptions extends ServiceChoice {
  /** The database file to write; default `DEFAULT_DATABASE`; not with `lake`. */
  readonly database?: string;
  /** A lake to write instead of a database file. */
  readonly lake?: string;
  /** Save every raw response into this directory (new or empty). */
  readonly record?: string;
  /** Answer from the recording in this directory instead of the network. */
  readonly replay?: string;
  /** Client settings (retries, timeouts, requests in flight, the deployment's naming and paths). */
  readonly client?: Partial<Omit<ClientOptions, "baseUrl" | "apiKey">>;
  /**
   * The longest the whole job may take, in ms from its start; default the definition's
   * `defaultDeadlineMs` (none without one). When it passes, the job stops as its breaker stops it.
   */
  readonly deadlineMs?: number;
  /** Interrupts the job. */
  readonly signal?: AbortSignal;
}

/**
 * What a job declares to the harness.
 * @example const definition: JobDefinition<SyncOptions, number> = { command: "sync", check: (options) => options.concurrency ?? 3 };
 */
export interface JobDefinition<O extends JobOptions, C> {
  readonly command: string;
  /**
   * Checks the options once a recording is loaded (its service is then known) and before anything
   * is opened; returns what follows from them. Throws `UsageError` for the first mistake.
   */
  readonly check: (options: O, recording: LoadedRecording | undefined) => C | Promise<C>;
  /** What the job writes: a store (the default), or nothing the harness opens (files of its own). */
  readonly writes?: "store" | "nothing";
  /** Whether the job talks to a service with these options (default: always). */
  readonly talks?: (options: O) => boolean;
  /** The clock a recording states is the job's start floored to this many seconds (default 1). */
  readonly clockSeconds?: number;
  /** Receives the events of the job's client (its responses, retries). */
  readonly onClientEvent?: (event: ClientEvent) => void;
  /**
   * The message of the `JobInterruptedError` thrown when the job's signal aborted its body, and of
   * the `JobStoppedError` thrown when its deadline or breaker stopped it, from `why` (`interrupted`,
   * or what stopped it); without it, what the body threw when interrupted is thrown as it is, and
   * a stopped job's error says `why`.
   */
  readonly interruptedMessage?: (job: Job<C>, why: string) => string;
  /** The job's deadline when the options give none (`JobOptions.deadlineMs`); default none. */
  readonly defaultDeadlineMs?: number;
  /** What the job's breaker counts, in its message (default `unit`). */
  readonly unit?: string;
  /**
   * DuckDB's memory settings for the job's database file (default: a limit of
   * `JOB_STORE_MEMORY_LIMIT` and DuckDB's own flushes); `PATHLAB_DUCKDB_MEMORY_LIMIT` sets another
   * limit. A lake's working store in memory keeps DuckDB's defaults, and a database in memory
   * (`:memory:`) DuckDB's memory limit.
   */
  readonly storeMemory?: StoreMemory;
}

/**
 * A running job, as its body sees it.
 * @example const run = await job.startRun({ assets: ["BTC"] });
 */
export interface Job<C> {
  readonly command: string;
  /** What the definition's `check` returned. */
  readonly checked: C;
  /**
   * Aborts when the job stops early: interrupted by its caller, past its deadline, or by its
   * breaker (`stop` says which). The job's client stops with it; units listen to it.
   */
  readonly signal: AbortSignal;
  /** What stopped the job, once something did. */
  readonly stop: JobStop;
  /**
   * Told how each unit ended (`succeeded`, `failed` with its reason): after `BREAKER_UNITS`
   * failing the same way in a row, it stops the job (`stop.cause` is then `breaker`).
   */
  readonly breaker: Breaker;
  /** The key in every form it may appear in: kept out of outputs, rows and errors. */
  readonly secrets: readonly string[];
  /** When the job started, Unix seconds. */
  readonly startedAtUnix: number;
  readonly service: ServiceInfo;
  /**
   * True when the embedded sandbox runs in this process and works on its cores; false for a
   * service and for a replay (of a sandbox's recording too), which only sends stored bytes.
   */
  readonly sandboxInProcess: boolean;
  /** The embedded sandbox's or the recording's clock, Unix seconds; `undefined` for a service. */
  readonly clockUnix: number | undefined;
  /** `clockUnix`, or for a service the start floored as the definition's `clockSeconds` says. */
  readonly nowUnix: number;
  /** The job's client (throws for a job that talks to no service). */
  readonly client: PathlabClient;
  /** The options the client was made with (data and functions): the pool threads' clients start from them. */
  readonly clientOptions: ClientOptions;
  /** The deployment's naming and paths: a recording's when replaying. */
  readonly deployment: Deployment;
  /** The store: the database file, or with `lake` a working store in memory (throws when the job writes nothing). */
  readonly store: Store;
  /** The database the job writes (`:memory:` with a lake). */
  readonly database: string;
  readonly lake: string | undefined;
  readonly recorder: Recorder | undefined;
  /** Milliseconds since the job started. */
  durationMs(): number;
  /** The id of the job's row in `runs`, once started. */
  readonly runId: number | undefined;
  /** Starts the job's row in `runs` (its arguments stored without secrets). */
  startRun(args: unknown): Promise<Run>;
  /** Finishes the job's row; failures are stored without secrets. */
  finishRun(end: RunEnd): Promise<void>;
  /** Failures to store with the run when the body throws (what was found until then). */
  failuresSoFar: () => readonly unknown[];
  /** Runs `close` when the job ends, before the client and the store close (last added first). */
  defer(close: () => Promise<void>): void;
  /** The summary's `record` or `replay` part (waits for the recording's files). */
  recordReplaySummary(): Promise<RecordReplaySummary>;
  /** `value` without the job's secrets. */
  redact<T>(value: T): T;
}

/**
 * Runs a job (see the module comment): checks, opens and resolves what the definition asks for,
 * runs `body`, and closes everything in the reverse order whatever happened. When `body` throws
 * after the run's row started, the row is finished `failed` (`interrupted` when the signal
 * aborted); when the signal aborted and the definition has an `interruptedMessage`, a
 * `JobInterruptedError` with that message is thrown instead of the body's error, and when the
 * job's deadline or breaker stopped it, a `JobStoppedError` that says which.
 * @example const summary = await runJob({ command: "audit", check: () => undefined }, options, async (job) => …);
 */
export async function runJob<O extends JobOptions, C, R>(
  definition: JobDefinition<O, C>,
  options: O,
  body: (job: Job<C>) => Promise<R>,
): Promise<R> {
  const started = performance.now();
  const startedAtUnix = Date.now() / 1000;
  const { command } = definition;
  const secrets = secretsOf(options.apiKey);
  // Before the other checks: `replay` with a service is that mistake, not a missing key.
  const prepared = await prepareRecordReplay(command, options, secrets);
  const checked = await definition.check(options, prepared.recording);
  const { deadlineMs, database, writes } = placeOf(definition, options);
  // a database file, limited; a lake's working store in memory keeps DuckDB's defaults
  const limits =
    options.lake === undefined ? jobStoreOptions(database, definition.storeMemory) : {};
  const store = writes ? await openStore(database, limits) : undefined;
  const stop = new JobStop(options.signal, deadlineMs);
  const breaker = new Breaker(BREAKER_UNITS, (count, reason) =>
    stop.trip(
      "breaker",
      `stopped after ${count} ${definition.unit ?? "unit"}s in a row failed the same way: ${reason}`,
    ),
  );
  const closers: (() => Promise<void>)[] = [];
  let resolved: ResolvedService | undefined;
  let client: PathlabClient | undefined;
  let run: Run | undefined;
  let runFinished = false;
  try {
    const talks = definition.talks?.(options) ?? true;
    resolved = talks
      ? await resolveService({ ...options, client: prepared.client }, secrets, prepared.recording)
      : undefined;
    const clockUnix = resolved?.clockUnix;
    const clockSeconds = definition.clockSeconds ?? 1;
    const nowUnix = clockUnix ?? Math.floor(startedAtUnix / clockSeconds) * clockSeconds;
    const functions = {
      ...(prepared.recorder !== undefined && { onExchange: prepared.recorder.onExchange }),
      signal: stop.signal,
      ...(definition.onClientEvent !== undefined && { onEvent: definition.onClientEvent }),
    };
    const connection = await connectionOf(command, options, prepared.client, resolved, functions);
    const { deployment, clientOptions } = connection;
    resolved = connection.resolved;
    if (resolved !== undefined) {
      await beginRecording(prepared.recorder, {
        service: resolved.service,
        clockUnix: nowUnix,
        naming: deployment.naming,
        paths: clientOptions.paths as Readonly<Record<string, string>>,
      });
      client = makeClient(command, clientOptions);
      if (options.namingAuto !== true) await checkNaming(command, resolved, clientOptions);
    }
    const job: Job<C> = {
      command,
      checked,
      signal: stop.signal,
      stop,
      breaker,
      secrets,
      startedAtUnix,
      get service() {
        return resolved?.service ?? missing(command, "service (it talks to none)");
      },
      sandboxInProcess: resolved?.sandbox !== undefined,
      clockUnix,
      nowUnix,
      get client() {
        return client ?? missing(command, "client (it talks to no service)");
      },
      clientOptions,
      deployment,
      get store() {
        return store ?? missing(command, "store (it writes none)");
      },
      database,
      lake: options.lake,
      recorder: prepared.recorder,
      durationMs: () => Math.round(performance.now() - started),
      get runId() {
        return run?.id;
      },
      startRun: async (args) => {
        run = await startRun(job.store, { command, args, secrets, startedAtUnix });
        return run;
      },
      finishRun: async (end) => {
        if (run === undefined) throw new Error(`${command}: finishRun before startRun`);
        runFinished = true;
        await finishRun(job.store, run, end);
      },
      failuresSoFar: () => [],
      defer: (close) => void closers.unshift(close),
      recordReplaySummary: async () => ({
        ...(prepared.recorder !== undefined && { record: await prepared.recorder.finish() }),
        ...(resolved?.replay !== undefined && { replay: await resolved.replay.report() }),
      }),
      redact: (value) => withoutSecrets(value, secrets) as typeof value,
    };
    try {
      return await body(job);
    } catch (error) {
      if (run !== undefined && !runFinished) await finishFailedRun(job, run, error, options.signal);
      throw stoppedError(definition, job, options.signal, error);
    }
  } finally {
    stop.dispose();
    for (const close of closers) await close();
    await client?.close();
    await resolved?.sandbox?.close();
    await resolved?.replay?.close();
    await prepared.recorder?.finish().catch(() => {}); // its failure, if any, was reported above
    await store?.close();
  }
}

/**
 * Where the job writes, with its deadline: the options' checks that need nothing opened. A lake's
 * folder is prepared here, so that files pathlab did not make are refused before anything opens.
 */
function placeOf<O extends JobOptions, C>(definition: JobDefinition<O, C>, options: O) {
  const { command } = definition;
  const deadlineMs = options.deadlineMs ?? definition.defaultDeadlineMs;
  if (deadlineMs !== undefined && !(Number.isFinite(deadlineMs) && deadlineMs > 0)) {
    throw new UsageError(`${command}: deadlineMs: expected a number of ms > 0, got ${deadlineMs}`);
  }
  const writes = definition.writes !== "nothing";
  if (writes && options.lake !== undefined && options.database !== undefined) {
    throw new UsageError(`${command}: --lake and --db name two places to write; give one`);
  }
  const database = options.lake === undefined ? (options.database ?? DEFAULT_DATABASE) : ":memory:";
  if (writes && options.lake !== undefined) prepareLake(options.lake);
  return { deadlineMs, database, writes };
}

/**
 * The deployment and the client's options: with `namingAuto` against a service, the naming it
 * answers in (asked once), which the resolved service then reports.
 */
async function connectionOf(
  command: string,
  options: JobOptions,
  deployment: Deployment,
  resolved: ResolvedService | undefined,
  functions: Partial<ClientOptions>,
): Promise<{ deployment: Deployment; clientOptions: ClientOptions; resolved?: ResolvedService }> {
  const clientOptions = clientOptionsOf(command, options, deployment, resolved, functions);
  if (options.namingAuto !== true || resolved?.service.kind !== "service" || resolved.replay) {
    return { deployment, clientOptions, resolved };
  }
  const found: "live" | "neutral" = (await speaksLiveNaming(clientOptions)) ? "live" : "neutral";
  const named = { ...deployment, naming: found === "live" ? liveNaming : neutralNaming };
  const reported: ResolvedService = {
    ...resolved,
    service: { ...resolved.service, namingFound: found },
  };
  return {
    deployment: named,
    clientOptions: clientOptionsOf(command, options, named, reported, functions),
    resolved: reported,
  };
}

/**
 * What a job's body that threw ends with: a `JobStoppedError` when its deadline or breaker
 * stopped it, a `JobInterruptedError` when its signal aborted it and the definition words that,
 * else the body's error as it is.
 */
function stoppedError<O extends JobOptions, C>(
  definition: JobDefinition<O, C>,
  job: Job<C>,
  signal: AbortSignal | undefined,
  error: unknown,
): unknown {
  if (job.stop.stoppedEarly) {
    const why = job.stop.message as string;
    const message = definition.interruptedMessage?.(job, why) ?? `${definition.command}: ${why}`;
    return new JobStoppedError(message, { cause: error });
  }
  if (signal?.aborted !== true || definition.interruptedMessage === undefined) return error;
  return new JobInterruptedError(definition.interruptedMessage(job, "interrupted"), {
    cause: error,
  });
}

/** The job's client options: the defaults, the caller's, the deployment's and the service's. */
function clientOptionsOf(
  command: string,
  options: JobOptions,
  deployment: Deployment,
  resolved: ResolvedService | undefined,
  functions: Partial<ClientOptions>,
): ClientOptions {
  const service = { baseUrl: resolved?.service.baseUrl ?? "", apiKey: resolved?.apiKey ?? "" };
  try {
    return { ...jobClientOptions(options.client, deployment, service), ...functions };
  } catch (error) {
    throw usageOf(command, error);
  }
}

/** The client; the caller's naming or paths that the client refuses are usage errors. */
function makeClient(command: string, options: ClientOptions): PathlabClient {
  try {
    return createClient(options);
  } catch (error) {
    throw usageOf(command, error);
  }
}

function usageOf(command: string, error: unknown): unknown {
  return error instanceof TypeError ? new UsageError(`${command}: ${error.message}`) : error;
}

function missing(command: string, what: string): never {
  throw new Error(`${command}: this run has no ${what}`);
}

/**
 * Finishes the run of a body that threw: `interrupted` when the signal aborted it (the signal's
 * reason says what interrupted it, as the CLI's "… interrupted (SIGTERM)"), else `failed`, with
 * the failures found so far and the reason (what stopped the job, when its deadline or breaker
 * did).
 */
async function finishFailedRun<C>(
  job: Job<C>,
  run: Run,
  error: unknown,
  signal: AbortSignal | undefined,
): Promise<void> {
  const interrupted = signal?.aborted === true;
  const cause: unknown = interrupted
    ? signal!.reason
    : job.stop.stoppedEarly
      ? new Error(`${job.command}: ${job.stop.message}`)
      : error;
  const reason =
    interrupted && !(cause instanceof Error)
      ? "interrupted"
      : cause instanceof Error
        ? cause.message
        : String(cause);
  await finishRun(job.store, run, {
    status: interrupted ? "interrupted" : "failed",
    failures: [...job.failuresSoFar(), { reason }],
  });
}
