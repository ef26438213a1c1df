// Development entry of the sandbox's compute threads (piscina), when pathlab runs from its
// TypeScript sources (src/domain/devWorker.mjs says how). Piscina takes the default export. The
// compiled package starts `computeThread.js` directly (src/domain/workerEntry.ts), no shim.
import { workerModule } from "../../domain/devWorker.mjs";

export default (await workerModule(import.meta.url, "computeThread")).default;
