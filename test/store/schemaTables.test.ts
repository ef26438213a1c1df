/**
 * The schema's tables and views, as `schema.ts` names them and as a freshly migrated database's
 * catalog holds them: the two lists must agree (the `query --help` text is built from the first,
 * `export` works from the second).
 */

import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { migratedTables, schemaTables } from "../../src/store/schemaTables.ts";

describe("schemaTables", () => {
  it("migratedTables lists exactly the tables and views of a freshly migrated database, in order", async () => {
    const store = await openStore(":memory:");
    const held = await schemaTables(store);
    const catalog = await queryRows(
      store,
      `select table_name from duckdb_tables() where database_name = current_database()
       union all select view_name from duckdb_views() where database_name = current_database() and not internal`,
    );
    await store.close();
    expect(held).toEqual(migratedTables());
    expect(held.map((table) => table.name).sort()).toEqual(
      catalog.rows
        .map(([name]) => String(name))
        .filter((name) => name !== "schema_migrations")
        .sort(),
    );
    expect(held.filter((table) => table.kind === "view")).toEqual([
      { name: "path_points", kind: "view" },
    ]);
    expect(held.map((table) => table.name)).toEqual(
      expect.arrayContaining(["runs", "path_values", "miner_scores", "smoothed_scores"]),
    );
  });

  it("schemaTables puts tables made outside the migrations after pathlab's, by name", async () => {
    const store = await openStore(":memory:");
    await queryRows(store, "create table zeta (x integer)");
    await queryRows(store, "create view alpha as select 1 as x");
    const names = (await schemaTables(store)).map((table) => table.name);
    await store.close();
    expect(names.slice(-2)).toEqual(["alpha", "zeta"]);
    expect(names.slice(0, -2)).toEqual(migratedTables().map((table) => table.name));
  });
});
