/**
 * The schema in one place: a new database, and a database of every earlier schema version brought
 * up to date by the migrations, hold exactly the tables, columns (names and types, in order), keys
 * and views that `schema.ts` states, and the same catalog (each table's and view's DDL as DuckDB
 * writes it back, constraints and defaults included, and the sequences). Real DuckDB files in a
 * temp folder; each earlier version is built by the migrations as they shipped
 * (`MIGRATIONS.slice(0, version)`).
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/migrations.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { SCHEMA_MIGRATIONS_TABLE, TABLES, VIEWS } from "../../src/store/schema.ts";
import { temporaryFolder } from "./helpers.ts";

/** What a database's catalog says of its tables, views and sequences. */
interface Catalog {
  /** Per table, its columns in order as `name TYPE`. */
  readonly columns: Record<string, string[]>;
  /** Each PRIMARY KEY and UNIQUE constraint: table, kind and columns. */
  readonly keys: string[];
  /** Each table's and view's DDL as DuckDB writes it back. */
  readonly statements: string[];
  readonly views: string[];
  readonly sequences: string[];
}

const IN_DATABASE = "database_name = current_database()";

/** The catalog of the database at `path`, opened read-only. */
async function catalogOf(path: string): Promise<Catalog> {
  const store = await openStore(path, { readOnly: true });
  try {
    const rows = async (sql: string) => (await queryRows(store, sql)).rows;
    const columns: Record<string, string[]> = {};
    for (const [table, name, type] of await rows(
      `select table_name, column_name, data_type from duckdb_columns() where ${IN_DATABASE}
       and table_name in (select table_name from duckdb_tables() where ${IN_DATABASE})
       order by table_name, column_index`,
    )) {
      (columns[String(table)] ??= []).push(`${String(name)} ${String(type)}`);
    }
    const keys = await rows(
      `select table_name || ' ' || constraint_type || ' (' || array_to_string(constraint_column_names, ', ') || ')'
       from duckdb_constraints() where ${IN_DATABASE} and constraint_type in ('PRIMARY KEY', 'UNIQUE')
       order by 1`,
    );
    const statements = await rows(
      `select sql from duckdb_tables() where ${IN_DATABASE}
       union all select sql from duckdb_views() where ${IN_DATABASE} and not internal order by 1`,
    );
    const views = await rows(
      `select view_name from duckdb_views() where ${IN_DATABASE} and not internal order by 1`,
    );
    const sequences = await rows(
      `select sequence_name from duckdb_sequences() where ${IN_DATABASE} order by 1`,
    );
    return {
      columns,
      keys: keys.map(([key]) => String(key)),
      statements: statements.map(([sql]) => String(sql)),
      views: views.map(([name]) => String(name)),
      sequences: sequences.map(([name]) => String(name)),
    };
  } finally {
    await store.close();
  }
}

/** The catalog parts that `schema.ts` states, as {@link catalogOf} reads them. */
function stated(): Omit<Catalog, "statements"> {
  const tables = [...TABLES, SCHEMA_MIGRATIONS_TABLE];
  return {
    columns: Object.fromEntries(
      tables.map((table) => [table.name, table.columns.map(([name, type]) => `${name} ${type}`)]),
    ),
    keys: tables
      .flatMap((table) => [
        ...(table.primaryKey === undefined
          ? []
          : [`${table.name} PRIMARY KEY (${table.primaryKey.join(", ")})`]),
        ...(table.unique === undefined
          ? []
          : [`${table.name} UNIQUE (${table.unique.join(", ")})`]),
      ])
      .sort(),
    views: VIEWS.map((view) => view.name).sort(),
    sequences: tables.flatMap((table) => table.sequence ?? []).sort(),
  };
}

let folder: string;
let remove: () => void;
let fresh: Catalog;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  const path = join(folder, "new.duckdb");
  await (await openStore(path)).close();
  fresh = await catalogOf(path);
});
afterAll(() => remove?.());

describe("the schema", () => {
  it("a new database holds exactly the tables, columns, keys, views and sequences of schema.ts", () => {
    const { statements, ...held } = fresh;
    expect(held).toEqual(stated());
    expect(statements).toHaveLength(TABLES.length + 1 + VIEWS.length);
  });

  it("a database built by every migration, one by one, holds the same catalog", async () => {
    const path = join(folder, "stepwise.duckdb");
    const store = await openStore(path, { migrations: MIGRATIONS });
    expect(store.appliedMigrations).toEqual(MIGRATIONS);
    await store.close();
    expect(await catalogOf(path)).toEqual(fresh);
  });

  for (let version = 1; version < MIGRATIONS.length; version++) {
    it(`a database of schema version ${version}, migrated, holds the same catalog`, async () => {
      const path = join(folder, `version-${version}.duckdb`);
      await (await openStore(path, { migrations: MIGRATIONS.slice(0, version) })).close();
      const store = await openStore(path);
      expect(store.appliedMigrations).toEqual(MIGRATIONS.slice(version));
      await store.close();
      const migrated = await catalogOf(path);
      expect(migrated.columns).toEqual(stated().columns);
      expect(migrated).toEqual(fresh);
    });
  }
});
