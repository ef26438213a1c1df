// Development entry of the insight threads (piscina), used when pathlab runs from its TypeScript
// sources: as src/scoring/scoringWorker.mjs, which says why. The compiled package starts
// `insightWorker.js` directly (src/domain/workerEntry.ts).
const { register } = await import("tsx/esm/api");
register();
const worker = await import("./insightWorker.ts");
export default worker.default;
