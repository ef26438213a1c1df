// Development entry of the scoring threads (piscina), used when pathlab runs from its TypeScript
// sources (vitest, tsx, the bench): a worker starts as plain Node, which cannot load `.ts`, so
// this registers tsx's ESM loader in the thread, then imports the worker module; piscina takes
// its default export. It imports no CommonJS package, so tsx's loader detaches no ArrayBuffer and
// V8's ArrayBufferDetaching protector stays intact in the thread (bench/README.md, "the tsx
// penalty"). The compiled package starts `scoringWorker.js` directly (src/domain/workerEntry.ts).
const { register } = await import("tsx/esm/api");
register();
const worker = await import("./scoringWorker.ts");
export default worker.default;
