/**
 * The replay server's worker thread: serves the recording it was given (`startReplayServer`),
 * reports its address, answers for its report, and closes when asked. Started through
 * `workerEntry` (`replayThread.mjs` from the sources); see `replayOnThread.ts`.
 */

import { parentPort, workerData } from "node:worker_threads";
import { startReplayServer, type LoadedRecording, type ReplayReport } from "./replay.ts";

/**
 * What the thread posts to its parent: `ready` with the server's address once it listens, `error`
 * when it cannot start, `report` after a `report` request, `closed` after a `close` request.
 * @example const message: ReplayThreadMessage = { type: "closed" };
 */
export type ReplayThreadMessage =
  | { readonly type: "ready"; readonly url: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "report"; readonly report: ReplayReport }
  | { readonly type: "closed" };

/**
 * What the parent posts to the thread: ask for the report, or close.
 * @example const request: ReplayThreadRequest = { type: "report" };
 */
export type ReplayThreadRequest = { readonly type: "report" } | { readonly type: "close" };

const port = parentPort;
if (port !== null) {
  const post = (message: ReplayThreadMessage) => port.postMessage(message);
  try {
    const server = await startReplayServer(workerData as LoadedRecording);
    port.on("message", (request: ReplayThreadRequest) => {
      if (request.type === "close") {
        void server.close().then(() => post({ type: "closed" }));
      } else {
        void server.report().then((report) => post({ type: "report", report }));
      }
    });
    post({ type: "ready", url: server.url });
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
}
