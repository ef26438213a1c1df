/**
 * What test/package/consumer.test.ts checks in the tarball and in the import report of
 * fixtures/imports.mjs: pure functions over file lists and manifests, plus one shared expectation.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/** The layer entries `pathlab/<layer>`, in package.json's order. */
export const LAYERS = [
  ...["domain", "client", "paths", "core", "sandbox", "service"],
  ...["insights", "crosscheck", "store", "scoring", "jobs", "plots"],
];

/** Entries of the tarball that a user should not receive: sources, dev shims, build info, tests. */
export function unwantedEntries(entries: readonly string[]): string[] {
  return entries.filter(
    (entry) =>
      (entry.endsWith(".ts") && !entry.endsWith(".d.ts")) ||
      /\.(mts|cts|mjs|cjs|tsbuildinfo)$/.test(entry) ||
      /\/(src|test|bench|notebooks|examples|scripts)\//.test(entry),
  );
}

/** Compiled modules of the tarball without their declaration file beside them. */
export function modulesWithoutDeclarations(entries: readonly string[]): string[] {
  const all = new Set(entries);
  return entries.filter((entry) => entry.endsWith(".js") && !all.has(entry.slice(0, -3) + ".d.ts"));
}

/**
 * Compiled modules of the tarball whose source is gone from `sourceFolder` (src/): output of a
 * deleted or renamed source that an incremental build left in dist/. `npm pack --ignore-scripts`
 * would ship it; a real `npm pack` (prepack cleans first) would not.
 */
export function modulesWithoutSources(entries: readonly string[], sourceFolder: string): string[] {
  const sources = new Set(
    readdirSync(sourceFolder, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .map((file) => `package/dist/${file.replaceAll("\\", "/").slice(0, -3)}.js`),
  );
  return entries.filter((entry) => entry.endsWith(".js") && !sources.has(entry));
}

/** Every file a manifest names in `bin`, `main`, `types` and `exports` (all conditions). */
export function manifestTargets(manifest: {
  bin: Record<string, string>;
  main: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
}): string[] {
  const targets = [...Object.values(manifest.bin), manifest.main, manifest.types];
  for (const target of Object.values(manifest.exports)) {
    targets.push(...(typeof target === "string" ? [target] : Object.values(target)));
  }
  return targets;
}

/** The targets of `manifestTargets` that are missing from the installed package at `folder`. */
export function missingTargets(folder: string, targets: readonly string[]): string[] {
  return targets.filter((target) => !existsSync(join(folder, target)));
}

/**
 * Static and dynamic imports of a `.ts`/`.mts`/`.cts` file in the compiled modules of the
 * installed package (tsc's `rewriteRelativeImportExtensions` should have made them `.js`).
 */
export function compiledTsImports(folder: string, entries: readonly string[]): string[] {
  const tsImport = /(?:\bfrom\s*|\bimport\s*\(\s*)["'][^"']+\.[mc]?ts["']/g;
  return entries
    .filter((entry) => entry.endsWith(".js"))
    .flatMap((entry) => {
      const text = readFileSync(join(folder, entry.slice("package/".length)), "utf8");
      return (text.match(tsImport) ?? []).map((statement) => `${entry}: ${statement}`);
    });
}

/** What fixtures/imports.mjs prints. */
export interface ImportReport {
  readonly runtime: string;
  readonly crps: number;
  readonly kinds: string[];
  readonly rootCount: number;
  readonly onlyInRoot: string[];
  readonly layers: Record<string, { count: number; inRoot: number; differ: string[] }>;
  readonly pools: Record<string, { threads: number; ms: number; same: boolean }>;
}

/**
 * The import report of one runtime: CRPS of members 100 and 103 at 105 by the closed form
 * mean|xᵢ − y| − ½·mean|xᵢ − xⱼ| = (5 + 2)/2 − ½·(0 + 3 + 3 + 0)/4 = 2.75; every layer entry has
 * exports; the root's 101–200 are each the very object a layer exports, none of the charts; the scoring and
 * insight threads each ran a task on one worker thread from the compiled package, with the same
 * result as on the calling thread.
 */
export function expectImportReport(report: ImportReport, runtime: string): void {
  expect(report.runtime).toBe(runtime);
  expect(report.crps).toBeCloseTo(2.75, 12);
  expect(report.kinds).toEqual(["function", "function"]); // createClient, startSandbox
  expect(Object.keys(report.layers)).toEqual(LAYERS);
  for (const layer of LAYERS) {
    expect(report.layers[layer].count, layer).toBeGreaterThan(0);
    expect(report.layers[layer].differ, layer).toEqual([]);
  }
  expect(report.onlyInRoot).toEqual([]);
  // the root is curated: at most 200 runtime names, every one from the jobs and layers under
  // them; none of the charts (they load vega)
  expect(report.rootCount).toBeGreaterThan(100);
  expect(report.rootCount).toBeLessThanOrEqual(200);
  expect(report.layers.plots.inRoot).toBe(0);
  expect(report.layers.jobs.inRoot).toBeGreaterThan(0);
  for (const threads of ["ScoringThreads", "InsightThreads"]) {
    expect(report.pools[threads]?.threads, threads).toBe(1);
    expect(report.pools[threads]?.same, threads).toBe(true);
  }
}
