/**
 * `pathlab mcp` as an assistant meets it: the built command (`node dist/cli/main.js mcp`) in its
 * own process, spoken to over stdio by the official SDK's client, on a database that a real sync
 * of the small-world sandbox wrote. Every tool's answer is compared with SQL run on the same file
 * here; a write is refused as a tool error and the file stays byte-identical; the server keeps
 * serving after a failed call; the row cap says how many rows it left out. The job tools against
 * the embedded sandbox the server starts: `audit` answers what `pathlab audit --stored` answers on
 * a copy of the file; `score_candidate` reports progress, answers what the stored scores hold,
 * and a cancelled call stops its run, which is stored as interrupted, while the server goes on.
 *
 * Over 300 lines: one server process, on one database, serves every case in order (the read-only
 * cases before the job tools write), so the protocol's cases stay in one file.
 */
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaseline } from "../../src/jobs/baseline/baseline.ts";
import { runSync } from "../../src/jobs/sync/sync.ts";
import { TABLES } from "../../src/store/schema.ts";
import { startEmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { SMALL_WORLD } from "../smallWorld.ts";
import { runPathlab } from "./runPathlab.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const KEY = "sk-test-mcp-5d1f0c2a";
/** The clock of the sandbox the server's job tools talk to: every prompt of the ranges is scored. */
const SCORE_NOW = "2026-11-21T10:49:00Z";

let folder: string;
let remove: () => void;
let database: string;
let client: Client;
let stderr = "";

/** The rows of `sql` on the database, as objects keyed by column (the tools' form). */
async function expectedRows(sql: string): Promise<Record<string, unknown>[]> {
  const store = await openStore(database, { readOnly: true });
  try {
    const { columns, rows } = await queryRows(store, sql);
    return rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]])));
  } finally {
    await store.close();
  }
}

/** Only `keys` of each of a tool's rows, to compare with SQL that selects those columns. */
function pick(rows: unknown, ...keys: string[]): Record<string, unknown>[] {
  return (rows as Record<string, unknown>[]).map((row) =>
    Object.fromEntries(keys.map((key) => [key, row[key]])),
  );
}

const digest = () => createHash("sha256").update(readFileSync(database)).digest("hex");

/** A tool's call: its rows and note, or its error text. */
async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0].text;
  return {
    isError: result.isError === true,
    text,
    rows: (result.structuredContent as { rows?: unknown[] } | undefined)?.rows,
    leftOut: (result.structuredContent as { leftOut?: number } | undefined)?.leftOut,
  };
}

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  database = join(folder, "pathlab.duckdb");
  const sandbox = await startEmbeddedSandbox({
    ...SMALL_WORLD,
    seed: 42,
    now: "2026-11-21T10:00:00Z",
    apiKey: KEY,
  });
  try {
    const summary = await runSync({
      assets: ["BTC"],
      horizons: ["1h", "24h"],
      baseUrl: sandbox.url,
      apiKey: KEY,
      database,
    });
    expect(summary.status).toBe("ok");
  } finally {
    await sandbox.close();
  }
  await runBaseline({
    from: "2026-11-21T09:20:00Z",
    to: "2026-11-21T09:45:00Z",
    competition: "crypto-1h",
    assets: ["BTC"],
    model: "random-walk",
    out: join(folder, "candidate"),
    now: SCORE_NOW,
    sandboxMiners: SMALL_WORLD.miners,
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ...["dist/cli/main.js", "mcp", "--db", database],
      ...["--now", SCORE_NOW, "--sandbox-miners", String(SMALL_WORLD.miners)],
    ],
    cwd: repoRoot,
    env: { ...(process.env as Record<string, string>), PATHLAB_API_KEY: KEY },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (data: Buffer) => (stderr += String(data)));
  client = new Client({ name: "pathlab-test", version: "1.0.0" });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  remove?.();
});

