/**
 * The embedded sandbox's worker thread: starts the sandbox with the options it was given, reports
 * its address, answers `faults` requests, and closes it when asked (`serveFromThread`). Started
 * through `workerEntry` (`sandboxThread.mjs` from the sources); see `embeddedSandbox.ts`.
 */

import { startSandbox } from "../sandbox/startSandbox.ts";
import { serveFromThread } from "./serviceThread.ts";

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

await serveFromThread(
  startSandbox,
  (sandbox) => ({ url: sandbox.url, now: sandbox.now, seed: sandbox.seed }),
  (sandbox, request: Extract<SandboxThreadRequest, { type: "faults" }>): SandboxThreadMessage => {
    try {
      sandbox.setFaults(request.faults);
      return { type: "faults" };
    } catch (error) {
      return { type: "faults", error: (error as Error).message };
    }
  },
);
