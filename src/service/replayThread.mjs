// Development entry of the replay server's worker thread, used when pathlab runs from its
// TypeScript sources (src/domain/devWorker.mjs says how). The compiled package starts
// `replayThread.js` directly (src/domain/workerEntry.ts) and ships no shim.
import { workerModule } from "../domain/devWorker.mjs";

await workerModule(import.meta.url, "replayThread");
