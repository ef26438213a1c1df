/**
 * The packages that draw charts (vega, vega-lite and @resvg/resvg-wasm) are optional peer
 * dependencies of pathlab: a user of the numbers, the store or the command line does not install
 * them (they are 69 of the 108 packages a full install would bring). They are imported on the
 * first render, and an absent one is named with the command that installs all three.
 */
import { createRequire } from "node:module";

/** The chart packages, as pathlab's package.json names them. */
const CHART_PACKAGES = ["vega", "vega-lite", "@resvg/resvg-wasm"] as const;

/** A chart package's name. */
type ChartPackage = (typeof CHART_PACKAGES)[number];

/**
 * `npm install` of the three chart packages at the ranges pathlab's package.json accepts.
 * @example chartPackagesInstall() // => 'npm install "vega@^6.4.0" "vega-lite@~6.4.1" "@resvg/resvg-wasm@^2.6.2"'
 */
export function chartPackagesInstall(): string {
  // src/plots and dist/plots are both two folders below the package's root
  const manifest = createRequire(import.meta.url)("../../package.json") as {
    peerDependencies: Record<ChartPackage, string>;
  };
  const specs = CHART_PACKAGES.map((name) => `"${name}@${manifest.peerDependencies[name]}"`);
  return `npm install ${specs.join(" ")}`;
}

/**
 * Imports a chart package; when it is not installed, throws an error that names it, the
 * operation, and the command that installs the chart packages. Any other failure is rethrown.
 * @example const vega = await importChartPackage("renderSvg", "vega", () => import("vega"));
 */
export async function importChartPackage<Module>(
  operation: string,
  name: ChartPackage,
  load: () => Promise<Module>,
): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing =
      (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
      (error as Error).message.includes(`'${name}'`);
    if (!missing) throw error;
    throw new Error(
      `${operation}: drawing a chart needs the package ${name}, which is not installed; the chart packages are optional dependencies of pathlab: ${chartPackagesInstall()}`,
      { cause: error },
    );
  }
}
