/**
 * `pathlab enqueue score`: plans the score units of a range against the service (or the embedded
 * sandbox of a seed and clock) and puts them on the queue, where `pathlab worker` processes run
 * them into a lake.
 */

import { createClient } from "../../client/create-client.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { isoSeconds } from "../../spec/time.ts";
import { resolveService, secretsOf } from "../resolveService.ts";
import { checkScoreOptions, type ScoreOptions } from "../score/scoreOptions.ts";
import { SyncUsageError } from "../syncUsageError.ts";
import { planScoreUnits, type UnitService } from "./scoreUnits.ts";
import { enqueueUnits, redisConnection } from "./unitQueue.ts";

/**
 * Options of {@link runEnqueueScore}: the range and selection of `score` (no candidate: a queued
 * unit scores the network's miners), and the queue.
 * @example const options: EnqueueScoreOptions = { from, to, redis: "redis://127.0.0.1:6379" };
 */
export interface EnqueueScoreOptions extends Pick<
  ScoreOptions,
  | "from"
  | "to"
  | "competition"
  | "assets"
  | "miners"
  | "ownOnly"
  | "baseUrl"
  | "apiKey"
  | "now"
  | "seed"
  | "client"
  | "eraSettings"
> {
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
 * `SyncUsageError` for options that cannot work.
 * @example const summary = await runEnqueueScore({ from, to, redis: "redis://127.0.0.1:6379", now });
 */
export async function runEnqueueScore(options: EnqueueScoreOptions): Promise<EnqueueSummary> {
  const checked = checkScoreOptions(options);
  let connection;
  try {
    connection = redisConnection(options.redis);
  } catch (error) {
    throw new SyncUsageError(`enqueue: ${(error as Error).message}`);
  }
  const secrets = secretsOf(options.apiKey);
  const resolved = await resolveService(options, secrets);
  let client: PathlabClient | undefined;
  try {
    const deployment = {
      ...(options.client?.naming !== undefined && { naming: options.client.naming }),
      ...(options.client?.paths !== undefined && { paths: options.client.paths }),
    };
    client = createClient({
      maxRetries: 4,
      concurrency: 8,
      ...deployment,
      baseUrl: resolved.service.baseUrl,
      apiKey: resolved.apiKey,
    });
    const nowUnix = resolved.clockUnix ?? Math.floor(Date.now() / 1000);
    const service: UnitService =
      resolved.sandbox !== undefined
        ? {
            kind: "sandbox",
            seed: resolved.sandbox.seed,
            now: isoSeconds(nowUnix),
            ...deployment,
          }
        : { kind: "service", baseUrl: resolved.service.baseUrl, ...deployment };
    const units = await planScoreUnits(client, checked, {
      nowUnix,
      assets: options.assets,
      service,
      eraSettings: options.eraSettings,
    });
    const name = options.queue ?? "pathlab";
    const { added, present } = await enqueueUnits(connection, name, units);
    return { queue: name, units: units.length, added, present, service };
  } finally {
    await client?.close();
    await resolved.sandbox?.close();
  }
}
