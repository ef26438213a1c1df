/**
 * Migrations 7 and 8: a version-6 database keeps its venue comparisons, which read as not judged
 * (null `decided`, no edge, no between-miner error, null `tradable`); new rows carry the judgement.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/migrations.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";

const directory = mkdtempSync(join(tmpdir(), "pathlab-migration-7-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it("migrations 7 and 8 keep a version-6 database's venue comparisons, not judged", async () => {
  const path = join(directory, "v6.duckdb");
  const old = await openStore(path, { migrations: MIGRATIONS.slice(0, 6) });
  await queryRows(
    old,
    `insert into venue_comparisons (operation, asset, horizon, forecast_start_time, slug, market,
       kind, event_end_time, observed_at, current_price, service_probability, venue_probability,
       record, run_id)
     values ('/insights/venuea/above/daily', 'ETH', '24h', '2026-11-20 10:00:00', 'eth-above',
       '>2150', 'above', '2026-11-20 17:00:00', '2026-11-20 10:00:00', 2186.98, 0.4186, 0.9985,
       '{}', 1)`,
  );
  await old.close();
  expect(MIGRATIONS.slice(6)).toMatchObject([
    { version: 7, name: "tradable venue comparisons" },
    { version: 8, name: "robust venue edges" },
  ]);
  const store = await openStore(path);
  try {
    expect(store.appliedMigrations.map((migration) => migration.version)).toEqual([7, 8]);
    const { rows } = await queryRows(
      store,
      `select market, service_probability, decided, edge_side, net_edge,
         between_miner_standard_error, tradable from venue_comparisons`,
    );
    expect(rows).toEqual([[">2150", 0.4186, null, null, null, null, null]]);
  } finally {
    await store.close();
  }
});
