// Development entry of the embedded sandbox's worker thread, used when pathlab runs from its
// TypeScript sources (vitest, tsx): a worker starts as plain Node, which cannot load `.ts`, so this
// registers tsx's ESM loader in the thread, then imports the module. The compiled package starts
// `sandboxThread.js` directly (src/domain/workerEntry.ts) and ships no shim.
const { register } = await import("tsx/esm/api");
register();
await import("./sandboxThread.ts");
