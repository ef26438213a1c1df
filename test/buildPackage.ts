/**
 * vitest's global setup: compiles `src/` into `dist/` (`npm run build`, incremental) before any
 * test runs, so that the tests that start the `pathlab` command or import the package `pathlab`
 * (the README's examples) run the compiled code of the sources under test. When the build's
 * record (`dist/.tsbuildinfo`) is newer than every file and folder of `src/` and the files that
 * configure the build, `dist/` is the build of these sources already (`npm test` has just run
 * `npm run build`), and tsc, which takes seconds even with nothing to do, is not run again. tsc
 * leaves the record as it is when nothing changed, so after a build here its time is set to now.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BUILD_INPUTS = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"];

/** The latest modification time (ms) of `path` and, for a folder, of everything under it. */
function latestChangeMs(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    latest = Math.max(latest, latestChangeMs(join(path, entry)));
  }
  return latest;
}

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const buildInfo = join(root, "dist", ".tsbuildinfo");
  if (existsSync(buildInfo)) {
    const inputsChangedMs = Math.max(
      ...BUILD_INPUTS.map((input) => latestChangeMs(join(root, input))),
    );
    if (statSync(buildInfo).mtimeMs > inputsChangedMs) return;
  }
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  const now = new Date();
  utimesSync(buildInfo, now, now);
}
