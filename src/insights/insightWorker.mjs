// Development entry of the insight pool's worker threads, used when pathlab runs from its
// TypeScript sources: as src/scoring/scoringWorker.mjs, which says why. The compiled package
// starts `insightWorker.js` directly (src/domain/workerEntry.ts).
const { register } = await import("tsx/esm/api");
register();
await import("./insightWorker.ts");
