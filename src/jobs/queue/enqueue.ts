/**
 * `pathlab enqueue score` and `pathlab enqueue sync`: plan the score units (prompts) or the sync
 * units (forecasts) of a range against the service (or the embedded sandbox of a seed and clock)
 * and put them on the queue, where `pathlab worker` processes run them into a lake.
 */

import type { ServiceChoice } from "../../service/resolveService.ts";
import type { ConnectionOptions } from "bullmq";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { isoSeconds } from "../../domain/time.ts";
import { runJob } from "../harness/runJob.ts";
import { checkScoreOptions, type ScoreOptions } from "../score/options.ts";
import { planSyncUnits } from "../sync/plan.ts";
import { noForecastStarts, syncRangeOf } from "../sync/range.ts";
import { UsageError } from "../../service/usageError.ts";
import { planQueuedSyncUnits } from "../sync/queueUnit.ts";
import { planScoreUnits, type ScoreUnit, type UnitService } from "../score/queueUnit.ts";
import {
  DEFAULT_QUEUE,
  enqueueUnits,
  reachRedis,
  redisConnection,
  type QueueUnit,
} from "./enqueueUnits.ts";
import { startWatch, type ScoreWatch, type SyncWatch } from "./watch.ts";

/**
 * Options of {@link runEnqueueScore}: the range and selection of `score` (no candidate: a queued
 * unit scores the network's miners), and the queue.
 * @example const options: EnqueueScoreOptions = { from, to, redis: "redis://127.0.0.1:6379" };
 */
export interface EnqueueScoreOptions
  extends
    ServiceChoice,
    Pick<
      ScoreOptions,
      "from" | "to" | "competition" | "assets" | "miners" | "ownOnly" | "client" | "eraSettings"
    > {
  /** The Redis server holding the queue, e.g. `redis://127.0.0.1:6379`. */
  readonly redis: string;
  /** The queue's name (default `pathlab`). */
  readonly queue?: string;
}

/**
 * What {@link runEnqueueScore} did.
 * @example const { added, present, units } = await runEnqueueScore(options);
 */
export interface EnqueueSummary {
  readonly queue: string;
  /** Units planned over the range. */
  readonly units: number;
  /** Of them, put on the queue now. */
  readonly added: number;
  /** Of them, already on the queue (waiting, running, done or failed): left as they were. */
  readonly present: number;
  /** The service the units are computed against (no key). */
  readonly service: UnitService;
}

/**
 * Plans the units of the range (as `pathlab score` would score them) and enqueues them. Throws
 * `UsageError` for options that cannot work.
 * @param options - the range and selection of `score`, the service, and the Redis server and queue
 *   name.
 * @example const summary = await runEnqueueScore({ from, to, redis: "redis://127.0.0.1:6379", now });
 */
export async function runEnqueueScore(options: EnqueueScoreOptions): Promise<EnqueueSummary> {
  return enqueuePromptUnits(options, (unit) => unit);
}

/**
 * Plans the score units of the range (`planScoreUnits`, the options checked as `score` checks
 * them), makes each the unit `unitOf` gives, and enqueues them: `enqueue score` and
 * `enqueue backtest`. Throws `UsageError` for options that cannot work.
 * @param options - the range and selection of `score`, the service, and the queue.
 * @param unitOf - the unit to enqueue for a prompt's score unit.
 * @example const summary = await enqueuePromptUnits(options, (unit) => unit);
 */
export async function enqueuePromptUnits(
  options: EnqueueScoreOptions,
  unitOf: (unit: ScoreUnit) => QueueUnit,
): Promise<EnqueueSummary> {
  const checked = checkScoreOptions(options);
  const connection = connectionOf(options.redis);
  await reachRedis(options.redis);
  return withUnitService(options, async ({ client, service, nowUnix }) => {
    const planned = await planScoreUnits(client, checked, {
      nowUnix,
      assets: options.assets,
      service,
      eraSettings: options.eraSettings,
    });
    const units = planned.map(unitOf);
    const name = options.queue ?? DEFAULT_QUEUE;
    const { added, present } = await enqueueUnits(connection, name, units);
    return { queue: name, units: units.length, added, present, service };
  });
}