describe("pathlab mcp over stdio", () => {
  it("lists its tools, each with an object schema, and the schema and table resources", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "query",
      "tables",
      "insight",
      "crosschecks",
      "edges",
      "leaderboard",
      "audit",
      "score_candidate",
    ]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "pathlab://schema",
      ...TABLES.map((table) => `pathlab://tables/${table.name}`),
      "pathlab://tables/path_points",
    ]);
    const schema = await client.readResource({ uri: "pathlab://schema" });
    const tables = JSON.parse((schema.contents[0] as { text: string }).text) as { name: string }[];
    expect(tables.map((table) => table.name)).toContain("venue_comparisons");
    const one = await client.readResource({ uri: "pathlab://tables/venue_comparisons" });
    const described = JSON.parse((one.contents[0] as { text: string }).text);
    const columns = await expectedRows(
      "select column_name || ' ' || data_type as c from duckdb_columns() where table_name = 'venue_comparisons' order by column_index",
    );
    expect(described).toEqual({
      name: "venue_comparisons",
      description: TABLES.find((table) => table.name === "venue_comparisons")!.description,
      columns: columns.map((row) => row.c),
    });
    await expect(client.readResource({ uri: "pathlab://tables/nope" })).rejects.toThrow(
      /no resource pathlab:\/\/tables\/nope/,
    );
  });

  it("query answers a select with the rows SQL gives, and caps them, saying how many it left out", async () => {
    const sql = "select operation, field, key, verdict from crosschecks order by all";
    const all = await expectedRows(sql);
    expect(all.length).toBeGreaterThan(3);
    const answer = await call("query", { sql, limit: 3 });
    expect(answer.isError).toBe(false);
    expect(answer.rows).toEqual(all.slice(0, 3));
    expect(answer.leftOut).toBe(all.length - 3);
    expect(answer.text).toContain(`${all.length - 3} more rows left out (limit 3)`);
  });

  it("refuses a write as a tool error, leaves the file as it was, and keeps serving", async () => {
    const before = digest();
    const [{ n }] = await expectedRows("select count(*)::INTEGER as n from runs");
    for (const sql of [
      "drop table runs",
      "explain analyze delete from runs",
      `attach '${join(folder, "x.duckdb")}' as x`,
    ]) {
      const refused = await call("query", { sql });
      expect(refused.isError, sql).toBe(true);
      expect(refused.text, sql).toMatch(
        /^query: parameter "sql": expected statements that only read the database/,
      );
    }
    const wrong = await call("query", { sql: "select * from no_such_table" });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(
      /^query: Catalog Error: Table with name no_such_table does not exist/,
    );
    expect((await call("query", { sql: "select count(*)::INTEGER as n from runs" })).rows).toEqual([
      { n },
    ]);
    expect(digest()).toBe(before);
  });

  it("names a bad argument or tool as a tool error", async () => {
    expect(await call("query", {})).toMatchObject({
      isError: true,
      text: "query: sql must be a non-empty string",
    });
    expect(await call("edges", { limit: 0 })).toMatchObject({
      isError: true,
      text: "edges: limit must be a whole number from 1 to 10000, got 0",
    });
    expect((await call("frobnicate")).text).toMatch(
      /^no tool frobnicate: pathlab mcp has query, tables/,
    );
  });

  it("tables lists every table and view the database holds, with what a row holds", async () => {
    const { rows } = await call("tables");
    const expected = await expectedRows(
      "select distinct table_name as name from duckdb_columns() where not internal and table_name <> 'schema_migrations' order by 1",
    );
    const listed = rows as { name: string; description: string }[];
    expect(listed.map((row) => row.name)).toEqual(expected.map((row) => row.name));
    const runs = listed.find((row) => row.name === "runs")!;
    expect(runs.description).toBe(TABLES[0].description);
    expect(runs.description).toMatch(/^The runs of pathlab's jobs/);
  });

  it("insight, crosschecks and edges answer what the stored rows hold", async () => {
    const insight = await call("insight", {
      asset: "BTC",
      operation: "/insights/liquidation",
      horizon: "1h",
    });
    const latest = await expectedRows(
      "select source, record from insights where asset = 'BTC' and operation = '/insights/liquidation' and horizon = '1h' " +
        "and forecast_start_time = (select max(forecast_start_time) from insights where asset = 'BTC' and operation = '/insights/liquidation' and horizon = '1h') order by source",
    );
    expect(latest.map((row) => row.source)).toEqual(["recomputed", "service"]);
    expect(pick(insight.rows, "source", "record")).toEqual(latest);
    const verdicts = await expectedRows(
      "select verdict, count(*)::INTEGER as n from crosschecks where asset = 'BTC' and operation = '/insights/liquidation' and horizon = '1h' " +
        "and forecast_start_time = (select max(forecast_start_time) from insights where asset = 'BTC' and operation = '/insights/liquidation' and horizon = '1h') group by 1 order by 1",
    );
    expect(verdicts.length).toBeGreaterThan(0);
    for (const row of insight.rows as { verdicts: unknown; disagreements: unknown }[]) {
      const counts = JSON.parse(String(row.verdicts)) as Record<string, number>;
      expect(counts).toEqual(Object.fromEntries(verdicts.map((item) => [item.verdict, item.n])));
      const disagreeing = (counts.mismatch ?? 0) + (counts.missing ?? 0);
      const listed = row.disagreements === null ? [] : JSON.parse(String(row.disagreements));
      expect(listed).toHaveLength(disagreeing);
    }

    const checks = await call("crosschecks", { asset: "BTC" });
    const counted = await expectedRows(
      "select verdict, count(*)::INTEGER as n from crosschecks group by 1 order by 1",
    );
    const byVerdict = new Map<string, number>();
    for (const row of checks.rows as { verdict: string; n: number }[]) {
      byVerdict.set(row.verdict, (byVerdict.get(row.verdict) ?? 0) + row.n);
    }
    expect(Object.fromEntries(byVerdict)).toEqual(
      Object.fromEntries(counted.map((row) => [row.verdict, row.n])),
    );

    const edges = await call("edges", { asset: "BTC" });
    const open = await expectedRows(
      "select market, net_edge from venue_comparisons where not coalesce(decided, false) order by coalesce(tradable, false) desc, net_edge desc nulls last",
    );
    expect(open.length).toBeGreaterThan(0);
    expect(pick(edges.rows, "market", "net_edge")).toEqual(open);
  });

  it("leaderboard answers from smoothed_scores (none before a score run), and the key appears nowhere", async () => {
    const board = await call("leaderboard");
    expect(board.isError).toBe(false);
    expect(board.rows).toEqual(await expectedRows("select * from smoothed_scores limit 0"));
    expect(stderr).toContain("pathlab mcp: serving");
    expect(stderr).not.toContain(KEY);
  });

  it("audit answers what pathlab audit --stored finds on the same records", async () => {
    const answer = await call("audit");
    expect(answer.isError, answer.text).toBe(false);
    const copy = join(folder, "audit-copy.duckdb");
    copyFileSync(database, copy);
    const cli = await runPathlab(["audit", "--stored", "--db", copy, "--json"]);
    expect(cli.code, cli.stderr).toBeLessThanOrEqual(1);
    const expected = JSON.parse(cli.stdout) as {
      findings: number;
      reports: { asset: string; forecastStartTime?: string; compared: number }[];
    };
    const got = JSON.parse(answer.text) as {
      findings: number;
      reports: { asset: string; forecast_start_time: string | null; compared: number }[];
    };
    expect(expected.reports.map((report) => report.asset)).toEqual(["BTC"]);
    expect(expected.reports[0].compared).toBeGreaterThan(0);
    expect(got.findings).toBe(expected.findings);
    expect(
      got.reports.map(({ asset, forecast_start_time, compared }) => ({
        asset,
        forecastStartTime: forecast_start_time,
        compared,
      })),
    ).toEqual(
      expected.reports.map(({ asset, forecastStartTime, compared }) => ({
        asset,
        forecastStartTime,
        compared,
      })),
    );
  });

  it("score_candidate reports progress and answers the candidate's place, as the stored scores hold it", async () => {
    const progress: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      {
        name: "score_candidate",
        arguments: {
          candidate: join(folder, "candidate"),
          competition: "crypto-1h",
          from: "2026-11-21T09:20:00Z",
          to: "2026-11-21T09:45:00Z",
        },
      },
      undefined,
      { onprogress: (event) => progress.push(event) },
    );
    const text = (result.content as { text: string }[])[0].text;
    expect(result.isError, text).not.toBe(true);
    const answer = result.structuredContent as {
      run_id: number;
      competitions: { competition: string; prompts: number; valid: number; mean_crps: number }[];
    };
    const stored = await expectedRows(
      `select count(*)::INTEGER as n, avg(crps) as mean from miner_scores where miner_uid = -1 and run_id = ${answer.run_id} and crps >= 0`,
    );
    expect(stored[0].n).toBeGreaterThan(0);
    const [crypto1h] = answer.competitions;
    expect(crypto1h.competition).toBe("crypto-1h");
    expect(crypto1h.valid).toBe(stored[0].n);
    expect(crypto1h.mean_crps).toBeCloseTo(stored[0].mean as number, 9);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ progress: progress.at(-1)!.total });
    expect(text).not.toContain(KEY);
    expect(readFileSync(database).includes(KEY)).toBe(false);

    const board = await call("leaderboard", { competition: "crypto-1h" });
    const latest = await expectedRows(
      "select miner_uid, reward_weight from smoothed_scores where competition = 'crypto-1h' qualify as_of = max(as_of) over () order by reward_weight desc nulls last, miner_uid",
    );
    expect(latest.length).toBeGreaterThan(0);
    expect(pick(board.rows, "miner_uid", "reward_weight")).toEqual(latest);
    const early = await call("leaderboard", {
      competition: "crypto-1h",
      at: "2020-01-01T00:00:00Z",
    });
    expect(early.rows).toEqual([]);
    expect(await call("leaderboard", { at: "yesterday" })).toMatchObject({
      isError: true,
      text: 'leaderboard: at: expected an ISO 8601 time such as 2026-11-21T08:00:00Z, got "yesterday"',
    });
  }, 120_000);

  it("a cancelled score_candidate stops its run, stored as interrupted, and the server goes on", async () => {
    const controller = new AbortController();
    const call = client.callTool(
      {
        name: "score_candidate",
        arguments: {
          candidate: join(folder, "candidate"),
          competition: "crypto-1h",
          from: "2026-11-21T03:00:00Z",
          to: "2026-11-21T09:45:00Z",
        },
      },
      undefined,
      { signal: controller.signal, onprogress: () => controller.abort("enough") },
    );
    await expect(call).rejects.toThrow();
    const statusOfLast = async () => {
      try {
        const [last] = await expectedRows(
          "select status from runs where command = 'score' order by id desc limit 1",
        );
        return last.status;
      } catch {
        return "running"; // the file is the run's while it writes
      }
    };
    // the server stops the run once the cancellation arrives; its row says so when it has
    for (let wait = 0; wait < 100 && (await statusOfLast()) === "running"; wait++) {
      await new Promise((done) => setTimeout(done, 200));
    }
    expect(await statusOfLast()).toBe("interrupted");
    const after = await client.callTool({ name: "tables", arguments: {} });
    expect(after.isError).not.toBe(true);
  }, 120_000);
});
