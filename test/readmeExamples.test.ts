/**
 * The README's console examples show what the commands print today: `scripts/readme.mjs --check`
 * runs each one again (fixed seeds and clocks, the compiled command) and compares, leaving aside
 * only seconds, byte counts and a chosen port. `npm run readme` rewrites them.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("README console examples", () => {
  it("print what the README shows", async () => {
    const result = await promisify(execFile)(process.execPath, ["scripts/readme.mjs", "--check"], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr: string }) => ({ stderr: error.stderr, failed: true }));
    expect("failed" in result ? result.stderr : "").toBe("");
    expect(result.stderr).toContain("example score checked");
  }, 300_000);
});
