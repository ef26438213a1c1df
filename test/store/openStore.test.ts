import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, type Migration } from "../../src/store/migrations.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { StoreError, StoreLockedError } from "../../src/store/storeError.ts";
import { writeUnit } from "../../src/store/writeUnit.ts";
import {
  randomPathSet,
  startChild,
  stopChild,
  TABLES,
  tableCounts,
  temporaryFolder,
} from "./helpers.ts";

let folder: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ folder, remove } = temporaryFolder());
  path = join(folder, "pathlab.duckdb");
});
afterEach(() => remove());

/** The schema version of this pathlab: its last migration. */
const LATEST = MIGRATIONS.length;
const NEXT = LATEST + 1;

const extraTable: Migration = {
  version: NEXT,
  name: "add notes",
  statements: [`CREATE TABLE notes (asset VARCHAR NOT NULL, start_time TIMESTAMP NOT NULL)`],
};

describe("migrations", () => {
  it("openStore creates every table and records every migration in schema_migrations", async () => {
    const store = await openStore(path);
    expect(store.appliedMigrations.map((migration) => migration.version)).toEqual(
      MIGRATIONS.map((migration) => migration.version),
    );
    const { rows } = await queryRows(
      store,
      "select version, name from schema_migrations order by 1",
    );
    expect(rows[0]).toEqual([1, "initial schema"]);
    expect(rows).toEqual(MIGRATIONS.map((migration) => [migration.version, migration.name]));
    const tables = await queryRows(
      store,
      "select table_name from duckdb_tables() where database_name = current_database() order by 1",
    );
    const scoringTables = [
      "prompts",
      "realized_prices",
      "service_scores",
      "miner_scores",
      "smoothed_scores",
      "calibration",
      "rank_history",
    ];
    expect(tables.rows.map((row) => row[0])).toEqual(
      [...TABLES, ...scoringTables, "audit_findings", "schema_migrations"].sort((a, b) =>
        a.localeCompare(b),
      ),
    );
    await store.close();
  });

  it("migrations are idempotent: reopening, or migrating again, applies nothing", async () => {
    await (await openStore(path)).close();
    const again = await openStore(path);
    expect(again.appliedMigrations).toEqual([]);
    const rerun = await again.withConnection((connection) => migrate(connection, path));
    expect(rerun).toEqual([]);
    const { rows } = await queryRows(again, "select count(*) from schema_migrations");
    expect(rows).toEqual([[LATEST]]);
    await again.close();
  });

  it("a new migration is applied once, after the ones already applied", async () => {
    await (await openStore(path)).close();
    const upgraded = await openStore(path, { migrations: [...MIGRATIONS, extraTable] });
    expect(upgraded.appliedMigrations.map((migration) => migration.name)).toEqual(["add notes"]);
    await upgraded.close();
    const reopened = await openStore(path, { migrations: [...MIGRATIONS, extraTable] });
    expect(reopened.appliedMigrations).toEqual([]);
    const { rows } = await queryRows(reopened, "select version from schema_migrations order by 1");
    expect(rows).toEqual([...MIGRATIONS, extraTable].map((migration) => [migration.version]));
    await reopened.close();
  });

  it("a failing migration is rolled back whole and named in the error", async () => {
    await (await openStore(path)).close();
    const broken: Migration = {
      version: NEXT,
      name: "broken",
      statements: [`CREATE TABLE half_done (x INTEGER)`, `CREATE TABLE oops (x NOT_A_TYPE)`],
    };
    const failure = await openStore(path, { migrations: [...MIGRATIONS, broken] }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^migrate on ".*pathlab\\.duckdb": migration ${NEXT} \\("broken"\\) failed and was rolled back: .*NOT_A_TYPE`,
      ),
    );
    const store = await openStore(path);
    const { rows } = await queryRows(
      store,
      "select count(*) from duckdb_tables() where table_name = 'half_done'",
    );
    expect(rows).toEqual([[0]]);
    expect((await queryRows(store, "select count(*) from schema_migrations")).rows).toEqual([
      [LATEST],
    ]);
    await store.close();
  });

  it("migration 3 keeps every run of a version-2 database, its ids and the id sequence, and allows interrupted", async () => {
    const old = await openStore(path, { migrations: MIGRATIONS.slice(0, 2) });
    await queryRows(
      old,
      `insert into runs (started_at, command, args, status, failures) values
         ('2026-11-20 10:00:00', 'sync', '{}', 'ok', '[]'),
         ('2026-11-20 11:00:00', 'score', '{"from":"x"}', 'partial', '[{"reason":"r"}]'),
         ('2026-11-20 12:00:00', 'sync', '{}', 'failed', '[]')`,
    );
    await queryRows(old, "delete from runs where id = 3");
    await expect(
      queryRows(old, "update runs set status = 'interrupted' where id = 1"),
    ).rejects.toThrow(/CHECK constraint/);
    await old.close();
    // a version-2 database reads alike for version 3: query and export took it before migrating
    const reader = await openStore(path, { readOnly: true, migrations: MIGRATIONS.slice(0, 3) });
    expect((await queryRows(reader, "select count(*) from runs")).rows).toEqual([[2]]);
    await reader.close();
    const store = await openStore(path);
    expect(store.appliedMigrations.map((migration) => migration.version)).toEqual(
      MIGRATIONS.slice(2).map((migration) => migration.version),
    );
    const runs = await queryRows(
      store,
      "select id, command, args, status, failures from runs order by id",
    );
    expect(runs.rows).toEqual([
      [1, "sync", "{}", "ok", "[]"],
      [2, "score", '{"from":"x"}', "partial", '[{"reason":"r"}]'],
    ]);
    await queryRows(
      store,
      "insert into runs (started_at, command, args, status, failures) values ('2026-11-21 10:00:00', 'sync', '{}', 'interrupted', '[]')",
    );
    // the sequence goes on where it was (3 was taken before the migration)
    expect((await queryRows(store, "select max(id) from runs")).rows).toEqual([[4]]);
    await expect(queryRows(store, "update runs set status = 'lost' where id = 1")).rejects.toThrow(
      /CHECK constraint/,
    );
    // migration 5: a run may be abandoned, and records its process (none for the older rows)
    await queryRows(store, "update runs set status = 'abandoned' where id = 2");
    expect((await queryRows(store, "select pid, host from runs where id = 1")).rows).toEqual([
      [null, null],
    ]);
    expect(
      (await queryRows(store, "select count(*) from duckdb_tables() where table_name like 'runs%'"))
        .rows,
    ).toEqual([[1]]);
    await store.close();
  });

  it("migration 4 keeps every score of a version-3 database and allows the service as a source", async () => {
    const old = await openStore(path, { migrations: MIGRATIONS.slice(0, 3) });
    await queryRows(
      old,
      `insert into miner_scores values
         ('BTC', 300, 86400, '2026-11-20 10:00:00', 'network', 17, 812.5, '{"5min": 3.5}', 12,
          null, 812.5, 12, 'agree', 1),
         ('BTC', 300, 86400, '2026-11-20 10:00:00', 'candidate', -1, -1, '{}', 40,
          'Number of paths is incorrect: expected 1000, got 999', null, null, 'not compared', 1)`,
    );
    await expect(
      queryRows(
        old,
        `insert into miner_scores values ('BTC', 300, 86400, '2026-11-20 10:00:00', 'service', 18,
           1, '{}', 1, null, 1, 1, 'agree', 1)`,
      ),
    ).rejects.toThrow(/CHECK constraint/);
    await old.close();
    // a version-3 database does not read alike: the new columns are not there yet
    await expect(openStore(path, { readOnly: true })).rejects.toThrow(
      `expected schema version ${LATEST}, got schema version 3`,
    );
    const store = await openStore(path);
    expect(store.appliedMigrations.map((migration) => migration.version)).toEqual(
      MIGRATIONS.slice(3).map((migration) => migration.version),
    );
    const kept = await queryRows(
      store,
      `select source, miner_uid, crps, intervals, invalid_reason, hotkey, price_crps, volatility_crps
       from miner_scores order by miner_uid`,
    );
    expect(kept.rows).toEqual([
      [
        "candidate",
        -1,
        -1,
        "{}",
        "Number of paths is incorrect: expected 1000, got 999",
        null,
        null,
        null,
      ],
      ["network", 17, 812.5, '{"5min": 3.5}', null, null, null, null],
    ]);
    await queryRows(
      store,
      `insert into miner_scores (asset, time_increment, time_length, start_time, source, miner_uid,
         crps, intervals, verdict, hotkey) values
         ('BTC', 300, 86400, '2026-11-20 10:00:00', 'service', 18, 900, '{}', 'not compared', '5F')`,
    );
    expect((await queryRows(store, "select count(*) from rank_history")).rows).toEqual([[0]]);
    expect(
      (
        await queryRows(
          store,
          "select count(*) from duckdb_tables() where table_name like 'miner_scores%'",
        )
      ).rows,
    ).toEqual([[1]]);
    await store.close();
  });

  it("a database migrated by a newer pathlab is refused, naming its version", async () => {
    await (await openStore(path, { migrations: [...MIGRATIONS, extraTable] })).close();
    await expect(openStore(path)).rejects.toThrow(
      `schema version ${NEXT} ("add notes"), which this pathlab does not know (its latest is ${LATEST})`,
    );
    await expect(openStore(path, { readOnly: true })).rejects.toThrow(
      `expected schema version ${LATEST}, got schema version ${NEXT}, made by a newer pathlab`,
    );
  });

  it("migrate requires migrations numbered 1, 2, … in order", async () => {
    const store = await openStore(":memory:");
    await expect(
      store.withConnection((connection) =>
        migrate(connection, ":memory:", [MIGRATIONS[0], { ...extraTable, version: 3 }]),
      ),
    ).rejects.toThrow(
      'migrate requires migrations numbered 1, 2, … in order: expected version 2 at position 1, got 3 ("add notes")',
    );
    await store.close();
  });
});

describe("read-only opens", () => {
  it("a read-only store reads, and refuses transactions and writing SQL", async () => {
    const writer = await openStore(path);
    await writeUnit(writer, {
      asset: "BTC",
      horizon: "24h",
      forecastStartTimeUnix: 1772063100,
      pathSets: [{ pathSet: randomPathSet(5, 3, 4), source: "test", fetchedAtUnix: 1772063117 }],
    });
    await writer.close();
    const reader = await openStore(path, { readOnly: true });
    expect(reader.readOnly).toBe(true);
    expect((await tableCounts(reader)).path_values).toBe(3);
    await expect(reader.withTransaction(async () => 1)).rejects.toThrow(
      "withTransaction on " +
        JSON.stringify(path) +
        ": the store is open read-only; open it with { readOnly: false } to write",
    );
    await expect(queryRows(reader, "delete from path_values")).rejects.toThrow(/read-only/);
    await reader.close();
  });

  it("a read-only open of a missing file says there is no database there", async () => {
    await expect(openStore(join(folder, "absent.duckdb"), { readOnly: true })).rejects.toThrow(
      /no database file there; a read-only open needs an existing database \(run `npx pathlab sync` to create one\)/,
    );
  });

  it("a read-only open of a file without pathlab's schema asks for a migration", async () => {
    await (await openStore(path, { migrations: [] })).close();
    await expect(openStore(path, { readOnly: true })).rejects.toThrow(
      `expected schema version ${LATEST}, got no pathlab schema; open it once for writing`,
    );
  });
});

describe("transactions", () => {
  it("withTransaction commits what the work did and returns its result", async () => {
    const store = await openStore(":memory:");
    const result = await store.withTransaction(async (connection) => {
      await connection.run(
        "insert into runs (started_at, command, args, status, failures) values (now()::timestamp, 'sync', '{}', 'running', '[]')",
      );
      return "done";
    });
    expect(result).toBe("done");
    expect((await tableCounts(store)).runs).toBe(1);
    await store.close();
  });

  it("withTransaction rolls back everything when the work throws, and rethrows", async () => {
    const store = await openStore(":memory:");
    const failure = new Error("boom after an insert");
    await expect(
      store.withTransaction(async (connection) => {
        await connection.run(
          "insert into runs (started_at, command, args, status, failures) values (now()::timestamp, 'sync', '{}', 'running', '[]')",
        );
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await tableCounts(store)).runs).toBe(0);
    // the connection is usable afterwards (no transaction left open)
    await store.withTransaction(async (connection) => connection.run("select 1"));
    await store.close();
  });

  it("concurrent withTransaction calls run one after the other, never interleaved", async () => {
    const store = await openStore(":memory:");
    const order: string[] = [];
    const work = (name: string) =>
      store.withTransaction(async (connection) => {
        order.push(`${name} begins`);
        await connection.run("select 1");
        await new Promise((resolve) => setTimeout(resolve, 10));
        order.push(`${name} ends`);
      });
    await Promise.all([work("a"), work("b"), work("c")]);
    expect(order).toEqual(["a begins", "a ends", "b begins", "b ends", "c begins", "c ends"]);
    await store.close();
  });

  it("a closed store refuses work", async () => {
    const store = await openStore(":memory:");
    await store.close();
    await store.close(); // twice is fine
    await expect(queryRows(store, "select 1")).rejects.toThrow(
      'withConnection on ":memory:": the store is closed',
    );
  });
});

describe("locks", () => {
  it("opening a file another process writes fails with its PID and what to do", async () => {
    await (await openStore(path)).close();
    const holder = await startChild("holdStore", [path, "write"], "ready");
    try {
      const failure = await openStore(path).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreLockedError);
      const locked = failure as StoreLockedError;
      expect(locked.pid).toBe(holder.pid);
      expect(locked.readOnlyWouldSucceed).toBe(false);
      expect(locked.message).toBe(
        `database ${JSON.stringify(path)} is locked by another process (PID ${holder.pid}, ${locked.program}) that may be writing to it; close that process or wait for its job to end, then retry (read-only opens are refused too while a writer holds the file)`,
      );
      // DuckDB's own words are kept as the cause
      expect(String((locked.cause as Error).message)).toMatch(
        new RegExp(
          `Could not set lock on file .*Conflicting lock is held in .* \\(PID ${holder.pid}\\)`,
        ),
      );
      const readOnly = await openStore(path, { readOnly: true }).catch((error: unknown) => error);
      expect(readOnly).toBeInstanceOf(StoreLockedError);
      expect((readOnly as Error).message).toMatch(
        /that is writing to it; wait for its job to end or close that process, then retry/,
      );
    } finally {
      await stopChild(holder, "SIGKILL");
    }
    // once the holder is gone the file opens again
    await (await openStore(path)).close();
  });

  it("a file another process reads can be opened read-only, and not for writing", async () => {
    await (await openStore(path)).close();
    const holder = await startChild("holdStore", [path, "read"], "ready");
    try {
      const reader = await openStore(path, { readOnly: true });
      await reader.close();
      const failure = await openStore(path).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreLockedError);
      expect((failure as StoreLockedError).readOnlyWouldSucceed).toBe(true);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `locked by another process \\(PID ${holder.pid}, .*\\) that has it open read-only; open it read-only too \\(\\{ readOnly: true \\}`,
        ),
      );
    } finally {
      await stopChild(holder, "SIGKILL");
    }
  });
});

describe("paths with quotes", () => {
  it("openStore opens a file whose path contains a single quote", async () => {
    const quoted = join(folder, "it's.duckdb");
    const store = await openStore(quoted);
    expect((await tableCounts(store)).runs).toBe(0);
    await store.close();
  });
});

describe("closing", () => {
  it("close waits for queued work and refuses work asked for after it", async () => {
    const store = await openStore(":memory:");
    const queued = queryRows(store, "select 42");
    const closing = store.close();
    await expect(queryRows(store, "select 1")).rejects.toThrow("the store is closed");
    expect((await queued).rows).toEqual([[42]]);
    await closing;
  });
});
