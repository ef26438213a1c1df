import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { runCli } from "../../src/cli/program.ts";
import { operations } from "../../src/domain/operations.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Runs the CLI in-process and captures what it writes. */
async function run(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const exitCode = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { exitCode, stdout, stderr };
}

describe("pathlab command line", () => {
  it("prints its help and the roadmap with no command, and exits 0", async () => {
    const { exitCode, stdout } = await run([]);
    expect(exitCode).toBe(0);
    expect(stdout).toContain("Usage: pathlab");
    expect(stdout).toContain("operations");
    expect(stdout).toContain("Start with `npx pathlab sync`");
  });

  it("lists every operation of the interface as JSON", async () => {
    const { exitCode, stdout } = await run(["operations", "--json"]);
    expect(exitCode).toBe(0);
    const rows = JSON.parse(stdout) as { path: string; auth: boolean }[];
    expect(rows.map((row) => row.path)).toEqual(operations.map((operation) => operation.path));
    expect(rows.find((row) => row.path === "/v2/leaderboard/latest")?.auth).toBe(false);
    expect(rows.find((row) => row.path === "/insights/liquidation")?.auth).toBe(true);
  });

  it("filters operations by section and marks default paths", async () => {
    const { exitCode, stdout } = await run(["operations", "--section", "validation"]);
    expect(exitCode).toBe(0);
    expect(stdout).toContain("/validation/scores/historical");
    expect(stdout).toContain("/validation/prompts †");
    expect(stdout).not.toContain("/insights/liquidation");
  });

  it("exits 2 with a clear line on bad usage", async () => {
    const { exitCode, stderr } = await run(["operations", "--section", "nowhere"]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain("nowhere");
    expect(stderr).toContain("insights");
    expect((await run(["frobnicate"])).exitCode).toBe(2);
  });

  it("runs as the installed bin (what `npm start` runs) and exits 0", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["dist/cli/main.js"], {
      cwd: repoRoot,
    });
    expect(stdout).toContain("Usage: pathlab");
    expect(stdout).toContain("Start with `npx pathlab sync`");
  });

  it("keeps V8's ArrayBufferDetaching protector intact, so the core runs at full speed", async () => {
    // The compiled command needs no loader; through tsx's loader, or with `--import tsx`, an
    // ArrayBuffer would be detached and every typed-array loop slowed (bench/NOTES.md, the tsx
    // penalty).
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--trace-protector-invalidation", "dist/cli/main.js", "operations", "--json"],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(stdout + stderr).not.toContain("ArrayBufferDetaching");
  });
});
