/**
 * `pathlab sync`, `query` and `export` as real child processes (`node dist/cli/main.js`, what
 * `npm start` runs) on real DuckDB files: a sync with the embedded sandbox, the same with a
 * service (a small-world sandbox in the test's process) and its key from the environment, SQL and
 * Parquet on the result, a query refused while a sync writes, a sync killed with SIGKILL and run
 * again, and the key nowhere.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/program.ts";
import { formatSyncReport } from "../../src/cli/syncReport.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import type { SyncSummary } from "../../src/jobs/sync/summary.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { tableCounts, temporaryFolder } from "../store/helpers.ts";
import { SMALL_WORLD } from "../smallWorld.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const NOW = "2026-02-25T23:47:00Z";
const KEY = "sk-test-cli-3c8e1f05d9a24b76";

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node dist/cli/main.js …args` with `env` added (PATHLAB_* cleared otherwise). */
function startPathlab(
  args: readonly string[],
  env: Record<string, string> = {},
): { child: ChildProcess; finished: Promise<Finished>; stderrText: () => string } {
  const child = spawn(process.execPath, ["dist/cli/main.js", ...args], {
    cwd: repoRoot,
    env: { ...process.env, PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (data: Buffer) => (stdout += String(data)));
  child.stderr?.on("data", (data: Buffer) => (stderr += String(data)));
  const finished = new Promise<Finished>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, finished, stderrText: () => stderr };
}

function runPathlab(args: readonly string[], env?: Record<string, string>): Promise<Finished> {
  return startPathlab(args, env).finished;
}

/** Resolves once `text()` matches `pattern` (checked on every chunk of `child`'s stderr). */
function waitFor(child: ChildProcess, text: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(text())) {
        child.stderr?.off("data", check);
        resolve();
      }
    };
    child.stderr?.on("data", check);
    child.on("close", () => reject(new Error(`exited before ${pattern}: ${text()}`)));
    check();
  });
}

function databaseText(path: string): string {
  const directory = join(path, "..");
  const name = path.split("/").at(-1) as string;
  return readdirSync(directory)
    .filter((file) => file.startsWith(name))
    .map((file) => readFileSync(join(directory, file)).toString("latin1"))
    .join("\n");
}

async function counts(path: string): Promise<Record<string, number>> {
  const store = await openStore(path, { readOnly: true });
  try {
    return await tableCounts(store);
  } finally {
    await store.close();
  }
}

let folder: string;
let remove: () => void;
let sandbox: EmbeddedSandbox;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
});
afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

