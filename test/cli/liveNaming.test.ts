/**
 * The live deployment's naming from the command line, as real child processes: `pathlab sync
 * --naming live` against `pathlab serve --naming live` completes with no failure and the verdicts
 * of a neutral sync of the same world; `PATHLAB_NAMING` and `pathlab.config.json` set it too; a
 * config that holds a key is refused without showing it.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncSummary } from "../../src/jobs/sync/summary.ts";
import { liveOmittedFields } from "../../src/sandbox/server/liveFields.ts";
import { openStore, queryRows } from "../../src/store/index.ts";
import { startEmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { SMALL_WORLD } from "../smallWorld.ts";
import { runPathlab } from "./runPathlab.ts";

const NOW = "2026-02-25T23:47:00Z";
const KEY = "sk-test-live-naming-3a8c";
const repoRoot = new URL("../..", import.meta.url);
let folder: string;
let remove: () => void;
let serve: ChildProcess;
let liveUrl: string;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  serve = spawn(
    process.execPath,
    [
      join(repoRoot.pathname, "dist/cli/main.js"),
      ...["serve", "--port", "0", "--naming", "live", "--now", NOW, "--api-key", KEY],
      ...["--sandbox-miners", "9"],
      ...["--paths", JSON.stringify({ "/v2/meta-leaderboard/latest": "/ranking/meta" })],
    ],
    { cwd: folder, stdio: ["ignore", "pipe", "pipe"] },
  );
  liveUrl = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    serve.stdout!.on("data", (data: Buffer) => {
      stdout += String(data);
      const url = /listening on (\S+)/.exec(stdout);
      if (url !== null && stdout.includes("Ctrl+C")) resolve(url[1]);
    });
    serve.on("exit", (code) => reject(new Error(`serve exited with ${code}`)));
  });
}, 60_000);
afterAll(() => {
  serve?.kill("SIGINT");
  remove?.();
});

const verdictsOf = (summary: SyncSummary) =>
  summary.units.map(({ asset, horizon, status, pathSets, verdicts, venueComparisons }) => ({
    asset,
    horizon,
    status,
    pathSets,
    verdicts,
    venueComparisons,
  }));

/** Cross-check rows of a database at fields the live records leave out, counted by "horizon verdict". */
async function omittedRows(database: string): Promise<Map<string, number>> {
  const store = await openStore(database, { readOnly: true });
  try {
    const { rows } = await queryRows(
      store,
      "select operation, horizon, field, verdict, count(*)::INTEGER from crosschecks group by all",
    );
    const counts = new Map<string, number>();
    for (const [operation, horizon, field, verdict, count] of rows as [
      string,
      string,
      string,
      string,
      number,
    ][]) {
      if (!liveOmittedFields(operation).includes(field.replace(/^.*[.\]]/, ""))) continue;
      const key = `${horizon} ${verdict}`;
      counts.set(key, (counts.get(key) ?? 0) + count);
    }
    return counts;
  } finally {
    await store.close();
  }
}

async function sync(args: readonly string[], env: Record<string, string> = {}, cwd?: string) {
  const run = await runPathlab(
    [...["sync", "--assets", "BTC", "--json"], ...args],
    cwd === undefined ? { env } : { env, cwd },
  );
  return { run, summary: JSON.parse(run.stdout || "null") as SyncSummary };
}

