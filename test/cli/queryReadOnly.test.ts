/**
 * `pathlab query` is read-only for real: each escape found in issue 20 (use/detach/attach/drop,
 * COPY TO, ATTACH, INSTALL/LOAD, SET to undo the settings, CREATE TABLE, INSERT, EXPORT DATABASE,
 * reading files) run by the command on a real DuckDB file with rows in every table: each is
 * refused in one line with exit code 2, no file appears, and the database is unchanged afterwards,
 * byte for byte and table by table. The command runs in the test's process (one DuckDB load for
 * all the statements), then as the built command (`node dist/cli/main.js`) on the same file.
 */

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/openStore.ts";
import { filledStore } from "../store/filledStore.ts";
import { tableCounts, temporaryFolder } from "../store/helpers.ts";
import { runQuery } from "./queryLines.ts";
import { runPathlab } from "./runPathlab.ts";

let folder: string;
let remove: () => void;
let database: string;
let counts: Record<string, number>;
let digest: string;

function fileDigest(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  const store = await filledStore(folder);
  database = store.path;
  counts = await tableCounts(store);
  await store.close();
  digest = fileDigest(database);
}, 60_000);
afterAll(() => remove?.());

/** Each escape and what the refusal line says after `pathlab: query: parameter "sql": `. */
function escapes(): [string, RegExp][] {
  const out = (name: string) => join(folder, name);
  const refusedKind = (kind: string) =>
    new RegExp(`got a ${kind} statement \\(statement \\d+ of \\d+\\)$`);
  const duckdbRefused = /got a statement DuckDB refused: .*(disabled|locked)/;
  return [
    [
      `use memory; detach pathlab; attach '${database}' as p2; drop table p2.insights`,
      refusedKind("SET"),
    ],
    [`detach pathlab`, refusedKind("DETACH")],
    [`attach '${database}' as p2`, refusedKind("ATTACH")],
    [`attach '${out("new.duckdb")}' as p3`, refusedKind("ATTACH")],
    [`drop table insights`, refusedKind("DROP")],
    [`copy insights to '${out("insights.csv")}'`, duckdbRefused],
    [`copy (select 1) to '${out("one.parquet")}' (format parquet)`, duckdbRefused],
    [`export database '${out("dump")}'`, duckdbRefused],
    [`install httpfs`, refusedKind("LOAD")],
    [`load httpfs`, refusedKind("LOAD")],
    [`set enable_external_access = true`, refusedKind("SET")],
    [`reset lock_configuration`, refusedKind("SET")],
    [`set threads = 1`, refusedKind("SET")],
    [`pragma enable_profiling`, refusedKind("PRAGMA")],
    [`create table t (x int)`, refusedKind("CREATE")],
    [`create temp table t as select 1`, refusedKind("CREATE")],
    [`insert into runs select * from runs`, refusedKind("INSERT")],
    [`update runs set status = 'failed'`, refusedKind("UPDATE")],
    [`delete from insights`, refusedKind("DELETE")],
    [`checkpoint`, refusedKind("CALL")],
    [`select 1; drop table insights`, refusedKind("DROP")],
    [`select * from read_csv('/etc/hostname')`, duckdbRefused],
    [`select * from read_parquet('${out("*.parquet")}')`, duckdbRefused],
  ];
}

describe("pathlab query refuses what does not read", () => {
  it("each escape of issue 20 is refused with one line and exit code 2", async () => {
    for (const [sql, got] of escapes()) {
      const finished = await runQuery([sql, "--db", database]);
      expect(finished.code, `${sql}: ${finished.stderr}`).toBe(2);
      expect(finished.stdout, sql).toBe("");
      const [line, hint, ...rest] = finished.stderr.split("\n");
      expect(line, sql).toMatch(
        /^pathlab: query: parameter "sql": expected statements that only read the database/,
      );
      expect(line, sql).toMatch(got);
      expect(hint).toBe("(run 'npx pathlab query --help' for usage)");
      expect(rest).toEqual([""]);
    }
  }, 120_000);

  it("afterwards the database is unchanged, byte for byte and table by table, and no file appeared", async () => {
    expect(readdirSync(folder).sort()).toEqual(["pathlab.duckdb"]);
    expect(fileDigest(database)).toBe(digest);
    const store = await openStore(database, { readOnly: true });
    try {
      expect(await tableCounts(store)).toEqual(counts);
    } finally {
      await store.close();
    }
  });

  it("reads still work: SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN, informational PRAGMAs", async () => {
    const reads = [
      "select count(*) as n from insights",
      "with s as (select * from runs) select count(*) from s",
      "from runs select status",
      "describe insights",
      "show tables",
      "summarize runs",
      "explain select * from insights",
      "pragma table_info('runs')",
      "select * from duckdb_tables()",
      "select 1; select 2 as two",
    ];
    for (const sql of reads) {
      const finished = await runQuery([sql, "--db", database, "--json"]);
      expect(finished.code, `${sql}: ${finished.stderr}`).toBe(0);
      expect(JSON.parse(finished.stdout), sql).toEqual(expect.any(Array));
    }
    const count = await runPathlab([
      "query",
      "select count(*) as n from insights",
      "--db",
      database,
      "--ndjson",
    ]);
    expect(count.stdout).toBe(`{"n":${counts.insights}}\n`);
  }, 60_000);
});
