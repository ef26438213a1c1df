// Development entry of a model module's worker threads, used when pathlab runs from its TypeScript
// sources: as src/scoring/scoringWorker.mjs, which says why. Piscina takes the default export.
// The compiled package starts `modelThread.js` directly (src/domain/workerEntry.ts).
const { register } = await import("tsx/esm/api");
register();
const worker = await import("./modelThread.ts");
export default worker.default;
