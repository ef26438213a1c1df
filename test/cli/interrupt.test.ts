/**
 * Ctrl-C as a user presses it: SIGINT to a real child process of the compiled command in the
 * middle of a job. It exits 130, records the run as interrupted, keeps what was stored before,
 * rolls back the unit in progress, and a rerun completes.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

let folder: string;
let remove: () => void;
beforeAll(() => ({ folder, remove } = temporaryFolder()));
afterAll(() => remove());

/** Starts `pathlab …args` and sends `signal` once its stderr matches `when`; resolves when it exits. */
async function interruptWhen(
  args: readonly string[],
  when: RegExp,
  signal: NodeJS.Signals = "SIGINT",
) {
  const child = spawn(process.execPath, ["dist/cli/main.js", ...args], {
    cwd: repoRoot,
    env: { ...process.env, PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let sent = false; // once: a second SIGINT quits at once
  child.stdout.on("data", (data: Buffer) => (stdout += String(data)));
  child.stderr.on("data", (data: Buffer) => {
    stderr += String(data);
    if (!sent && when.test(stderr)) sent = child.kill(signal);
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

async function rowsOf(path: string, sql: string) {
  const store = await openStore(path, { readOnly: true });
  try {
    return (await queryRows(store, sql)).rows;
  } finally {
    await store.close();
  }
}

describe("Ctrl-C", () => {
  it("during a sync: exit 130, run interrupted, the stored unit kept whole, the one in progress rolled back; a rerun completes", async () => {
    const path = join(folder, "sync.duckdb");
    const args = ["sync", "--assets", "BTC,ETH", "--horizons", "1h", "--db", path];
    const clock = ["--now", "2026-11-21T10:00:00Z"];
    // the first unit stored: the second is then in progress (two units run at once)
    const run = await interruptWhen([...args, ...clock], /\] \w+ 1h stored/);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain("interrupted (SIGINT); stopping");
    expect(run.stderr).toMatch(/\] \w+ 1h interrupted \(nothing stored\)/);
    expect(run.stdout).toMatch(/\(run 1, interrupted\)/);
    expect(run.stdout).toContain("interrupted: 1 unit not stored");
    expect(await rowsOf(path, "select status, failures from runs")).toEqual([
      ["interrupted", "[]"],
    ]);
    // exactly the stored unit, whole: its 10 path sets and its insights
    const stored = /\] (\w+) 1h stored/.exec(run.stderr)?.[1];
    expect(await rowsOf(path, "select asset, count(*) from path_sets group by asset")).toEqual([
      [stored, 10],
    ]);
    expect(await rowsOf(path, "select distinct asset from insights")).toEqual([[stored]]);
    const rerun = await runPathlab([...args, ...clock, "--json"]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ status: "ok", totals: { stored: 2 } });
  }, 120_000);

  it("during a score: exit 130, run interrupted, every prompt stored before it whole", async () => {
    const path = join(folder, "score.duckdb");
    const now = "2026-11-21T10:49:00Z";
    const args = [
      ...["score", "--from", "2026-11-20T10:00:00Z", "--to", now, "--now", now],
      ...["--competition", "crypto-24h", "--miners", "top:4", "--db", path],
    ];
    const run = await interruptWhen(args, /\[2\/\d+\]/);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/score: interrupted; the prompts scored until then are stored/);
    expect(await rowsOf(path, "select status from runs")).toEqual([["interrupted"]]);
    // each stored prompt has its realized prices and the scores of its miners, none half written
    const prompts = await rowsOf(
      path,
      `select p.asset, p.start_time, (select count(*) from realized_prices r
         where r.asset = p.asset and r.start_time = p.start_time),
         (select count(*) from miner_scores m where m.asset = p.asset and m.start_time = p.start_time)
       from prompts p`,
    );
    expect(prompts.length).toBeGreaterThan(0);
    for (const [, , realized, scores] of prompts) {
      expect(realized).toBe(1);
      expect(Number(scores)).toBeGreaterThanOrEqual(4);
    }
  }, 120_000);

  it("SIGTERM during a score ends it the same way: the run recorded as interrupted", async () => {
    const path = join(folder, "score-term.duckdb");
    const now = "2026-11-21T10:49:00Z";
    const args = [
      ...["score", "--from", "2026-11-20T10:00:00Z", "--to", now, "--now", now],
      ...["--competition", "crypto-24h", "--miners", "top:4", "--db", path],
    ];
    const run = await interruptWhen(args, /\[2\/\d+\]/, "SIGTERM");
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/interrupted \(SIGTERM\)/);
    const [[status, failures]] = await rowsOf(path, "select status, failures::VARCHAR from runs");
    expect(status).toBe("interrupted");
    expect(String(failures)).toContain("interrupted");
  }, 120_000);

  it("SIGKILL leaves the run running; the next job on the database marks it abandoned", async () => {
    const path = join(folder, "score-kill.duckdb");
    const now = "2026-11-21T10:49:00Z";
    const args = [
      ...["score", "--from", "2026-11-20T10:00:00Z", "--to", now, "--now", now],
      ...["--competition", "crypto-24h", "--miners", "top:4", "--db", path],
    ];
    const killed = await interruptWhen(args, /\[2\/\d+\]/, "SIGKILL");
    expect(killed.code).toBeNull(); // killed: no exit code
    expect(await rowsOf(path, "select status from runs")).toEqual([["running"]]);
    const next = await interruptWhen(
      [...args.slice(0, 4), "2026-11-20T10:00:00Z", ...args.slice(5)],
      /^$/,
    );
    expect(next.code, next.stderr).toBe(0);
    const runs = await rowsOf(path, "select id, status, failures::VARCHAR from runs order by id");
    expect(runs.map(([id, status]) => [id, status])).toEqual([
      [1, "abandoned"],
      [2, "ok"],
    ]);
    expect(String(runs[0][2])).toMatch(/abandoned: its process \d+ on .* ended without finishing/);
  }, 120_000);
});
