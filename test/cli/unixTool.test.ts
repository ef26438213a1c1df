/**
 * The `pathlab` command as a Unix tool, run as real child processes of the compiled package
 * (`node dist/cli/main.js`): exit codes (usage 2 with one line and a hint, 1 for a partial sync;
 * Ctrl-C is in interrupt.test.ts), a reader that goes away (EPIPE), NO_COLOR and FORCE_COLOR,
 * and the version from package.json.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colorsWanted } from "../../src/cli/program.ts";
import { startSandbox } from "../../src/sandbox/startSandbox.ts";
import { openStore } from "../../src/store/openStore.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab as pathlab } from "./runPathlab.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const ESCAPE = "\u001b[";

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
    [["sync", "--sandbox-miners", "37"], " sync"],
    [["sync", "--sandbox-miners", "9", "--base-url", "http://127.0.0.1:9"], " sync"],
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
    expect(await pathlab(["--version"])).toMatchObject({
      code: 0,
      stdout: `${version}\n`,
      stderr: "",
    });
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

describe("failures in some units", () => {
  it("a sync whose service serves invalid path sets stores the rest, records the run partial, and exits 1", async () => {
    // seven path sets in ten one point short (drawn per request, refetches included): a miner
    // whose every copy is short is a failure in the validator's words, and the next miner stands in
    // (the whole network, so that there is one: the unit still has ten path sets). The draws follow
    // the order the requests arrive in, which the concurrent fetches vary: at 0.7 both a unit
    // without a failure and one short of ten valid miners are below 1 in 300.
    const sandbox = await startSandbox({
      now: "2026-11-21T10:00:00Z",
      faults: "path=/v2/prediction/*,shortpaths=0.7",
    });
    try {
      const path = join(folder, "partial.duckdb");
      const { code, stdout, stderr } = await pathlab(
        ["sync", "--assets", "BTC", "--horizons", "1h", "--db", path, "--json"],
        { env: { PATHLAB_BASE_URL: sandbox.url, PATHLAB_API_KEY: sandbox.apiKey } },
      );
      expect(code, stderr).toBe(1);
      const summary = JSON.parse(stdout) as { status: string; failures: { reason: string }[] };
      expect(summary.status).toBe("partial");
      expect(summary.failures.map((failure) => failure.reason).join("\n")).toMatch(
        /Number of time points is incorrect/,
      );
      expect(stderr).toMatch(/^\[1\/1\] BTC 1h stored: 10 path sets/m);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
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
    const forced = await pathlab(args, { env: { FORCE_COLOR: "1", NO_COLOR: "" } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(ESCAPE);
    const plain = await pathlab(args, { env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESCAPE);
    expect(plain.stdout).toContain("one");
  });
});