/**
 * Options of {@link runEnqueueSync}: the range and selection of `sync --from --to`, and the queue.
 * @example const options: EnqueueSyncOptions = { from, to, assets: ["BTC"], horizons: ["1h"], redis: "redis://127.0.0.1:6379" };
 */
export interface EnqueueSyncOptions
  extends ServiceChoice, Pick<EnqueueScoreOptions, "client" | "redis" | "queue"> {
  /** The first forecast start (ISO 8601), included. */
  readonly from: string;
  /** The last forecast start (ISO 8601), included. */
  readonly to: string;
  /** Assets (default: every asset with path sets, as `sync`). */
  readonly assets?: readonly string[];
  /** Horizons (default both). */
  readonly horizons?: readonly string[];
}

/**
 * Plans the sync units of the range (as `pathlab sync --from --to` would sync them: one per asset,
 * horizon and forecast start the service lists) and enqueues them. Throws `UsageError` for
 * options that cannot work.
 * @param options - the range, assets and horizons, the service, and the Redis server and queue
 *   name.
 * @example const summary = await runEnqueueSync({ from, to, assets: ["BTC"], redis: "redis://127.0.0.1:6379", now });
 */
export async function runEnqueueSync(options: EnqueueSyncOptions): Promise<EnqueueSummary> {
  const range = syncRangeOf(options.from, options.to, "enqueue sync")!;
  const connection = connectionOf(options.redis);
  await reachRedis(options.redis);
  return withUnitService(options, async ({ client, service, nowUnix }) => {
    const units = await planQueuedSyncUnits(client, {
      assets: options.assets,
      horizons: options.horizons,
      range,
      nowUnix,
      service,
    });
    if (units.length === 0) {
      const plans = planSyncUnits(options.assets, options.horizons);
      throw noForecastStarts("enqueue sync", plans, range, nowUnix);
    }
    const name = options.queue ?? DEFAULT_QUEUE;
    const { added, present } = await enqueueUnits(connection, name, units);
    return { queue: name, units: units.length, added, present, service };
  });
}

/**
 * Installs a sync watch on the queue (see `watch.ts`): every `everySeconds` a worker enqueues the
 * sync units of the forecasts that started in the last `lookbackHours`, each once. Resolves to
 * the watch's id and the service it follows.
 * @example const { id } = await runEnqueueSyncWatch({ redis: "redis://127.0.0.1:6379", assets: ["BTC"] });
 */
export async function runEnqueueSyncWatch(
  options: Omit<EnqueueSyncOptions, "from" | "to"> & WatchCadence,
): Promise<{ id: string; queue: string; service: UnitService }> {
  const { everySeconds, lookbackHours } = checkCadence(options, "enqueue sync --watch");
  // the selection is checked as sync checks it
  planSyncUnits(options.assets, options.horizons);
  const connection = connectionOf(options.redis);
  await reachRedis(options.redis);
  return withUnitService(options, async ({ service }) => {
    const watch: SyncWatch = {
      kind: "sync watch",
      assets: options.assets ?? null,
      horizons: options.horizons ?? null,
      lookbackSeconds: Math.round(lookbackHours * 3600),
      service,
    };
    const name = options.queue ?? DEFAULT_QUEUE;
    const id = await startWatch(connection, name, watch, everySeconds * 1000);
    return { id, queue: name, service };
  });
}

/**
 * A watch's rhythm.
 * @example const cadence: WatchCadence = { everySeconds: 60, lookbackHours: 2 };
 */
export interface WatchCadence {
  /** Seconds between ticks (default 60). */
  readonly everySeconds?: number;
  /** Hours of starts each tick looks back over (default 2). */
  readonly lookbackHours?: number;
}

