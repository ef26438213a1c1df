/**
 * Where a worker thread's entry module is, for pathlab run from its compiled package or from its
 * TypeScript sources.
 */

/**
 * The entry of the worker `name` that sits beside the module at `moduleUrl` (pass
 * `import.meta.url`). From the compiled package (`dist/…/x.js`) it is the compiled `name.js`
 * itself. From the sources (`src/…/x.ts`, under vitest or tsx) it is `name.mjs`, a development
 * shim beside the source that registers tsx's loader in the new thread (a worker starts as plain
 * Node, which cannot load `.ts`) and then imports `name.ts`; the shims are not shipped.
 * @example new Worker(workerEntry(import.meta.url, "scoringWorker")) // …/dist/scoring/scoringWorker.js in the package
 */
export function workerEntry(moduleUrl: string, name: string): URL {
  const fromSources = new URL(moduleUrl).pathname.endsWith(".ts");
  return new URL(`./${name}${fromSources ? ".mjs" : ".js"}`, moduleUrl);
}
