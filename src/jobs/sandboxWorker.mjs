// Entry of the embedded sandbox's worker thread (src/jobs/embeddedSandbox.ts).
//
// pathlab runs its TypeScript sources without a build step, but a worker thread starts as plain
// Node, which cannot load `.ts` files, and does not inherit a loader registered through tsx's API
// (as bin/pathlab.js does). So the worker registers tsx's ESM loader in its own thread, then
// imports the TypeScript module. Registering again where tsx is already active (`node --import
// tsx`, whose flag workers inherit) is harmless, and under vitest it is what makes `.ts` load.
// The sandbox imports no CommonJS package, so tsx's loader detaches no ArrayBuffer in this thread.
const { register } = await import("tsx/esm/api");
register();
await import("./sandboxThread.ts");
