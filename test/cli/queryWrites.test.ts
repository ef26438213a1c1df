/**
 * `pathlab query` writes nothing, on a database (`--db`) or a lake (`--lake`), and the refusal of
 * a write is DuckDB's own: every kind of statement DuckDB has that writes or reaches outside
 * (INSERT, UPDATE, DELETE, CREATE of each kind, DROP, ALTER, COPY to and from, EXPORT/IMPORT,
 * ATTACH/DETACH, INSTALL/LOAD, SET/RESET/PRAGMA, CHECKPOINT, VACUUM, CALL…), each as it is and as
 * `EXPLAIN ANALYZE …` (which the statement check lets through, so DuckDB alone refuses it), aimed
 * at the files of the target itself. Each is refused with one line and exit code 2, and afterwards
 * every file of the database's folder and of the lake is byte-identical and the row counts the same.
 * The lake comes from a real sync (one unit) of a small-world sandbox in the test's process; the
 * statements run through the program in the test's process, two of them also as the built command.
 */

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSync } from "../../src/jobs/sync/sync.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { LAKE_MARKER, LAKE_UNITS, openLake } from "../../src/store/lake.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { SMALL_WORLD } from "../smallWorld.ts";
import { filledStore } from "../store/filledStore.ts";
import { tableCounts, temporaryFolder } from "../store/helpers.ts";
import { runQuery } from "./queryLines.ts";
import { runPathlab } from "./runPathlab.ts";

/** A target of `pathlab query`: its option, the files it is made of, and one file to aim at. */
interface Target {
  readonly name: "--db" | "--lake";
  /** The folder holding the target's files (the database's folder, or the lake). */
  readonly folder: string;
  /** `--db <file>` or `--lake <folder>`. */
  readonly args: readonly string[];
  /** A file of the target that a write would overwrite: the database, or a unit's Parquet file. */
  readonly file: string;
  /** Reopens the target to count its rows. */
  readonly open: () => Promise<Store>;
}

let sandbox: EmbeddedSandbox;
let remove: () => void;
let targets: Target[];
/** Per target: every file under its folder, with its SHA-256, and the row counts of its tables. */
const before = new Map<string, { files: Record<string, string>; counts: Record<string, number> }>();

/** Every file under `folder`, relative to it, with its SHA-256. */
function fileDigests(folder: string): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(folder, entry);
    digests[entry] = statSync(path).isDirectory()
      ? "folder"
      : createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return digests;
}

