/**
 * A server on a worker thread of its own, the parent's side: the embedded sandbox
 * (`embeddedSandbox.ts`) and a replay (`replayOnThread.ts`). The thread posts `ready` once it
 * listens (or `error`), answers each request with a message of an agreed type, and posts `closed`
 * after `{ type: "close" }`.
 */

import { Worker } from "node:worker_threads";
import { workerEntry } from "../domain/workerEntry.ts";

/** The messages every such thread posts, beside its own. */
type ThreadMessage =
  | { readonly type: "ready" }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "closed" };

/**
 * A started server thread: its `ready` message, a request answered by the thread's next message
 * of a type, and its close.
 * @example const report = await thread.ask({ type: "report" }, "report");
 */
export interface ServiceThread<Message extends { readonly type: string }, Request> {
  readonly ready: Message & { readonly type: "ready" };
  /**
   * Posts `request` and resolves with the thread's next message of `type`; rejects when the
   * thread exits first.
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
 * @example const thread = await startServiceThread(import.meta.url, "replayThread", recording, "the replay server");
 */
export async function startServiceThread<
  Message extends ThreadMessage | { readonly type: string },
  Request,
>(
  moduleUrl: string,
  name: string,
  workerData: unknown,
  what: string,
): Promise<ServiceThread<Message, Request | { readonly type: "close" }>> {
  const worker = new Worker(workerEntry(moduleUrl, name), { workerData });
  let exited = false;
  const exit = new Promise<number>((resolve) =>
    worker.once("exit", (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const ready = await new Promise<Message & { type: "ready" }>((resolve, reject) => {
    const fail = (reason: string, cause?: unknown) => {
      void worker.terminate();
      reject(new Error(`${what} did not start: ${reason}`, { cause }));
    };
    worker.once("message", (message: ThreadMessage) => {
      if (message.type === "ready") resolve(message as Message & { type: "ready" });
      else fail(message.type === "error" ? message.message : `unexpected ${message.type}`);
    });
    worker.once("error", (error) => fail(error.message, error));
    void exit.then((code) => fail(`its thread exited with code ${code}`));
  });
  const ask = <Type extends string>(request: unknown, type: Type) =>
    new Promise<Message & { type: Type }>((resolve, reject) => {
      const take = (message: Message) => {
        if (message.type !== type) return;
        worker.off("message", take);
        resolve(message as Message & { type: Type });
      };
      worker.on("message", take);
      void exit.then((code) => reject(new Error(`${what}'s thread exited with code ${code}`)));
      worker.postMessage(request);
    });
  let closing: Promise<void> | undefined;
  return {
    ready,
    ask,
    close() {
      closing ??= (async () => {
        if (exited) return;
        await ask({ type: "close" }, "closed").catch(() => {});
        await worker.terminate();
      })();
      return closing;
    },
  };
}