/** The cadence with its defaults; throws `UsageError` naming the option out of range. */
function checkCadence(
  cadence: WatchCadence,
  command: string,
): { everySeconds: number; lookbackHours: number } {
  const everySeconds = cadence.everySeconds ?? 60;
  const lookbackHours = cadence.lookbackHours ?? 2;
  if (!(Number.isInteger(everySeconds) && everySeconds >= 1)) {
    throw new UsageError(`${command}: --every: expected whole seconds ≥ 1, got ${everySeconds}`);
  }
  if (!(lookbackHours > 0 && lookbackHours <= 24 * 10)) {
    throw new UsageError(
      `${command}: --lookback: expected hours in (0, 240], got ${lookbackHours}`,
    );
  }
  return { everySeconds, lookbackHours };
}

/**
 * Options of {@link runEnqueueWatch}: the selection of `score`, the queue, and the watch's rhythm.
 * @example const options: EnqueueWatchOptions = { redis, competition: "crypto-24h", everySeconds: 60, lookbackHours: 2 };
 */
export type EnqueueWatchOptions = Omit<EnqueueScoreOptions, "from" | "to"> & WatchCadence;

/**
 * Installs a watch on the queue (see `watch.ts`): the workers then enqueue and score each new prompt
 * of the selection as it is scored. Resolves to the watch's id and the service it follows.
 * @example const { id } = await runEnqueueWatch({ redis: "redis://127.0.0.1:6379", competition: "crypto-24h" });
 */
export async function runEnqueueWatch(
  options: EnqueueWatchOptions,
): Promise<{ id: string; queue: string; service: UnitService }> {
  const { everySeconds, lookbackHours } = checkCadence(options, "enqueue watch");
  // The selection is checked as score checks it, over a one-minute range.
  const now = new Date().toISOString();
  const checked = checkScoreOptions({ ...options, from: now, to: now });
  const connection = connectionOf(options.redis);
  await reachRedis(options.redis);
  return withUnitService(options, async ({ service }) => {
    const watch: ScoreWatch = {
      kind: "watch",
      competitions: checked.competitions,
      assets: options.assets ?? null,
      miners: checked.miners,
      ownOnly: checked.ownOnly,
      lookbackSeconds: Math.round(lookbackHours * 3600),
      eraSettings: options.eraSettings ?? {},
      service,
    };
    const name = options.queue ?? DEFAULT_QUEUE;
    const id = await startWatch(connection, name, watch, everySeconds * 1000);
    return { id, queue: name, service };
  });
}

function connectionOf(url: string): ConnectionOptions {
  try {
    return redisConnection(url);
  } catch (error) {
    throw new UsageError(`enqueue: ${(error as Error).message}`);
  }
}

/**
 * Runs `work` with a client of the service the options name (the embedded sandbox, started for
 * the while, or the service at `baseUrl`), the {@link UnitService} that units carry to reach it
 * again, and the service's clock.
 * @example await withUnitService({ now, seed: 42 }, async ({ client, nowUnix }) => …);
 */
export async function withUnitService<T>(
  options: ServiceChoice & Pick<EnqueueScoreOptions, "client">,
  work: (context: { client: PathlabClient; service: UnitService; nowUnix: number }) => Promise<T>,
): Promise<T> {
  const definition = { command: "enqueue", check: () => undefined, writes: "nothing" as const };
  return runJob(definition, options, async (job) => {
    // the job's deployment: the caller's, or what `--naming auto` found
    const deployment = {
      ...(job.deployment.naming !== undefined && { naming: job.deployment.naming }),
      ...(options.client?.paths !== undefined && { paths: options.client.paths }),
    };
    const { service, nowUnix } = job;
    const unitService: UnitService =
      service.kind === "embedded sandbox"
        ? {
            kind: "sandbox",
            seed: service.seed!,
            now: isoSeconds(nowUnix),
            ...(service.miners !== undefined && { miners: service.miners }),
            ...deployment,
          }
        : { kind: "service", baseUrl: service.baseUrl, ...deployment };
    return work({ client: job.client, service: unitService, nowUnix });
  });
}