describe("the live naming on the command line", () => {
  it("sync --naming live against serve --naming live: no failure, the verdicts of the neutral naming", async () => {
    const neutral = await sync([
      ...["--now", NOW, "--sandbox-miners", "9"],
      ...["--db", join(folder, "neutral.duckdb")],
    ]);
    expect(neutral.run.code, neutral.run.stderr).toBe(0);
    const live = await sync(
      ["--base-url", liveUrl, "--naming", "live", "--db", join(folder, "live.duckdb")],
      { PATHLAB_API_KEY: KEY },
    );
    expect(live.run.code, live.run.stderr).toBe(0);
    expect(live.summary.failures).toEqual([]);
    // The live records leave fields out (forecast_start_time of most records): the neutral sync's
    // rows of those fields are the only difference.
    // Per record, the summary names what the service's side lacks; the neutral sandbox lacks nothing.
    expect(neutral.summary.units.flatMap((unit) => unit.lacking)).toEqual([]);
    const lacking = live.summary.units.flatMap((unit) => unit.lacking);
    expect(lacking).toContainEqual({
      operation: "/insights/liquidation",
      service: ["forecast_start_time"],
      recomputed: [],
    });
    for (const record of lacking) {
      expect(record.recomputed).toEqual([]);
      for (const field of record.service) {
        expect(liveOmittedFields(record.operation)).toContain(field.replace(/^\[\]\./, ""));
      }
    }
    expect(live.run.stderr + live.run.stdout).not.toContain("not compared: the recomputed");
    const omitted = await omittedRows(join(folder, "neutral.duckdb"));
    expect(omitted.size).toBeGreaterThan(0);
    expect(verdictsOf(live.summary)).toEqual(
      verdictsOf(neutral.summary).map((unit) => ({
        ...unit,
        verdicts: Object.fromEntries(
          Object.entries(unit.verdicts).map(([verdict, count]) => [
            verdict,
            count - (omitted.get(`${unit.horizon} ${verdict}`) ?? 0),
          ]),
        ),
      })),
    );
    expect(
      live.summary.units.reduce((sum, unit) => sum + unit.venueComparisons, 0),
    ).toBeGreaterThan(0);
  }, 180_000);

  it("--naming auto asks once and names what it found: live from serve --naming live, neutral from a neutral service", async () => {
    const live = await sync(
      [
        "--base-url",
        liveUrl,
        "--naming",
        "auto",
        "--horizons",
        "24h",
        "--db",
        join(folder, "auto.duckdb"),
      ],
      { PATHLAB_API_KEY: KEY },
    );
    expect(live.run.code, live.run.stderr).toBe(0);
    expect(live.summary.failures).toEqual([]);
    expect(live.summary.service).toMatchObject({ kind: "service", namingFound: "live" });
    const score = await runPathlab(
      [
        ...["score", "--from", "2026-02-25T20:00:00Z", "--to", NOW, "--competition", "crypto-24h"],
        ...["--assets", "BTC", "--naming", "auto", "--base-url", liveUrl],
        ...["--db", join(folder, "auto-score.duckdb")],
      ],
      { env: { PATHLAB_API_KEY: KEY } },
    );
    expect(score.code, score.stderr).toBe(0);
    expect(score.stdout).toContain("--naming auto: the live naming");
    const neutral = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
    try {
      const found = await sync(
        [
          "--base-url",
          neutral.url,
          "--naming",
          "auto",
          "--horizons",
          "1h",
          "--db",
          join(folder, "auto-neutral.duckdb"),
        ],
        { PATHLAB_API_KEY: KEY },
      );
      expect(found.run.code, found.run.stderr).toBe(0);
      expect(found.summary.failures).toEqual([]);
      expect(found.summary.service).toMatchObject({ kind: "service", namingFound: "neutral" });
      expect(found.run.stdout + found.run.stderr).not.toContain(KEY);
    } finally {
      await neutral.close();
    }
  }, 180_000);

  it("without the naming, sync, score and audit stop before any unit: exit 2, naming the flag to add", async () => {
    const hint = "this deployment speaks live naming: rerun with `--naming live`";
    const database = join(folder, "unnamed.duckdb");
    const { run } = await sync(["--base-url", liveUrl, "--horizons", "24h", "--db", database], {
      PATHLAB_API_KEY: KEY,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`sync: ${liveUrl} answers /insights/polymarket/up-down/daily`);
    expect(run.stderr).toContain(hint);
    const others = [
      ["score", "--from", "2026-02-25T20:00:00Z", "--to", NOW, "--competition", "crypto-24h"],
      ["audit", "--assets", "BTC"],
    ];
    for (const command of others) {
      const other = await runPathlab([...command, "--base-url", liveUrl, "--db", database], {
        env: { PATHLAB_API_KEY: KEY },
      });
      expect([
        other.code,
        other.stderr.includes(`${command[0]}: `),
        other.stderr.includes(hint),
      ]).toEqual([2, true, true]);
    }
    // Nothing was stored: the jobs stopped before their first unit.
    const store = await openStore(database, { readOnly: true });
    try {
      const { rows } = await queryRows(store, "select (select count(*) from insights)::INTEGER");
      expect(rows).toEqual([[0]]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("PATHLAB_NAMING and pathlab.config.json set it; the command line wins over both", async () => {
    const fromEnvironment = await sync(
      ["--base-url", liveUrl, "--horizons", "24h", "--db", join(folder, "env.duckdb")],
      { PATHLAB_API_KEY: KEY, PATHLAB_NAMING: "live" },
    );
    expect(fromEnvironment.run.code, fromEnvironment.run.stderr).toBe(0);
    const project = join(folder, "project");
    mkdirSync(project);
    writeFileSync(
      join(project, "pathlab.config.json"),
      JSON.stringify({ baseUrl: liveUrl, naming: "live" }),
    );
    const fromConfig = await sync(
      ["--horizons", "24h", "--db", join(folder, "config.duckdb")],
      { PATHLAB_API_KEY: KEY },
      project,
    );
    expect(fromConfig.run.code, fromConfig.run.stderr).toBe(0);
    expect(fromConfig.run.stderr).toContain("pathlab: baseUrl, naming from pathlab.config.json");
    expect(fromConfig.summary.service).toEqual({ kind: "service", baseUrl: liveUrl });
    const overridden = await sync(
      ["--horizons", "24h", "--naming", "neutral", "--db", join(folder, "override.duckdb")],
      { PATHLAB_API_KEY: KEY },
      project,
    );
    expect(overridden.run.code).toBe(2);
    expect(overridden.run.stderr).toContain("rerun with `--naming live`");
    expect(overridden.run.stderr).toContain("pathlab: baseUrl from pathlab.config.json");
  }, 180_000);

  it("serve --paths serves an operation at the deployment's path too; sync --paths asks where it says", async () => {
    const answer = await fetch(`${liveUrl}/ranking/meta?prompt_name=crypto-24h&days=14`, {
      headers: { Authorization: `Apikey ${KEY}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as unknown[]).length).toBeGreaterThan(0);
    // a path that nothing serves: the ranking fails there, so the sync did ask there
    const { run, summary } = await sync(
      [
        ...["--base-url", liveUrl, "--naming", "live", "--horizons", "24h"],
        ...["--paths", JSON.stringify({ "/v2/meta-leaderboard/latest": "/nowhere/meta" })],
        ...["--db", join(folder, "paths.duckdb")],
      ],
      { PATHLAB_API_KEY: KEY },
    );
    expect(run.code).toBe(1);
    expect(summary.failures.map((failure) => failure.reason).join("\n")).toMatch(
      /\/v2\/meta-leaderboard\/latest: HTTP 404[^\n]*\/nowhere\/meta/,
    );
  }, 120_000);

  it("a config that holds a key is refused (exit 2) without showing it", async () => {
    const project = join(folder, "leaky");
    mkdirSync(project);
    writeFileSync(join(project, "pathlab.config.json"), JSON.stringify({ apiKey: KEY }));
    const run = await runPathlab(["sync", "--db", join(folder, "never.duckdb")], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "pathlab: pathlab.config.json: apiKey: expected no API key in a config file",
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);
  }, 60_000);
});
