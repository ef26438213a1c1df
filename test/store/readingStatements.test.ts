/**
 * A `locked` store (what `pathlab query` opens) on a real DuckDB file: DuckDB's statement types
 * decide what runs (only reads), and the instance itself holds even when the check is bypassed:
 * the issue-20 escape (re-attach and drop), COPY, ATTACH of another file, SET and read_parquet all
 * fail on the connection, and the database keeps every row.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { StatementType } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows, streamRows } from "../../src/store/queryRows.ts";
import {
  READING_STATEMENT_TYPES,
  readingStatements,
  StatementRefusedError,
} from "../../src/store/readingStatements.ts";
import { filledStore } from "./filledStore.ts";
import { tableCounts, temporaryFolder } from "./helpers.ts";

let folder: string;
let remove: () => void;
let database: string;
let counts: Record<string, number>;
let store: Store;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  const filled = await filledStore(folder);
  database = filled.path;
  counts = await tableCounts(filled);
  await filled.close();
  store = await openStore(database, { locked: true });
}, 60_000);
afterAll(async () => {
  await store?.close();
  remove?.();
});

describe("readingStatements", () => {
  it("gives DuckDB's prepared statements, each of a reading type, in order", async () => {
    const types = await store.withConnection(async (connection) => {
      const statements = await readingStatements(
        connection,
        "select 1; describe runs; explain select 2; pragma table_info('runs'); summarize runs",
        database,
      );
      const found = statements.map((statement) => statement.statementType);
      for (const statement of statements) statement.destroySync();
      return found;
    });
    expect(types).toEqual([
      StatementType.SELECT,
      StatementType.SELECT,
      StatementType.EXPLAIN,
      StatementType.SELECT,
      StatementType.SELECT,
    ]);
    expect(READING_STATEMENT_TYPES).toEqual([StatementType.SELECT, StatementType.EXPLAIN]);
  });

  it("refuses the first statement that does not read, naming its place and DuckDB's type", async () => {
    const refused = await store
      .withConnection((connection) =>
        readingStatements(connection, "select 1; use memory; drop table runs", database),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StatementRefusedError);
    expect((refused as StatementRefusedError).statementKind).toBe("SET");
    expect((refused as Error).message).toMatch(
      /^query on ".*": statement 2 of 3 is a SET statement;/,
    );
  });

  it("queryRows and streamRows on a locked store refuse before anything runs, and still read", async () => {
    await expect(queryRows(store, "drop table insights")).rejects.toThrow(StatementRefusedError);
    await expect(streamRows(store, "delete from runs", async () => 0)).rejects.toThrow(
      /statement 1 of 1 is a DELETE statement/,
    );
    await expect(queryRows(store, "-- only a comment")).rejects.toThrow(/holds no statement/);
    const { rows } = await queryRows(store, "select 1; select count(*) from runs where id > $id", {
      id: 0,
    });
    expect(Number(rows[0][0])).toBe(counts.runs);
  });
});

describe("the locked instance, with the statement check bypassed", () => {
  const escapes: [string, RegExp][] = [
    ["set enable_external_access = true", /configuration has been locked/],
    ["reset lock_configuration", /configuration has been locked/],
    ["set access_mode = 'READ_WRITE'", /configuration has been locked|Cannot change/],
    ["drop table insights", /read-only mode/],
    ["insert into runs select * from runs", /read-only mode/],
    ["copy runs to '$folder/runs.csv'", /disabled by configuration/],
    ["export database '$folder/dump'", /disabled by configuration/],
    ["attach '$folder/other.duckdb' as other", /disabled by configuration/],
    ["attach ':memory:' as scratch", /read-only mode/],
    ["load httpfs", /disabled through configuration/],
    ["select * from read_parquet('$folder/*.parquet')", /disabled by configuration/],
  ];

  it("refuses each escape of issue 20 on its own", async () => {
    for (const [template, error] of escapes) {
      const sql = template.replaceAll("$folder", folder);
      await expect(
        store.withConnection((connection) => connection.run(sql)),
        sql,
      ).rejects.toThrow(error);
    }
    // the sequence: the file cannot be attached again to drop a table there (the store
    // reads a private copy, and DuckDB refuses the file itself as it refuses any other)
    await expect(
      store.withConnection((connection) => connection.run(`attach '${database}' as p2`)),
    ).rejects.toThrow(/Permission Error: Cannot access file .* disabled by configuration/);
    expect(existsSync(join(folder, "runs.csv"))).toBe(false);
    expect(existsSync(join(folder, "other.duckdb"))).toBe(false);
  });

  it("leaves every row in place", async () => {
    const reader = await openStore(database, { readOnly: true });
    try {
      expect(await tableCounts(reader)).toEqual(counts);
    } finally {
      await reader.close();
    }
  });
});
