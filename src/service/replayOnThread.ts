/**
 * The replay server on a worker thread of its own. A job writes its store on its own thread, in
 * synchronous flushes; a server on that thread could not send a body meanwhile, and the unit
 * threads would wait on it, as they never wait on a service over the network.
 */

import { startReplayServer, type LoadedRecording, type ReplayServer } from "./replay.ts";
import type { ReplayThreadMessage, ReplayThreadRequest } from "./replayThread.ts";
import { startServiceThread } from "./serviceThread.ts";

/**
 * Starts `startReplayServer` of `recording` in a worker thread, on 127.0.0.1 and any free port,
 * and resolves once it listens. Rejects with an Error naming the cause when the server cannot
 * start or its thread dies. A recording of layout version 1 holds its bodies in memory; it is
 * served from the calling thread instead, so that they are not copied to another.
 * @example
 * const server = await startReplayThread(await loadRecording("rec", "sync"));
 * try { … } finally { await server.close(); }
 */
export async function startReplayThread(recording: LoadedRecording): Promise<ReplayServer> {
  if (recording.exchanges.some((exchange) => exchange.bodyText !== undefined)) {
    return startReplayServer(recording);
  }
  const thread = await startServiceThread<ReplayThreadMessage, ReplayThreadRequest>(
    import.meta.url,
    "replayThread",
    recording,
    "the replay server",
  );
  return {
    url: thread.ready.url,
    report: async () => (await thread.ask({ type: "report" }, "report")).report,
    close: () => thread.close(),
  };
}
