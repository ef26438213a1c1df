/**
 * The package's `bin`, `dist/cli/main.js`, is executable after `npm pack`, whose `prepack` removes
 * dist/ and builds it again (tsc creates files without the executable bit), so that `npx pathlab`
 * in the clone runs it instead of failing with "Permission denied". Checked on a copy of the
 * package's sources in a temp folder, so that the tests running beside this one keep their dist/.
 */

import { execFile } from "node:child_process";
import { cpSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

describe("npm pack's prepack", () => {
  // The build from nothing is the point: it takes a whole tsc run.
  it("builds a fresh dist/ whose dist/cli/main.js is executable and runs", async () => {
    const { folder, remove } = temporaryFolder();
    const copy = join(folder, "package");
    try {
      for (const name of ["package.json", "tsconfig.json", "tsconfig.build.json", "src"]) {
        cpSync(join(repoRoot, name), join(copy, name), { recursive: true });
      }
      symlinkSync(join(repoRoot, "node_modules"), join(copy, "node_modules"));
      await run("npm", ["run", "prepack", "--silent"], { cwd: copy, timeout: 170_000 });
      const main = join(copy, "dist/cli/main.js");
      expect((statSync(main).mode & 0o777).toString(8)).toBe("755");
      const { stdout } = await run(main, ["--version"], { cwd: copy });
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    } finally {
      remove();
    }
  }, 180_000);
});
