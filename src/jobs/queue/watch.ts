/**
 * Watching the network on the queue: a BullMQ job scheduler (kept in Redis, so it outlives every
 * process) adds a `plan` job every few seconds; whichever worker takes it plans the score units of
 * the recent prompts (or, for a sync watch, the sync units of the recent forecasts) and enqueues
 * those not on the queue yet. Because a unit's job id is its
 * natural key, a tick adds each prompt once however often it sees it; because each tick looks back
 * over a window (default two hours of prompt starts), workers that were all down for less than the
 * window leave no gap.
 */

import { createHash } from "node:crypto";
import type { ConnectionOptions } from "bullmq";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { Competition } from "../../domain/assets.ts";
import type { EraSettings } from "../../domain/eras.ts";
import { watchWindow } from "../score/rangePrompts.ts";
import type { MinerSelection } from "../score/options.ts";
import { planScoreUnits, type UnitService } from "../score/queueUnit.ts";
import { planQueuedSyncUnits } from "../sync/queueUnit.ts";
import { enqueueUnits, quietQueue } from "./enqueueUnits.ts";

/**
 * The name of the jobs the scheduler adds.
 * @example (await queue.getJobs(["delayed"])).filter((job) => job.name === PLAN_JOB)
 */
export const PLAN_JOB = "plan";

/**
 * What a watch plans at each tick (plain data: it lives in Redis).
 * @example const watch: ScoreWatch = { kind: "watch", competitions: ["crypto-24h"], assets: ["BTC"], miners: { top: 10 }, ownOnly: false, lookbackSeconds: 7200, service };
 */
export interface ScoreWatch {
  readonly kind: "watch";
  readonly competitions: readonly Competition[];
  /** Only these assets; `null`: every asset of the competitions. */
  readonly assets: readonly string[] | null;
  readonly miners: MinerSelection;
  readonly ownOnly: boolean;
  /** How far back each tick looks for prompts that have been scored, in seconds of prompt starts. */
  readonly lookbackSeconds: number;
  readonly eraSettings: EraSettings;
  readonly service: UnitService;
}

/**
 * What a sync watch plans at each tick: the sync units of the forecasts that started in the
 * look-back window before the service's clock.
 * @example const watch: SyncWatch = { kind: "sync watch", assets: ["BTC"], horizons: null, lookbackSeconds: 7200, service };
 */
export interface SyncWatch {
  readonly kind: "sync watch";
  /** Only these assets and horizons; `null`: those `sync` takes by default. */
  readonly assets: readonly string[] | null;
  readonly horizons: readonly string[] | null;
  readonly lookbackSeconds: number;
  readonly service: UnitService;
}

/**
 * The scheduler's id: the competitions and assets, then a digest of the rest of the watch (miners,
 * own-only, look-back, rules, service), so that installing the same watch twice keeps one
 * scheduler (its interval updated) and a watch with other options is another one.
 * @param watch - a score or sync watch, as {@link startWatch} installs it.
 * @example watchId(watch) // => "watch.score.crypto-24h.BTC.3f2a9c41"
 */
export function watchId(watch: ScoreWatch | SyncWatch): string {
  if (watch.kind === "sync watch") {
    const { assets, horizons, ...rest } = watch;
    const digest = createHash("sha256").update(JSON.stringify(rest)).digest("hex").slice(0, 8);
    return [
      "watch.sync",
      (assets ?? ["all"]).join("+"),
      (horizons ?? ["all"]).join("+"),
      digest,
    ].join(".");
  }
  const { competitions, assets, ...rest } = watch;
  const digest = createHash("sha256").update(JSON.stringify(rest)).digest("hex").slice(0, 8);
  return ["watch.score", competitions.join("+"), (assets ?? ["all"]).join("+"), digest].join(".");
}

/**
 * Installs (or updates) the scheduler of `watch` on the queue: a plan job every `everyMs`, the
 * first at once. Resolves to the scheduler's id.
 * @param connection - the Redis server holding the queue.
 * @param name - the queue's name, e.g. `pathlab`.
 * @param watch - what to plan at each tick.
 * @param everyMs - the time between two ticks, in milliseconds.
 * @example await startWatch(connection, "pathlab", watch, 60_000);
 */
export async function startWatch(
  connection: ConnectionOptions,
  name: string,
  watch: ScoreWatch | SyncWatch,
  everyMs: number,
): Promise<string> {
  const queue = quietQueue(name, connection);
  try {
    const id = watchId(watch);
    await queue.upsertJobScheduler(
      id,
      { every: everyMs },
      { name: PLAN_JOB, data: watch, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
    return id;
  } finally {
    await queue.close();
  }
}

/**
 * Removes every watch of the queue (the units already enqueued stay). Resolves to the ids removed.
 * @param connection - the Redis server holding the queue.
 * @param name - the queue's name, e.g. `pathlab`.
 * @example await stopWatches(connection, "pathlab") // => ["watch.score.crypto-24h.BTC"]
 */
export async function stopWatches(connection: ConnectionOptions, name: string): Promise<string[]> {
  const queue = quietQueue(name, connection);
  try {
    const removed: string[] = [];
    for (const scheduler of await queue.getJobSchedulers(0, -1)) {
      if (await queue.removeJobScheduler(scheduler.key)) removed.push(scheduler.key);
    }
    return removed;
  } finally {
    await queue.close();
  }
}

/**
 * One tick of a watch: plans the units of the prompts that started in the look-back window before
 * the service's clock and were scored by then (a sync watch: of the forecasts that started in the
 * window), and enqueues them (those already on the queue are
 * left as they are). Resolves to the counts.
 * @example await runPlanTick(watch, client, nowUnix, connection, "pathlab");
 */
export async function runPlanTick(
  watch: ScoreWatch | SyncWatch,
  client: PathlabClient,
  nowUnix: number,
  connection: ConnectionOptions,
  name: string,
): Promise<{ added: number; present: number }> {
  if (watch.kind === "sync watch") {
    const units = await planQueuedSyncUnits(client, {
      assets: watch.assets ?? undefined,
      horizons: watch.horizons ?? undefined,
      range: { fromUnix: nowUnix - watch.lookbackSeconds, toUnix: nowUnix },
      nowUnix,
      service: watch.service,
    });
    return enqueueUnits(connection, name, units);
  }
  // Per competition: the prompts scored by now that started in the look-back window before.
  let added = 0;
  let present = 0;
  for (const competition of watch.competitions) {
    const units = await planScoreUnits(
      client,
      {
        ...watchWindow(competition, nowUnix, watch.lookbackSeconds),
        competitions: [competition],
        miners: watch.miners,
        ownOnly: watch.ownOnly,
      },
      {
        nowUnix,
        assets: watch.assets ?? undefined,
        service: watch.service,
        eraSettings: watch.eraSettings,
      },
    );
    const counts = await enqueueUnits(connection, name, units);
    added += counts.added;
    present += counts.present;
  }
  return { added, present };
}