async function countsOf(target: Target): Promise<Record<string, number>> {
  const store = await target.open();
  try {
    return await tableCounts(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  const temporary = temporaryFolder();
  remove = temporary.remove;
  const databaseFolder = join(temporary.folder, "database");
  const lake = join(temporary.folder, "lake");
  mkdirSync(databaseFolder);
  const store = await filledStore(databaseFolder);
  await store.close();
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: "2026-11-21T10:00:00Z" });
  const summary = await runSync({
    assets: ["BTC"],
    horizons: ["1h"],
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    lake,
  });
  expect(summary.status, JSON.stringify(summary.failures)).toBe("ok");
  const database = store.path;
  const unitFile = readdirSync(join(lake, LAKE_UNITS), { recursive: true, encoding: "utf8" }).find(
    (entry) => entry.endsWith("insights.parquet"),
  );
  targets = [
    {
      name: "--db",
      folder: databaseFolder,
      args: ["--db", database],
      file: database,
      open: () => openStore(database, { readOnly: true }),
    },
    {
      name: "--lake",
      folder: lake,
      args: ["--lake", lake],
      file: join(lake, LAKE_UNITS, unitFile!),
      open: () => openLake(lake),
    },
  ];
  for (const target of targets) {
    before.set(target.name, { files: fileDigests(target.folder), counts: await countsOf(target) });
  }
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

/**
 * Every kind of statement that writes or reaches outside, aimed at `target`: `file` is one of
 * its files, `folder` its folder.
 */
function writes(target: Target): string[] {
  const { file, folder } = target;
  const marker = target.name === "--lake" ? join(folder, LAKE_MARKER) : file;
  return [
    "insert into runs select * from runs",
    "update runs set status = 'failed'",
    "delete from runs",
    "create table t (x int)",
    "create table t as select * from insights",
    "create or replace table runs as select 1 as x",
    "create view v as select 1 as x",
    "create macro m(x) as x + 1",
    "create sequence s",
    "create schema s",
    "create type mood as enum ('up', 'down')",
    "create index runs_status on runs (status)",
    "drop table runs",
    "drop table insights",
    "alter table runs rename to old_runs",
    "alter table runs add column extra int",
    `copy runs to '${join(folder, "runs.csv")}'`,
    `copy (select * from insights where false) to '${file}'`,
    `copy (select * from insights where false) to '${file}' (format parquet, use_tmp_file false)`,
    `copy (select 1 as x) to '${marker}' (format csv, header false)`,
    `copy runs from '${file}'`,
    `export database '${join(folder, "dump")}'`,
    `import database '${folder}'`,
    `attach '${join(folder, "new.duckdb")}' as other`,
    `attach '${file}' as other`,
    "attach ':memory:' as scratch",
    "copy from database memory to memory",
    "detach memory",
    "use memory",
    "install httpfs",
    "load httpfs",
    "update extensions",
    "set enable_external_access = true",
    `set allowed_directories = ['${folder}/']`,
    "set threads = 1",
    "reset lock_configuration",
    "pragma enable_profiling",
    `pragma profile_output = '${join(folder, "profile.txt")}'`,
    "checkpoint",
    "force checkpoint",
    "call checkpoint()",
    "vacuum",
    "vacuum analyze runs",
    "analyze",
    "begin transaction",
    "prepare p as delete from runs",
    `select * from read_parquet('${file}')`,
    `select * from read_csv('${marker}')`,
    "select * from read_csv('/etc/hostname')",
  ];
}

/**
 * What DuckDB runs inside `EXPLAIN ANALYZE` because it changes nothing on a read-only database:
 * a checkpoint or vacuum with nothing to write, a transaction or a prepared statement of the
 * session, profiling of the session. The files are compared afterwards like every other case.
 */
const RUNS_AND_CHANGES_NOTHING = [
  "pragma enable_profiling",
  "checkpoint",
  "force checkpoint",
  "call checkpoint()",
  "vacuum",
  "vacuum analyze runs",
  "begin transaction",
  "prepare p as delete from runs",
].map((sql) => `explain analyze ${sql}`);

/** The refusal line of the statement check (a statement that does not read). */
const KIND_REFUSED = /, got a [A-Z_]+ statement \(statement \d+ of \d+\)$/;
/** The refusal line of DuckDB itself, and DuckDB's errors for SQL it does not parse or bind. */
const DUCKDB_REFUSED =
  /(and touch no other file, got a statement DuckDB refused: (Permission Error|Invalid Input Error): |^pathlab: query: (Parser|Binder) Error: )/;

/** `statement`'s outcome: run (and changing nothing) or refused with one line and exit code 2. */
function expectRefused(statement: string, finished: Awaited<ReturnType<typeof runQuery>>): void {
  if (RUNS_AND_CHANGES_NOTHING.includes(statement)) {
    expect(finished.code, `${statement}: ${finished.stderr}`).toBe(0);
    return;
  }
  expect(finished.code, `${statement}: ${finished.stderr}`).toBe(2);
  expect(finished.stdout, statement).toBe("");
  const [line, hint, ...rest] = finished.stderr.split("\n");
  expect(hint, statement).toBe("(run 'npx pathlab query --help' for usage)");
  expect(rest, statement).toEqual([""]);
  // the statement check lets EXPLAIN through: what refuses it is DuckDB
  const explained = statement.startsWith("explain analyze ");
  expect(line, statement).toMatch(explained ? DUCKDB_REFUSED : /./);
  if (!explained && !DUCKDB_REFUSED.test(line)) expect(line).toMatch(KIND_REFUSED);
}

describe.each(["--db", "--lake"])("pathlab query %s writes nothing", (name) => {
  const target = () => targets.find((candidate) => candidate.name === name)!;

  it("refuses each write, as it is and inside EXPLAIN ANALYZE, with one line and exit code 2", async () => {
    const statements = writes(target()).flatMap((sql) => [sql, `explain analyze ${sql}`]);
    // Four at a time: each query reads a private copy of its own, so none sees another's.
    for (let at = 0; at < statements.length; at += 4) {
      const batch = statements.slice(at, at + 4);
      const results = await Promise.all(
        batch.map((statement) => runQuery([...target().args, statement])),
      );
      batch.forEach((statement, index) => expectRefused(statement, results[index]));
    }
  }, 300_000);

  it("refuses by DuckDB's own error the writes of issue 43: COPY over a file, CREATE, DELETE", async () => {
    const { file } = target();
    const cases: [string, RegExp][] = [
      [
        `explain analyze copy (select * from insights where false) to '${file}' (format parquet, use_tmp_file false)`,
        /DuckDB refused: Permission Error: Cannot access file ".*" - file system operations are disabled by configuration$/,
      ],
      [
        "explain analyze create table t as select 1",
        /DuckDB refused: Invalid Input Error: Cannot execute statement of type "EXPLAIN" on database "\w+" which is attached in read-only mode!$/,
      ],
      [
        "explain analyze delete from runs",
        /DuckDB refused: Invalid Input Error: Cannot execute statement of type "EXPLAIN" on database "\w+" which is attached in read-only mode!$/,
      ],
    ];
    for (const [sql, refusal] of cases) {
      const finished = await runQuery([...target().args, sql]);
      expect(finished.code, finished.stderr).toBe(2);
      expect(finished.stderr.split("\n")[0]).toMatch(refusal);
    }
  }, 60_000);

  it("cannot write the private copy it reads, nor its WAL, even without the statement check", async () => {
    const store = await (name === "--db"
      ? openStore(target().file, { locked: true })
      : openLake(target().folder, ["runs"]));
    try {
      await store.withConnection(async (connection) => {
        const reader = await connection.runAndReadAll(
          "select path from duckdb_databases() where path is not null",
        );
        const copy = String(reader.getRowsJS()[0][0]);
        expect(copy.startsWith(target().folder)).toBe(false);
        for (const path of [copy, `${copy}.wal`]) {
          // DuckDB allows an instance its own database's files; their folder is gone
          await expect(
            connection.run(`copy (select 1 as x) to '${path}' (format csv, use_tmp_file false)`),
          ).rejects.toThrow(/No such file or directory/);
        }
      });
    } finally {
      await store.close();
    }
  }, 60_000);

  it("refuses EXPLAIN ANALYZE COPY over its own file as the built command too: exit code 2", async () => {
    const { file } = target();
    const finished = await runPathlab([
      "query",
      ...target().args,
      `explain analyze copy (select 1 as x) to '${file}' (format csv, use_tmp_file false)`,
    ]);
    expect(finished.code, finished.stderr).toBe(2);
    expect(finished.stderr).toMatch(/DuckDB refused: Permission Error: Cannot access file/);
  }, 60_000);

  it("afterwards every file is byte-identical, no file appeared, and the counts are the same", async () => {
    const { files, counts } = before.get(name)!;
    expect(fileDigests(target().folder)).toEqual(files);
    expect(await countsOf(target())).toEqual(counts);
  });
});
