// Development entry of the sandbox's compute threads, used when pathlab runs from its TypeScript
// sources: as src/scoring/scoringWorker.mjs, which says why. Piscina takes the default export.
// The compiled package starts `computeThread.js` directly (src/domain/workerEntry.ts).
const { register } = await import("tsx/esm/api");
register();
const worker = await import("./computeThread.ts");
export default worker.default;
