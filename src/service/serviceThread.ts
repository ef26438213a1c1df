/**
 * A server on a worker thread of its own, both sides: the embedded sandbox (`embeddedSandbox.ts`,
 * `sandboxThread.ts`) and a replay (`replayOnThread.ts`, `replayThread.ts`). The thread posts
 * `ready` once it listens (or `error`), answers each request with a message of an agreed type, in
 * order, and posts `closed` after `{ type: "close" }`.
 */

import { parentPort, Worker, workerData } from "node:worker_threads";
import { workerEntry } from "../domain/workerEntry.ts";

/** A message of such a thread: `ready`, `error` (with its `message`), `closed`, or its own. */
interface ThreadMessage {
  readonly type: string;
  readonly message?: string;
}

/**
 * A started server thread: its `ready` message, a request answered by the thread's next message
 * of a type, and its close.
 * @example const report = await thread.ask({ type: "report" }, "report");
 */
export interface ServiceThread<Message extends ThreadMessage, Request> {
  readonly ready: Message & { readonly type: "ready" };
  /**
   * Posts `request` and resolves with the thread's next message of `type` (requests of one type
   * are answered in the order they were posted); rejects, with the thread's error as the cause
   * when it had one, once the thread has stopped.
   */
  ask<Type extends Message["type"]>(
    request: Request,
    type: Type,
  ): Promise<Message & { readonly type: Type }>;
  /** Asks the server to close, then stops the thread; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the worker `name` beside the module at `moduleUrl` (`workerEntry`) with `workerData`,
 * and resolves once it posts `ready`. Rejects with an Error that names `what` and the cause when
 * the thread posts `error` or anything else first, fails, or exits.
 * @example const thread = await startServiceThread(import.meta.url, "replayThread", data, "the replay server");
 */
export async function startServiceThread<Message extends ThreadMessage, Request>(
  moduleUrl: string,
  name: string,
  workerData: unknown,
  what: string,
): Promise<ServiceThread<Message, Request | { readonly type: "close" }>> {
  const worker = new Worker(workerEntry(moduleUrl, name), { workerData });
  /** Why the thread stopped, once it has; then every request is refused with it. */
  let stopped: Error | undefined;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;
  const waiting = new Map<string, { resolve: (message: Message) => void; reject: () => void }[]>();
  const ready = new Promise<Message & { type: "ready" }>((resolve, reject) => {
    const fail = (reason: string, cause?: unknown) => {
      void worker.terminate();
      reject(new Error(`${what} did not start: ${reason}`, { cause }));
    };
    worker.on("message", (message: Message) => {
      if (message.type === "ready") return resolve(message as Message & { type: "ready" });
      if (message.type === "error") return fail(message.message ?? "no reason given");
      waiting.get(message.type)?.shift()?.resolve(message);
    });
    worker.on("error", (error) => {
      failure = error;
      fail(error.message, error);
    });
    worker.once("exit", (code) => {
      stopped =
        closing !== undefined && failure === undefined
          ? new Error(`${what} was closed`)
          : new Error(`${what}'s thread stopped (exit code ${code})`, { cause: failure });
      fail(`its thread exited with code ${code}`, failure);
      for (const waiters of waiting.values())
        for (const waiter of waiters.splice(0)) waiter.reject();
    });
  });
  const ask = <Type extends string>(request: unknown, type: Type) =>
    new Promise<Message & { type: Type }>((resolve, reject) => {
      if (stopped !== undefined) return reject(stopped);
      const waiters = waiting.get(type) ?? [];
      waiting.set(type, waiters);
      waiters.push({
        resolve: resolve as (message: Message) => void,
        reject: () => reject(stopped),
      });
      worker.postMessage(request);
    });
  const started = await ready;
  return {
    ready: started,
    ask,
    close() {
      closing ??= (async () => {
        if (stopped !== undefined) return;
        await ask({ type: "close" }, "closed").catch(() => {});
        await worker.terminate();
      })();
      return closing;
    },
  };
}

/**
 * The thread's side: starts the server with `start(workerData)` and posts `ready` with
 * `ready(server)`'s fields, or `error` with why it could not start; then answers each request
 * with `answer(server, request)`, and a `close` by closing the server and posting `closed`. Does
 * nothing outside a worker thread.
 * @example await serveFromThread(startSandbox, (sandbox) => ({ url: sandbox.url }), answerFaults);
 */
export async function serveFromThread<
  Server extends { close(): Promise<void> },
  Request extends { readonly type: string },
>(
  start: (data: never) => Promise<Server>,
  ready: (server: Server) => object,
  answer: (server: Server, request: Request) => Promise<ThreadMessage> | ThreadMessage,
): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const post = (message: ThreadMessage) => port.postMessage(message);
  try {
    const server = await start(workerData as never);
    port.on("message", (request: Request | { readonly type: "close" }) => {
      if (request.type === "close") void server.close().then(() => post({ type: "closed" }));
      else void Promise.resolve(answer(server, request as Request)).then(post);
    });
    post({ type: "ready", ...ready(server) });
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
}
