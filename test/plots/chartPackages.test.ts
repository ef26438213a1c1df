/**
 * The chart packages are optional peer dependencies: the install command names pathlab's own
 * ranges, and a render where a chart package is absent fails with that command. The absent case is
 * real: the compiled module runs from a folder outside the repository, where no node_modules holds
 * vega.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chartPackagesInstall, importChartPackage } from "../../src/plots/chartPackages.ts";

const repoRoot = join(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const folder = mkdtempSync(join(tmpdir(), "pathlab-chart-packages-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the chart packages", () => {
  it("are optional peer dependencies, not dependencies, and the install command names their ranges", () => {
    for (const name of ["vega", "vega-lite", "@resvg/resvg-wasm"]) {
      expect(manifest.dependencies[name]).toBeUndefined();
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(chartPackagesInstall()).toContain(`"${name}@${manifest.peerDependencies[name]}"`);
    }
    expect(chartPackagesInstall()).toMatch(/^npm install "vega@/);
  });

  it("an installed one is imported", async () => {
    const vega = await importChartPackage("renderSvg", "vega", () => import("vega"));
    expect(typeof vega.View).toBe("function");
  });

  it("an absent one is named, with the operation and the install command", () => {
    // the compiled module two folders below a package.json, as in an installed pathlab
    mkdirSync(join(folder, "dist/plots"), { recursive: true });
    writeFileSync(join(folder, "package.json"), JSON.stringify(manifest));
    cpSync(
      join(repoRoot, "dist/plots/chartPackages.js"),
      join(folder, "dist/plots/chartPackages.js"),
    );
    const script = [
      `import { importChartPackage } from "./dist/plots/chartPackages.js";`,
      `try { await importChartPackage("renderSvg", "vega-lite", () => import("vega-lite")); }`,
      `catch (error) { console.log(error.message); console.log(error.cause.code); }`,
    ].join("\n");
    writeFileSync(join(folder, "absent.mjs"), script);
    const output = execFileSync(process.execPath, ["absent.mjs"], {
      cwd: folder,
      encoding: "utf8",
    });
    const [message, causeCode] = output.trim().split("\n");
    expect(message).toBe(
      `renderSvg: drawing a chart needs the package vega-lite, which is not installed; the chart packages are optional dependencies of pathlab: ${chartPackagesInstall()}`,
    );
    expect(causeCode).toBe("ERR_MODULE_NOT_FOUND");
  });

  it("any other failure of the import is rethrown as it is", async () => {
    const failure = new Error("vega: something else broke");
    await expect(
      importChartPackage("renderSvg", "vega", () => Promise.reject(failure)),
    ).rejects.toBe(failure);
  });
});
