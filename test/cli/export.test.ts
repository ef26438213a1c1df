/**
 * `pathlab export` (and `query --help`) on a database written by `sync`, `score` and `audit`, as real
 * child processes against the embedded sandbox over HTTP: every table of the schema is exported
 * with its rows and read back by DuckDB, `--tables` is checked against the schema, and the help
 * lists the tables the database holds.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/program.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { schemaTables, type SchemaTable } from "../../src/store/schemaTables.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";
import { SMALL_WORLD } from "../smallWorld.ts";

const NOW = "2026-11-21T10:49:00Z";
const KEY = "sk-test-export-5e0b7a21c9";

let folder: string;
let remove: () => void;

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
});
afterAll(() => remove?.());

describe("a database written by sync and score", () => {
  let sandbox: EmbeddedSandbox;
  let both: string;
  let tables: SchemaTable[];

  beforeAll(async () => {
    sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
    both = join(folder, "both.duckdb");
    const env = { PATHLAB_BASE_URL: sandbox.url, PATHLAB_API_KEY: KEY };
    const sync = await runPathlab(
      ["sync", "--assets", "BTC", "--horizons", "1h", "--db", both, "--json"],
      { env },
    );
    expect(sync.code, sync.stderr).toBe(0);
    const score = await runPathlab(
      [
        "score",
        "--from",
        "2026-11-21T09:00:00Z",
        "--to",
        NOW,
        "--competition",
        "crypto-1h",
        "--assets",
        "BTC",
        "--miners",
        "top:2",
        "--db",
        both,
        "--json",
      ],
      { env },
    );
    expect(score.code, score.stderr).toBe(0);
    // an option record whose prices break put-call parity: a finding of audit
    const saved = join(folder, "saved");
    mkdirSync(join(saved, "option_pricing"), { recursive: true });
    writeFileSync(
      join(saved, "option_pricing", "BTC.json"),
      JSON.stringify({
        expiry_time: "2026-11-22T08:00:00Z",
        current_price: 100,
        call_options: { "90": 12, "100": 5, "110": 1 },
        put_options: { "90": 1, "100": 9, "110": 15 },
      }),
    );
    const audit = await runPathlab(["audit", "--dir", saved, "--assets", "BTC", "--db", both]);
    expect(audit.code, audit.stderr).toBe(1);
    const store = await openStore(both, { readOnly: true });
    tables = await schemaTables(store);
    await store.close();
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it("query --help lists every table and view the database holds", async () => {
    let help = "";
    const code = await runCli(["query", "--help"], {
      stdout: (text) => (help += text),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    const listed = (label: string) =>
      new RegExp(`${label}: ([\\w,\\s]+)\\.`)
        .exec(help)?.[1]
        .split(",")
        .map((name) => name.trim());
    expect(listed("Tables")).toEqual(
      tables.filter((table) => table.kind === "table").map((table) => table.name),
    );
    expect(listed("Views")).toEqual(["path_points"]);
  });

  it("export writes every table of the schema, each with its rows, and DuckDB reads each back", async () => {
    const out = join(folder, "export");
    const exported = await runPathlab(["export", "--out", out, "--db", both, "--json"]);
    expect(exported.code, exported.stderr).toBe(0);
    const written = JSON.parse(exported.stdout) as {
      table: string;
      rows: number;
      files: string[];
    }[];
    const schema = tables.filter((table) => table.kind === "table").map((table) => table.name);
    expect(new Set(written.map((entry) => entry.table))).toEqual(new Set(schema));
    expect(schema).toEqual(
      expect.arrayContaining(["miner_scores", "smoothed_scores", "calibration", "path_values"]),
    );
    const store = await openStore(both, { readOnly: true });
    try {
      for (const entry of written) {
        const stored = await queryRows(store, `select count(*) from ${entry.table}`);
        expect(entry.rows, entry.table).toBe(Number(stored.rows[0][0]));
        expect(entry.rows, entry.table).toBeGreaterThan(0);
        const read = await queryRows(
          store,
          "select count(*) from read_parquet($glob, hive_partitioning = true)",
          { glob: join(out, entry.table, "**", "*.parquet") },
        );
        expect(Number(read.rows[0][0]), entry.table).toBe(entry.rows);
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  it("export --tables takes tables of the schema; another name is a usage error (exit 2, one line and a hint)", async () => {
    const out = join(folder, "scores");
    const some = await runPathlab([
      "export",
      "--out",
      out,
      "--db",
      both,
      "--tables",
      "miner_scores,smoothed_scores",
      "--json",
    ]);
    expect(some.code, some.stderr).toBe(0);
    const written = JSON.parse(some.stdout) as { table: string; files: string[] }[];
    expect(written.map((entry) => entry.table)).toEqual(["miner_scores", "smoothed_scores"]);
    expect(written[0].files).toEqual([
      expect.stringMatching(/^asset=BTC\/date=2026-11-21\/data_\d+\.parquet$/),
    ]);
    expect(written[1].files).toEqual([
      expect.stringMatching(/^date=2026-11-21\/data_\d+\.parquet$/),
    ]);
    const unknown = await runPathlab([
      "export",
      "--out",
      out,
      "--db",
      both,
      "--tables",
      "runs,path_points",
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `pathlab: export: parameter "--tables": expected tables of the database (${tables
        .filter((table) => table.kind === "table")
        .map((table) => table.name)
        .join(", ")}), got "path_points"\n(run 'npx pathlab export --help' for usage)\n`,
    );
  }, 30_000);
});
