/**
 * The replay server on a worker thread of its own. A job writes its store on its own thread, in
 * synchronous flushes; a server on that thread could not send a body meanwhile, and the unit
 * threads would wait on it, as they never wait on a service over the network.
 */

import type { LoadedRecording, ReplayServer } from "./replay.ts";
import type { ReplayThreadMessage, ReplayThreadRequest } from "./replayThread.ts";
import { startServiceThread } from "./serviceThread.ts";

/**
 * Starts `startReplayServer` of `recording` in a worker thread, on 127.0.0.1 and any free port,
 * and resolves once it listens. Rejects with an Error naming the cause when the server cannot
 * start or its thread dies.
 * @example
 * const server = await startReplayThread(await loadRecording("rec", "sync"));
 * try { … } finally { await server.close(); }
 */
export async function startReplayThread(recording: LoadedRecording): Promise<ReplayServer> {
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
