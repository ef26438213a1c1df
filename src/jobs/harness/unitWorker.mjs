// Development entry of the unit pool's worker threads, used when pathlab runs from its TypeScript
// sources: as src/scoring/scoringWorker.mjs, which says why. Piscina takes the default export.
// The compiled package starts `unitWorker.js` directly (src/domain/workerEntry.ts).
const { register } = await import("tsx/esm/api");
register();
const worker = await import("./unitWorker.ts");
export default worker.default;