// The embedded sandbox that the command starts (the whole network) is this describe's point.
describe("pathlab sync with the embedded sandbox, then query and export", () => {
  let database: string;
  let synced: Finished;

  beforeAll(async () => {
    database = join(folder, "embedded.duckdb");
    synced = await runPathlab([
      "sync",
      "--assets",
      "BTC",
      "--horizons",
      "1h",
      "--now",
      NOW,
      "--api-key",
      KEY,
      "--db",
      database,
      "--json",
    ]);
  }, 120_000);

  it("syncs, prints one JSON summary on stdout and plain progress lines on stderr, exits 0", () => {
    expect(synced.code, synced.stderr).toBe(0);
    const summary = JSON.parse(synced.stdout) as SyncSummary;
    expect(summary.service).toMatchObject({ kind: "embedded sandbox", seed: 42 });
    expect(summary.service.now).toBe("2026-02-25T23:47:00.000Z");
    expect(summary.units).toHaveLength(1);
    expect(summary.units[0]).toMatchObject({ asset: "BTC", horizon: "1h", status: "stored" });
    expect(summary.units[0].verdicts.exact).toBeGreaterThan(1000);
    expect(summary.totals.verdicts).toMatchObject({ "within-mc": 0, missing: 0, mismatch: 0 });
    expect(synced.stderr).toMatch(/^pathlab sync: embedded sandbox at http:\/\/127\.0\.0\.1:\d+/m);
    expect(synced.stderr).toMatch(/^\[1\/1\] BTC 1h stored: 10 path sets, \d+ values/m);
  });

  it("the summary table has a row per unit, the totals, the database and what to run next", () => {
    const summary = JSON.parse(synced.stdout) as SyncSummary;
    const text = formatSyncReport(summary, ` --db ${database}`, false);
    const unit = summary.units[0];
    expect(text).toMatch(
      new RegExp(
        `│ BTC +│ 1h +│ ${String(unit.forecastStartTime).replace("+", "\\+")} │ stored +│ 10 +│ ${unit.verdicts.exact} +│ 0 +│ 0 +│ 0 +│`,
      ),
    );
    expect(text).toMatch(/│ total +│ +│ +│ 1\/1 stored +│ 10 +│/);
    expect(text).toContain(`database: ${database} (run 1, ok)`);
    expect(text).toContain(`pathlab export --out ./exports --db ${database}`);
  });

  it("the key is in neither output nor the database file", () => {
    expect(synced.stdout + synced.stderr).not.toContain(KEY);
    expect(databaseText(database)).not.toContain(KEY);
  });

  it('query "select count(*) from insights" prints a table of the count, and --json the rows', async () => {
    const store = await openStore(database, { readOnly: true });
    const { rows } = await queryRows(store, "select count(*) from insights");
    await store.close();
    const count = String(rows[0][0]);
    expect(Number(count)).toBeGreaterThan(0);
    const table = await runPathlab(["query", "select count(*) from insights", "--db", database]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain("count_star()");
    expect(table.stdout).toMatch(new RegExp(`│ ${count} +│`));
    expect(table.stdout).toMatch(/^1 row$/m);
    let json = "";
    const exitCode = await runCli(
      [
        "query",
        "select asset, count(*) as n from path_sets group by asset",
        "--db",
        database,
        "--json",
      ],
      { stdout: (chunk) => (json += chunk), stderr: () => undefined },
    );
    expect(exitCode).toBe(0);
    expect(JSON.parse(json)).toEqual([{ asset: "BTC", n: 10 }]);
  });

  it("export writes hive-partitioned Parquet that DuckDB reads back row for row", async () => {
    const out = join(folder, "export");
    const exported = await runPathlab(["export", "--out", out, "--db", database, "--json"]);
    expect(exported.code, exported.stderr).toBe(0);
    const written = JSON.parse(exported.stdout) as { table: string; rows: number }[];
    const stored = await counts(database);
    const rowsWritten = Object.fromEntries(written.map((entry) => [entry.table, entry.rows]));
    for (const [table, rows] of Object.entries(stored))
      expect(rowsWritten[table], table).toBe(rows);
    const reader = await openStore(":memory:");
    try {
      const { rows } = await queryRows(
        reader,
        `select asset, date, count(*) from read_parquet('${out}/insights/**/*.parquet', hive_partitioning = true) group by all`,
      );
      expect(rows).toEqual([["BTC", "2026-02-25", stored.insights]]);
    } finally {
      await reader.close();
    }
    let text = "";
    // Again into its own earlier export: replaced with --overwrite.
    const again = await runCli(["export", "--out", out, "--db", database, "--overwrite"], {
      stdout: (chunk) => (text += chunk),
      stderr: (chunk) => (text += chunk),
    });
    expect(again).toBe(0);
    expect(text).toMatch(/path_values\s+│ 10000 /);
    expect(text).toContain("read back, e.g.:");
  });
});

describe("pathlab sync with a service, interrupted and run again", () => {
  /** The path sets of a unit: the top ten miners', here the eight of the small world's nine that answered. */
  const PATH_SETS = 8;
  const args = (database: string) => [
    "sync",
    "--assets",
    "BTC,ETH",
    "--horizons",
    "1h",
    "--concurrency",
    "1",
    "--db",
    database,
  ];
  const env = () => ({ PATHLAB_BASE_URL: sandbox.url, PATHLAB_API_KEY: KEY });

  it("a query while the sync writes says the file is locked and what to do; SIGKILL leaves no partial unit; a rerun completes", async () => {
    const database = join(folder, "killed.duckdb");
    const run = startPathlab(args(database), env());
    await waitFor(run.child, run.stderrText, /2 units into/);
    const locked = await runPathlab(["query", "select count(*) from runs", "--db", database]);
    expect(locked.code).toBe(1);
    expect(locked.stderr.trim().split("\n")).toHaveLength(1);
    expect(locked.stderr).toMatch(
      new RegExp(
        `^pathlab: database ".*killed\\.duckdb" is locked by another process \\(PID ${run.child.pid}, .*\\) that is writing to it; wait for its job to end or close that process, then retry`,
      ),
    );
    await waitFor(run.child, run.stderrText, /\[1\/2\] \w+ 1h stored/);
    run.child.kill("SIGKILL");
    const killed = await run.finished;
    expect(killed.signal).toBe("SIGKILL");

    // The file opens cleanly; every stored unit is whole: its path sets of 1,000 paths, its
    // records (service and recomputed) and its cross-check rows; the run is still "running".
    const store = await openStore(database);
    try {
      const units = (
        await queryRows(
          store,
          `select i.asset, i.forecast_start_time,
             (select count(*) from path_sets s where s.asset = i.asset and s.start_time = i.forecast_start_time),
             (select count(*) from path_values v join path_sets s on s.id = v.path_set_id
                where s.asset = i.asset and s.start_time = i.forecast_start_time),
             count(*) filter (where source = 'service'), count(*) filter (where source = 'recomputed'),
             (select count(*) from crosschecks c where c.asset = i.asset and c.forecast_start_time = i.forecast_start_time)
           from insights i group by all order by all`,
        )
      ).rows;
      expect(units.length).toBeGreaterThanOrEqual(1);
      for (const [asset, , pathSets, paths, service, recomputed, rows] of units) {
        expect([pathSets, paths, service, recomputed], String(asset)).toEqual([
          PATH_SETS,
          PATH_SETS * 1000,
          13,
          13,
        ]);
        expect(Number(rows)).toBeGreaterThan(1000);
      }
      const orphans = await queryRows(
        store,
        `select count(*) from path_sets s where not exists
           (select 1 from insights i where i.asset = s.asset and i.forecast_start_time = s.start_time)`,
      );
      expect(orphans.rows).toEqual([[0]]);
      expect((await queryRows(store, "select status from runs")).rows).toEqual([["running"]]);
    } finally {
      await store.close();
    }

    const rerun = await runPathlab([...args(database), "--json"], env());
    expect(rerun.code, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout) as SyncSummary;
    expect(summary.units.map((unit) => unit.status)).toEqual(["stored", "stored"]);
    const after = await counts(database);
    expect(after).toMatchObject({
      runs: 2,
      path_sets: 2 * PATH_SETS,
      path_values: 2 * PATH_SETS * 1000,
    });
    expect(after.insights).toBe(2 * 2 * 13);
    const compared = Object.values(summary.totals.verdicts).reduce((sum, count) => sum + count);
    expect(after.crosschecks).toBe(compared);
    expect(summary.totals.verdicts.exact).toBe(compared);
    expect(summary.service).toEqual({ kind: "service", baseUrl: sandbox.url });

    // the key came from the environment; it is in no output and no byte of the database
    for (const output of [killed, locked, rerun]) {
      expect(output.stdout + output.stderr).not.toContain(KEY);
    }
    expect(databaseText(database)).not.toContain(KEY);
  }, 150_000);
});

describe("pathlab sync usage", () => {
  async function run(argv: string[]): Promise<{ exitCode: number; stderr: string }> {
    let stderr = "";
    const exitCode = await runCli(argv, {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    return { exitCode, stderr };
  }

  it("exits 2 with a clear line for an asset without path sets, a clock for a service, a service without a key, or a bad number", async () => {
    const database = join(folder, "usage.duckdb");
    const asset = await run(["sync", "--assets", "BTC,DOGE", "--db", database]);
    expect(asset.exitCode).toBe(2);
    expect(asset.stderr).toContain(
      'asset "DOGE": expected one whose paths the prediction operations serve',
    );
    const clock = await run([
      "sync",
      "--base-url",
      sandbox.url,
      "--api-key",
      KEY,
      "--now",
      NOW,
      "--db",
      database,
    ]);
    expect(clock.exitCode).toBe(2);
    expect(clock.stderr).toContain("--now sets the embedded sandbox");
    expect(clock.stderr).not.toContain(KEY);
    const key = await run(["sync", "--base-url", sandbox.url, "--db", database]);
    expect(key.exitCode).toBe(2);
    expect(key.stderr).toContain("needs an API key");
    const concurrency = await run(["sync", "--concurrency", "0"]);
    expect(concurrency.exitCode).toBe(2);
    expect(concurrency.stderr).toContain("--concurrency must be a whole number from 1 to 64");
    const threads = await run(["sync", "--threads", "-1"]);
    expect(threads.exitCode).toBe(2);
    expect(threads.stderr).toContain("--threads must be a whole number from 0 to 256");
    const horizon = await run(["sync", "--horizons", "2h", "--db", database]);
    expect(horizon.exitCode).toBe(2);
    expect(horizon.stderr).toContain('horizon: expected 1h or 24h, got "2h"');
  });

  it("query on a file that does not exist says so, as a usage error naming --db, exit 2, and creates nothing", async () => {
    const path = join(folder, "nothing.duckdb");
    const missing = await run(["query", "select 1", "--db", path]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split("\n")[0]).toBe(
      `pathlab: query: parameter "--db": expected a pathlab database (\`npx pathlab sync --db <path>\` creates one), got ${JSON.stringify(path)}, where there is no file`,
    );
    expect(missing.stderr).not.toContain("openStore");
    expect(existsSync(path)).toBe(false);
  });

  it("every command has --help", async () => {
    for (const command of ["sync", "query", "export"]) {
      let stdout = "";
      const exitCode = await runCli([command, "--help"], {
        stdout: (text) => (stdout += text),
        stderr: () => undefined,
      });
      expect(exitCode).toBe(0);
      expect(stdout).toContain(`Usage: pathlab ${command}`);
    }
  });
});
