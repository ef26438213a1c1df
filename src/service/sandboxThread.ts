/**
 * The embedded sandbox's worker thread: starts the sandbox with the options it was given, reports
 * its address, and closes it when asked. Started through `workerEntry` (`sandboxThread.mjs` from the sources); see `embeddedSandbox.ts`.
 */

import { parentPort, workerData } from "node:worker_threads";
import { startSandbox, type StartSandboxOptions } from "../sandbox/startSandbox.ts";

/**
 * What the thread posts to its parent: `ready` with the sandbox's address once it listens, `error`
 * when it cannot start, `faults` after a `faults` request (with the parser's error, if any),
 * `closed` after a `close` request.
 * @example const message: SandboxThreadMessage = { type: "closed" };
 */
export type SandboxThreadMessage =
  | { readonly type: "ready"; readonly url: string; readonly now: string; readonly seed: number }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "faults"; readonly error?: string }
  | { readonly type: "closed" };

/**
 * What the parent posts to the thread: replace the fault rules (text form), or close.
 * @example const request: SandboxThreadRequest = { type: "faults", faults: "5xx=0.2" };
 */
export type SandboxThreadRequest =
  { readonly type: "faults"; readonly faults: string } | { readonly type: "close" };

const port = parentPort;
if (port !== null) {
  const post = (message: SandboxThreadMessage) => port.postMessage(message);
  try {
    const sandbox = await startSandbox(workerData as StartSandboxOptions);
    port.on("message", (request: SandboxThreadRequest) => {
      if (request.type === "close") {
        void sandbox.close().then(() => post({ type: "closed" }));
      } else if (request.type === "faults") {
        try {
          sandbox.setFaults(request.faults);
          post({ type: "faults" });
        } catch (error) {
          post({ type: "faults", error: (error as Error).message });
        }
      }
    });
    post({ type: "ready", url: sandbox.url, now: sandbox.now, seed: sandbox.seed });
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
}
