/**
 * One sync unit as a task for the unit pool, the pool thread's side: plain data in (the service to
 * reach, the unit's plan, its run, clock and deadline, the units stored already), the unit up to
 * its write out (`fetchCheckedUnit`: fetched, parsed, checked, recomputed and cross-checked on the
 * pool thread, exactly as on the job's thread). The job's thread writes the rows
 * (`syncOnPool.ts`): the store has one writer, and a pool thread loads no DuckDB. What the unit
 * shares with the job goes over the task's channel, a MessagePort: its turns in the fetch lane,
 * its ranking (fetched once by the job for every unit that needs it), each failure as it happens
 * and each response and retry of its client; a last `done` tells the job that nothing follows.
 */

import type { MessagePort } from "node:worker_threads";
import type { ClientEvent } from "../../client/events.ts";
import { fetchCheckedUnit, type CheckedUnit } from "./checkedUnit.ts";
import { syncUnitKey, type SyncUnitPlan } from "./plan.ts";
import type { FetchLane } from "../harness/fetchLane.ts";
import type { UnitRanking } from "./ranking.ts";
import type { SyncFailure } from "./summary.ts";
import {
  listenToThreadClients,
  threadClient,
  type TaskClientOptions,
} from "../../service/threadClients.ts";

/**
 * A sync unit to fetch and check on a pool thread.
 * @example const task: SyncTask = { kind: "sync unit", client, plan, runId: 1, asOfUnix, deadlineMs: 600_000, channel };
 */
export interface SyncTask {
  readonly kind: "sync unit";
  readonly client: TaskClientOptions;
  readonly plan: SyncUnitPlan;
  readonly runId: number | null;
  readonly asOfUnix: number;
  readonly deadlineMs?: number;
  /** The keys (`syncUnitKey`) of the stored units of the plan's asset and horizon it leaves out. */
  readonly storedKeys?: readonly string[];
  /** The unit's channel to the job (`serveUnitChannel` of `syncOnPool.ts`). */
  readonly channel: MessagePort;
}

/**
 * A message of a unit's channel from its pool thread to the job.
 * @example const message: ToJob = { kind: "acquire" };
 */
export type ToJob =
  | { readonly kind: "acquire" | "release" | "ranking" | "done" }
  | { readonly kind: "failure"; readonly failure: SyncFailure }
  | { readonly kind: "event"; readonly event: ClientEvent };

/**
 * A message of a unit's channel from the job to its pool thread: a turn in the lane, or the
 * ranking asked for (or why there is none).
 * @example const message: ToThread = { kind: "granted" };
 */
export type ToThread =
  | { readonly kind: "granted" }
  | { readonly kind: "ranking"; readonly ranking: UnitRanking }
  | { readonly kind: "no ranking"; readonly reason: string };

/**
 * Runs `task` on this thread: its client (made once per thread and options), the job's fetch
 * lane and ranking over the task's channel, and the unit up to its write.
 * @example const checked = await runSyncTask(task);
 */
export async function runSyncTask(task: SyncTask): Promise<CheckedUnit> {
  const job = jobOf(task.channel);
  const stored = task.storedKeys === undefined ? undefined : new Set(task.storedKeys);
  listenToThreadClients((event) => {
    if (event.type === "response" || event.type === "retry") job.send({ kind: "event", event });
  });
  try {
    return await fetchCheckedUnit({
      client: threadClient(task.client),
      runId: task.runId,
      plan: task.plan,
      ranking: job.ranking,
      asOfUnix: task.asOfUnix,
      ...(task.deadlineMs !== undefined && { deadlineMs: task.deadlineMs }),
      onFailure: (failure) => job.send({ kind: "failure", failure }),
      fetchLane: job.lane,
      ...(stored !== undefined && {
        isStored: (startUnix: number) => stored.has(syncUnitKey(task.plan, startUnix)),
      }),
    });
  } finally {
    listenToThreadClients(undefined);
    job.send({ kind: "done" });
    task.channel.close();
  }
}

/** The job as a unit on a pool thread reaches it: over `port`, in order. */
function jobOf(port: MessagePort) {
  const granted: (() => void)[] = [];
  const rankings: { resolve: (ranking: UnitRanking) => void; reject: (error: Error) => void }[] =
    [];
  port.on("message", (message: ToThread) => {
    if (message.kind === "granted") granted.shift()?.();
    else if (message.kind === "ranking") rankings.shift()?.resolve(message.ranking);
    else rankings.shift()?.reject(new Error(message.reason));
  });
  const send = (message: ToJob) => port.postMessage(message);
  const lane: FetchLane = {
    async run<T>(work: () => Promise<T>): Promise<T> {
      await new Promise<void>((resolve) => {
        granted.push(resolve);
        send({ kind: "acquire" });
      });
      try {
        return await work();
      } finally {
        send({ kind: "release" });
      }
    },
  };
  const ranking = () =>
    new Promise<UnitRanking>((resolve, reject) => {
      rankings.push({ resolve, reject });
      send({ kind: "ranking" });
    });
  return { send, lane, ranking };
}
