// Entry of the scoring pool's worker threads (src/scoring/scoringPool.ts).
//
// pathlab runs its TypeScript sources without a build step (tsx for the CLI and the bench, vitest
// for the tests), but a worker thread starts as plain Node, which cannot load `.ts` files. So the
// worker first registers tsx's ESM loader in its own thread, then imports the TypeScript module.
// This works whatever started the process: `bin/pathlab.js` (tsx registered through its API, not
// inherited by workers), `tsx` or `node --import tsx` (the flag is inherited and registering again
// is harmless), or vitest (which transforms TypeScript itself and registers nothing for workers).
// The worker imports only ESM TypeScript modules and no CommonJS package, so tsx's loader never
// detaches an ArrayBuffer here and V8's ArrayBufferDetaching protector stays intact in this
// thread (checked with `--trace-protector-invalidation`; bench/README.md, "the tsx penalty").
const { register } = await import("tsx/esm/api");
register();
await import("./scoringWorker.ts");
