/**
 * The replay server's worker thread: serves the recording it was given (`startReplayServer`),
 * reports its address, answers for its report, and closes when asked (`serveFromThread`).
 * Started through `workerEntry` (`replayThread.mjs` from the sources); see `replayOnThread.ts`.
 */

import { startReplayServer, type ReplayReport } from "./replay.ts";
import { serveFromThread } from "./serviceThread.ts";

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

await serveFromThread(
  startReplayServer,
  (server) => ({ url: server.url }),
  async (server): Promise<ReplayThreadMessage> => ({
    type: "report",
    report: await server.report(),
  }),
);
