/**
 * Sync units on the unit pool, the job's side: the task made from the unit's context, the unit's
 * channel served (its turns in the fetch lane, its ranking, its failures and its client's events
 * as they happen), and its rows written on the job's thread (`writeCheckedUnit`), the store's one
 * writer.
 */

import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { ClientEvent } from "../../client/events.ts";
import type { CheckedUnit } from "./checkedUnit.ts";
import type { FetchLane } from "../harness/fetchLane.ts";
import { emptyUnitSummary, messageOf, unitFailure } from "./unitResults.ts";
import { syncUnitKeyPrefix } from "./plan.ts";
import type { UnitRanking } from "./ranking.ts";
import type { SyncFailure, UnitSummary } from "./summary.ts";
import { writeCheckedUnit, type SyncUnitContext } from "./syncUnit.ts";
import type { ToJob, ToThread } from "./task.ts";
import type { TaskClientOptions } from "../../service/threadClients.ts";
import type { UnitPool } from "../harness/unitPool.ts";

/**
 * What the job answers and receives on a unit's channel.
 * @example const handlers: UnitChannelHandlers = { lane, ranking: () => ranking(plan), onFailure, onClientEvent };
 */
export interface UnitChannelHandlers {
  /** The job's fetch lane; none: every turn is granted at once. */
  readonly lane?: FetchLane;
  readonly ranking: () => Promise<UnitRanking>;
  readonly onFailure: (failure: SyncFailure) => void;
  readonly onClientEvent: (event: ClientEvent) => void;
}

/**
 * The job's side of a unit's channel: the returned `port` goes to the pool thread (its twin stays
 * here). Each `acquire` takes a turn in the lane and answers `granted`, `release` gives it back;
 * `ranking` is answered with the job's ranking; failures and client events are passed on; `done`
 * (which a task sends last, whatever happened) resolves `done`. `close` gives back a turn still
 * held (a thread stopped mid-fetch), passes a turn that comes later straight on, and closes the
 * job's port.
 * @example const channel = serveUnitChannel(handlers); try { … await channel.done; } finally { channel.close(); }
 */
export function serveUnitChannel(handlers: UnitChannelHandlers): {
  port: MessagePort;
  done: Promise<void>;
  close: () => void;
} {
  const { port1, port2 } = new MessageChannel();
  let release: (() => void) | undefined;
  let closed = false;
  let ended = () => {};
  const done = new Promise<void>((resolve) => (ended = resolve));
  const reply = (message: ToThread) => {
    if (!closed) port1.postMessage(message);
  };
  port1.on("message", (message: ToJob) => {
    switch (message.kind) {
      case "acquire":
        if (handlers.lane === undefined) return reply({ kind: "granted" });
        void handlers.lane.run(
          () =>
            new Promise<void>((resolve) => {
              // a turn that comes after the task ended goes straight to the next unit
              if (closed) return resolve();
              release = resolve;
              reply({ kind: "granted" });
            }),
        );
        return;
      case "release":
        release?.();
        release = undefined;
        return;
      case "ranking":
        handlers.ranking().then(
          (ranking) => reply({ kind: "ranking", ranking }),
          (error: unknown) => reply({ kind: "no ranking", reason: messageOf(error) }),
        );
        return;
      case "failure":
        return handlers.onFailure(message.failure);
      case "event":
        return handlers.onClientEvent(message.event);
      case "done":
        return ended();
    }
  });
  return {
    port: port2,
    done,
    close: () => {
      closed = true;
      release?.();
      release = undefined;
      port1.close();
    },
  };
}

/**
 * Runs `context`'s unit with its fetching, checking and recomputing on `pool` (`runSyncTask`) and
 * its write on this thread (`writeCheckedUnit`): the same rows and failures as
 * `syncUnit(context)`, the ranking `context.ranking` gives, the lane `context.fetchLane`, and its
 * client's responses and retries passed to `onClientEvent`. `thread.client` is the client the pool
 * thread makes (data only), and `context.client` is not used; `context.isStored` is read as
 * `thread.storedKeys`. When `context.signal` stops the unit on its thread, it is `interrupted`,
 * with the failures found before; when its thread fails, it is `failed`, with that one failure
 * more.
 * @example const unit = await syncUnitOnPool(pool, context, { client, onClientEvent });
 */
export async function syncUnitOnPool(
  pool: UnitPool,
  context: SyncUnitContext,
  thread: {
    readonly client: TaskClientOptions;
    /** The keys (`syncUnitKey`) of the units stored already, if the unit leaves them out. */
    readonly storedKeys?: ReadonlySet<string>;
    readonly onClientEvent: (event: ClientEvent) => void;
  },
): Promise<UnitSummary> {
  const started = performance.now();
  const { plan, signal } = context;
  let failures = 0;
  const channel = serveUnitChannel({
    ...(context.fetchLane !== undefined && { lane: context.fetchLane }),
    ranking: () => context.ranking(plan),
    // what an interruption cancels is no failure, as on the job's thread
    onFailure: (failure) => {
      if (signal?.aborted) return;
      failures += 1;
      context.onFailure(failure);
    },
    onClientEvent: thread.onClientEvent,
  });
  const ended = (status: UnitSummary["status"], more = 0): UnitSummary => ({
    ...emptyUnitSummary(plan, status),
    failures: failures + more,
    durationMs: Math.round(performance.now() - started),
  });
  let checked: CheckedUnit;
  try {
    // a range's unit is known by its start, checked before it got here; a latest one is not
    const prefix = syncUnitKeyPrefix(plan);
    const storedKeys =
      thread.storedKeys === undefined || plan.startUnix !== undefined
        ? undefined
        : [...thread.storedKeys].filter((key) => key.startsWith(prefix));
    checked = await pool.checkSyncUnit(
      {
        kind: "sync unit",
        client: thread.client,
        plan,
        runId: context.runId,
        asOfUnix: context.asOfUnix,
        ...(context.deadlineMs !== undefined && { deadlineMs: context.deadlineMs }),
        ...(storedKeys !== undefined && { storedKeys }),
        channel: channel.port,
      },
      signal,
    );
    await channel.done; // its failures and events, all passed on
  } catch (error) {
    if (signal?.aborted) return ended("interrupted");
    const reason = `unit not stored: its pool thread failed: ${messageOf(error)}`;
    context.onFailure(unitFailure(plan, "unit", reason));
    return ended("failed", 1);
  } finally {
    channel.close();
  }
  const durationMs = Math.round(performance.now() - started);
  return writeCheckedUnit(context, { ...checked, summary: { ...checked.summary, durationMs } });
}
