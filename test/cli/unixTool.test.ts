/**
 * The `pathlab` command as a Unix tool, run as real child processes of the compiled package
 * (`node dist/cli/main.js`): exit codes (usage 2 with one line and a hint, SIGINT 130 with the run
 * recorded as interrupted and no partial unit), a reader that goes away (EPIPE), NO_COLOR and
 * FORCE_COLOR, and the version from package.json.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colorsWanted } from "../../src/cli/program.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { temporaryFolder } from "../store/helpers.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const ESCAPE = "\u001b[";

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node dist/cli/main.js …args`, with `env` replacing the color variables and PATHLAB_*. */
async function pathlab(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Finished> {
  const rest = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "NO_COLOR" && name !== "FORCE_COLOR"),
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["dist/cli/main.js", ...args],
      { cwd: repoRoot, env: { ...rest, PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "", ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let folder: string;
let remove: () => void;
let database: string;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  database = join(folder, "empty.duckdb");
  await (await openStore(database)).close();
});
afterAll(() => remove());

describe("exit codes", () => {
  it.each([
    [["frobnicate"], ""],
    [["sync", "--bogus"], " sync"],
    [["sync", "--concurrency", "x"], " sync"],
    [["sync", "--assets", "DOGE"], " sync"],
    [["sync", "--horizons", "2h"], " sync"],
    [["score"], " score"],
    [["score", "--from", "yesterday", "--to", "today"], " score"],
    [["export"], " export"],
    [["serve", "--port", "abc"], " serve"],
    [["operations", "--section", "nowhere"], " operations"],
    [["query", "select 1", "--json", "--ndjson"], " query"],
  ])(
    "bad usage %j: exit 2, one line and a hint to --help, nothing on stdout",
    async (args, command) => {
      const { code, stdout, stderr } = await pathlab(args);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      const lines = stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^pathlab: \S/);
      expect(lines[1]).toBe(`(run 'npx pathlab${command} --help' for usage)`);
    },
  );

  it("prints the version of package.json", async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(await pathlab(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("ends quietly, with its exit code, when the reader of its output goes away (EPIPE)", async () => {
    // `true` exits without reading, so the command's writes meet a closed pipe.
    const { stdout, stderr } = await promisify(execFile)(
      "bash",
      ["-c", 'node dist/cli/main.js operations --json | true; echo "status=${PIPESTATUS[0]}"'],
      { cwd: repoRoot },
    );
    expect(stderr).toBe("");
    expect(stdout).toBe("status=0\n");
  });
});

describe("colors", () => {
  it("colorsWanted: NO_COLOR wins, FORCE_COLOR forces, otherwise the terminal decides", () => {
    expect(colorsWanted(true, {})).toBe(true);
    expect(colorsWanted(false, {})).toBe(false);
    expect(colorsWanted(true, { NO_COLOR: "1" })).toBe(false);
    expect(colorsWanted(true, { NO_COLOR: "" })).toBe(true);
    expect(colorsWanted(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorsWanted(true, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorsWanted(false, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(false);
  });

  it("a table is colored under FORCE_COLOR and plain under NO_COLOR", async () => {
    const args = ["query", "select 1 as one", "--db", database];
    const forced = await pathlab(args, { FORCE_COLOR: "1" });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(ESCAPE);
    const plain = await pathlab(args, { FORCE_COLOR: "1", NO_COLOR: "1" });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESCAPE);
    expect(plain.stdout).toContain("one");
  });
});

describe("Ctrl-C", () => {
  it("SIGINT during a sync exits 130, records the run as interrupted, stores no partial unit; a rerun completes", async () => {
    const path = join(folder, "interrupted.duckdb");
    const args = ["sync", "--assets", "BTC,ETH", "--horizons", "1h", "--db", path];
    const child = spawn(
      process.execPath,
      ["dist/cli/main.js", ...args, "--now", "2026-11-21T10:00:00Z"],
      {
        cwd: repoRoot,
        env: { ...process.env, PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += String(data)));
    const planned = new Promise<void>((resolve) =>
      child.stderr.on("data", (data: Buffer) => {
        stderr += String(data);
        if (stderr.includes("units into")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await planned;
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("interrupted; stopping");
    expect(stdout).toMatch(/\(run \d+, interrupted\)/);
    const store = await openStore(path, { readOnly: true });
    const runs = await queryRows(store, "select status, failures from runs");
    expect(runs.rows).toEqual([["interrupted", "[]"]]);
    // every unit is whole or absent: 10 path sets and its insights, or nothing
    const units = await queryRows(
      store,
      "select asset, count(*) from path_sets group by asset order by asset",
    );
    const insights = await queryRows(store, "select count(distinct asset) from insights");
    await store.close();
    for (const [, count] of units.rows) expect(count).toBe("10");
    expect(insights.rows[0][0]).toBe(String(units.rows.length));
    const rerun = await pathlab([...args, "--now", "2026-11-21T10:00:00Z", "--json"]);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ status: "ok", totals: { stored: 2 } });
  }, 120_000);
});
