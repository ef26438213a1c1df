/**
 * vitest's global setup: compiles `src/` into `dist/` (`npm run build`, incremental) before any
 * test runs, so that the tests that start the `pathlab` command or import the package `pathlab`
 * (the README's examples) run the compiled code of the sources under test.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
}
