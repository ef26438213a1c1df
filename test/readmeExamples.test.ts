/**
 * The examples of README.md and docs/*.md show what the commands print today:
 * `scripts/docs.mjs --check` runs each one again (fixed seeds and clocks, the compiled command)
 * and compares, leaving aside only what varies by nature (seconds, a chosen port, the order of
 * concurrent units). It also checks the blocks it cannot run (sh, ts) and every inline
 * `npx pathlab …` against the command's `--help`. `npm run readme` rewrites stale examples.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The examples the documents mark (`<!-- example: NAME -->`), which the check must all run. */
function markedExamples(): number {
  const guides = readdirSync(new URL("../docs", import.meta.url))
    .filter((name) => name.endsWith(".md") && name !== "architecture.md")
    .map((name) => `docs/${name}`);
  return ["README.md", ...guides]
    .map((file) => readFileSync(new URL(`../${file}`, import.meta.url), "utf8"))
    .reduce((sum, text) => sum + (text.match(/^<!-- example: /gm) ?? []).length, 0);
}

describe("README and docs/ examples", () => {
  it("print what the documents show", async () => {
    const result = await promisify(execFile)(process.execPath, ["scripts/docs.mjs", "--check"], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr: string }) => ({ stderr: error.stderr, failed: true }));
    expect("failed" in result ? result.stderr : "").toBe("");
    const examples = markedExamples();
    expect(examples).toBeGreaterThanOrEqual(20);
    expect(result.stderr).toContain(`docs: ${examples} examples run`);
    expect(result.stderr).not.toContain("STALE");
  }, 300_000);
});
