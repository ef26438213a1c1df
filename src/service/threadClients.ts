/**
 * The clients of a unit pool thread: one per set of client options, made on the thread's first
 * task with those options and kept for the next ones (a run's tasks share one service).
 */

import { createClient } from "../client/create-client.ts";
import type { ClientEvent } from "../client/events.ts";
import type { ClientOptions } from "../client/options.ts";
import type { PathlabClient } from "../client/pathlab-client.ts";

/**
 * The client options a task carries: every option that is data (the functions of
 * `ClientOptions`, such as `onExchange`, stay on the job's thread).
 */
export type TaskClientOptions = Omit<
  ClientOptions,
  "random" | "dispatcher" | "throttle" | "onEvent" | "onExchange" | "signal"
>;

const clients = new Map<string, PathlabClient>();

let listener: ((event: ClientEvent) => void) | undefined;

/**
 * Sends every event of this thread's clients to `next` from now on (none: to nobody). A thread
 * runs one task at a time: its task listens while it runs.
 * @example listenToThreadClients((event) => port.postMessage(event));
 */
export function listenToThreadClients(next: ((event: ClientEvent) => void) | undefined): void {
  listener = next;
}

/**
 * This thread's client for `options`, made once; its events go to the listener of the moment.
 * @example const client = threadClient({ baseUrl: "http://127.0.0.1:8080" });
 */
export function threadClient(options: TaskClientOptions): PathlabClient {
  const id = JSON.stringify(options);
  let client = clients.get(id);
  if (client === undefined) {
    client = createClient({ ...options, onEvent: (event) => listener?.(event) });
    clients.set(id, client);
  }
  return client;
}
