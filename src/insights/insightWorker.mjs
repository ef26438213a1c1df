// Entry of the insight pool's worker threads (src/insights/insightPool.ts). As the scoring pool's
// (src/scoring/scoringWorker.mjs, which says why): TypeScript is made loadable in the thread by
// registering tsx's ESM loader, then the worker module is imported. It imports no CommonJS
// package, so V8's ArrayBufferDetaching protector stays intact in this thread.
const { register } = await import("tsx/esm/api");
register();
await import("./insightWorker.ts");
