// The development entry of pathlab's worker threads, shared by the shims beside each worker's
// source (`<name>.mjs`, which src/domain/workerEntry.ts names when pathlab runs from its TypeScript
// sources): a worker starts as plain Node, which cannot load `.ts`.
//
// - Under the tests (PATHLAB_WORKERS_COMPILED=1, set by vitest.config.ts), the thread imports the
//   compiled module of the same source from dist/, which test/buildPackage.ts has just built from
//   these sources: a thread then starts in the time the package's own threads do, without compiling
//   its modules through tsx's loader first.
// - Otherwise (tsx, the bench), it registers tsx's ESM loader in the thread and imports the source.
//   Workers that import no CommonJS package keep V8's ArrayBufferDetaching protector intact so
//   (bench/NOTES.md, "the tsx penalty").

/**
 * The worker module `name` beside the shim at `shimUrl`: compiled from dist/ under the tests, else
 * its TypeScript source through tsx.
 * @example export default (await workerModule(import.meta.url, "scoringWorker")).default;
 */
export async function workerModule(shimUrl, name) {
  if (process.env.PATHLAB_WORKERS_COMPILED === "1") {
    const at = shimUrl.lastIndexOf("/src/");
    const compiled = `${shimUrl.slice(0, at)}/dist/${shimUrl.slice(at + 5)}`;
    return import(new URL(`./${name}.js`, compiled).href);
  }
  const { register } = await import("tsx/esm/api");
  register();
  return import(new URL(`./${name}.ts`, shimUrl).href);
}
