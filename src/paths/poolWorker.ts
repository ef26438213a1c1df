/**
 * The worker-thread plumbing shared by pathlab's pools (the scoring pool, the insight pool):
 * starting a worker with a result channel, and blocking until results arrive.
 */

import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from "node:worker_threads";
import { workerExecArgv } from "./workerExecArgv.ts";

/** How long a worker may take to start before its pool gives up on it. */
const WORKER_START_TIMEOUT_MS = 30_000;

/**
 * A started worker thread: the thread, the main side of its result channel, and its start.
 * @example const { worker, port, ready } = spawnPoolWorker(options);
 */
export interface PoolWorker {
  readonly worker: Worker;
  /** Where the worker posts its results (and its "ready"). */
  readonly port: MessagePort;
  /** Settles when the worker reports it is ready ({@link PoolWorker.markReady}) or fails. */
  readonly ready: Promise<void>;
  /** To call when the worker's "ready" message arrives. */
  readonly markReady: () => void;
  /** Rejects `ready` (no effect once it has settled). */
  readonly failStart: (error: Error) => void;
}

/**
 * What {@link spawnPoolWorker} needs.
 * @example const options: PoolWorkerOptions = { url, pool: "InsightPool", signal, onMessage, onFailure, isRetired };
 */
export interface PoolWorkerOptions {
  /** The worker's entry (`workerEntry` finds it). */
  readonly url: URL;
  /** The pool's name, for error messages. */
  readonly pool: string;
  /** The pool's shared counter, which the worker bumps after each message (in `workerData`). */
  readonly signal: Int32Array;
  /** Every message on the result port. */
  readonly onMessage: (message: unknown) => void;
  /** The worker failed: it did not start within 30 s, threw, or exited unexpectedly. */
  readonly onFailure: (error: Error) => void;
  /** Whether the pool has retired the worker (its exit is then expected). */
  readonly isRetired: () => boolean;
  /** More of the worker's `workerData` (cloned; SharedArrayBuffers are shared). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * Starts a worker thread (`workerData`: `options.data` and `{ port, signal }`, the worker's side
 * of a new result channel and the pool's signal; the parent's Node options as `workerExecArgv`
 * keeps them). Its failures reach `onFailure` and reject `ready`, with a message naming the pool.
 * @example const started = spawnPoolWorker({ url: workerEntry(import.meta.url, "insightWorker"), pool: "InsightPool", signal, onMessage, onFailure, isRetired });
 */
export function spawnPoolWorker(options: PoolWorkerOptions): PoolWorker {
  const { pool } = options;
  const channel = new MessageChannel();
  const worker = new Worker(options.url, {
    execArgv: workerExecArgv(process.execArgv),
    workerData: { ...options.data, port: channel.port2, signal: options.signal },
    transferList: [channel.port2],
  });
  let resolveReady: () => void = () => {};
  let rejectReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {});
  const fail = (error: Error) => {
    clearTimeout(timer);
    rejectReady(error);
    options.onFailure(error);
  };
  const timer = setTimeout(
    () =>
      fail(
        new Error(`${pool} could not start a worker thread within ${WORKER_START_TIMEOUT_MS} ms`),
      ),
    WORKER_START_TIMEOUT_MS,
  );
  timer.unref();
  channel.port1.on("message", options.onMessage);
  worker.on("error", (error: Error) =>
    fail(new Error(`${pool} worker thread failed: ${error.message}`, { cause: error })),
  );
  worker.on("exit", (code) => {
    clearTimeout(timer);
    if (!options.isRetired())
      fail(new Error(`${pool} worker thread exited unexpectedly with code ${code}`));
  });
  worker.ref();
  channel.port1.ref();
  return {
    worker,
    port: channel.port1,
    ready,
    markReady: () => {
      clearTimeout(timer);
      resolveReady();
    },
    failStart: (error) => rejectReady(error),
  };
}

/**
 * Lets a worker keep the process alive only while `busy` (starting, or with work in flight).
 * @example keepAliveWhile(state, state.inFlight > 0);
 */
export function keepAliveWhile(started: Pick<PoolWorker, "worker" | "port">, busy: boolean): void {
  if (busy) {
    started.worker.ref();
    started.port.ref();
  } else {
    started.worker.unref();
    started.port.unref();
  }
}

/**
 * Blocks the calling thread until `done()`: takes the messages waiting on each of `ports`
 * (`receiveMessageOnPort`, so without the event loop) and hands them to `deliver`; in between it
 * calls `help` (work of its own, e.g. a queued job; it returns whether it did any) and sleeps in
 * `Atomics.wait` on the pool's signal only when there was none. Throws an error naming
 * `operation` when neither a message nor `help` has made progress for `idleLimitMs`, after
 * `onIdle` (which should retire the busy workers).
 * @example waitForMessages("InsightPool.prepareRecordsBlocking", signal, ports, deliver, () => settled, 60_000, retireBusy);
 */
export function waitForMessages(
  operation: string,
  signal: Int32Array,
  ports: readonly MessagePort[],
  deliver: (index: number, message: unknown) => void,
  done: () => boolean,
  idleLimitMs: number,
  onIdle: (error: Error) => void,
  help: () => boolean = () => false,
): void {
  let idleSince = performance.now();
  while (!done()) {
    const seen = Atomics.load(signal, 0);
    let received = false;
    ports.forEach((port, index) => {
      for (
        let message = receiveMessageOnPort(port);
        message !== undefined;
        message = receiveMessageOnPort(port)
      ) {
        received = true;
        deliver(index, message.message);
      }
    });
    if (done()) return;
    if (help()) {
      idleSince = performance.now();
      continue;
    }
    if (received) idleSince = performance.now();
    else if (performance.now() - idleSince > idleLimitMs) {
      const error = new Error(
        `${operation}: no result from the workers for ${idleLimitMs / 1000} s`,
      );
      onIdle(error);
      throw error;
    }
    Atomics.wait(signal, 0, seen, 1000);
  }
}

/**
 * Stops workers for good and resolves when they have exited; a start still pending rejects with
 * `error`. The pool marks them retired first, so that their exits are expected.
 * @example await terminatePoolWorkers(workers, new Error("InsightPool was closed"));
 */
export async function terminatePoolWorkers(
  workers: readonly PoolWorker[],
  error: Error,
): Promise<void> {
  await Promise.all(
    workers.map(async (started) => {
      started.failStart(error);
      started.port.close();
      await started.worker.terminate();
    }),
  );
}
