// Development entry of the embedded sandbox's worker thread, used when pathlab runs from its
// TypeScript sources (src/domain/devWorker.mjs says how). The compiled package starts
// `sandboxThread.js` directly (src/domain/workerEntry.ts) and ships no shim.
import { workerModule } from "../domain/devWorker.mjs";

await workerModule(import.meta.url, "sandboxThread");
