/**
 * The package's `bin`, `dist/cli/main.js`, stays executable after `npm run build` (which `npm pack`
 * runs through `prepack` on a fresh dist/, whose files tsc creates without the executable bit), so
 * that `npx pathlab` runs it instead of failing with "Permission denied".
 */

import { execFile } from "node:child_process";
import { chmodSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const main = join(repoRoot, "dist/cli/main.js");

describe("npm run build", () => {
  it("leaves dist/cli/main.js executable, even when it was not before", async () => {
    const mode = statSync(main).mode & 0o777;
    // as tsc leaves a file it creates; it keeps the mode of a file it rewrites
    chmodSync(main, 0o644);
    try {
      await promisify(execFile)("npm", ["run", "build", "--silent"], {
        cwd: repoRoot,
        timeout: 170_000,
      });
      expect((statSync(main).mode & 0o777).toString(8)).toBe("755");
    } finally {
      if ((statSync(main).mode & 0o111) === 0) chmodSync(main, mode);
    }
    const { stdout } = await promisify(execFile)(main, ["--version"], { cwd: repoRoot });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 180_000);
});
