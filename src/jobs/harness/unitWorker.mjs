// Development entry of the unit pool's threads (piscina), when pathlab runs from its TypeScript
// sources (src/domain/devWorker.mjs says how). Piscina takes the default export. The compiled
// package starts `unitWorker.js` directly (src/domain/workerEntry.ts) and ships no shim.
import { workerModule } from "../../domain/devWorker.mjs";

export default (await workerModule(import.meta.url, "unitWorker")).default;
