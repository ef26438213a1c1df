/**
 * `sync --lake` against an embedded sandbox (the small world), into a real lake of Parquet files
 * read back by DuckDB: the lake holds, row for row and value for value, what the same sync stores
 * into a DuckDB file; its path sets read back through the ids that join them to their values; a second
 * sync replaces its units instead of adding to them; two units of one competition leave one copy
 * of its leaderboard, and two leaderboards of one time (the history's, the latest) stay two in
 * either order; and a lake with a database given too is refused.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSync } from "../../../src/jobs/sync/sync.ts";
import { LAKE_ID_CODES, moveSyncUnitToLake } from "../../../src/jobs/sync/lake.ts";
import { syncUnitKey } from "../../../src/jobs/sync/plan.ts";
import { RECOMPUTABLE_PATHS } from "../../../src/insights/recompute.ts";
import { PREDICTION_ASSETS } from "../../../src/domain/assets.ts";
import type { SyncSummary, UnitSummary } from "../../../src/jobs/sync/summary.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { lakeFiles, openLake } from "../../../src/store/lake.ts";
import { insertLeaderboards } from "../../../src/store/leaderboardRows.ts";
import { openStore, type Store } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { readPathSets } from "../../../src/store/readPathSets.ts";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { createWorld } from "../../../src/sandbox/world/world.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const NOW = "2026-11-21T10:00:00Z";
/** The sandbox's world, read in this process. */
const world = createWorld({ ...SMALL_WORLD, seed: 42, nowUnix: parseIsoTimeMs(NOW) / 1000 });

/** A unit's path sets: the miners of the world's ensemble at its forecast start. */
function ensembleSize(unit: UnitSummary): number {
  const startUnix = parseIsoTimeMs(unit.forecastStartTime!) / 1000;
  return world.ensemble(unit.asset, unit.horizon, startUnix).minerUids.length;
}

/** Every row a sync stores, by table, without the run ids, the row ids and when path sets were fetched. */
const QUERIES: Readonly<Record<string, string>> = {
  path_sets: "select * exclude (id, run_id, fetched_at) from path_sets order by all",
  path_values: `select s.asset, s.miner_uid, s.start_time, s.time_length, v.path, v.prices
    from path_values v join path_sets s on s.id = v.path_set_id order by all`,
  insights: "select * exclude (id, run_id) from insights order by all",
  insight_values: `select i.operation, i.asset, i.horizon, i.source, v.field, v.key, v.value
    from insight_values v join insights i on i.id = v.insight_id order by all`,
  crosschecks: "select * exclude (run_id) from crosschecks order by all",
  venue_comparisons: "select * exclude (run_id) from venue_comparisons order by all",
  leaderboard_rows: "select * exclude (run_id) from leaderboard_rows order by all",
};

async function rowsOf(store: Store): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const [table, sql] of Object.entries(QUERIES)) {
    rows[table] = (await queryRows(store, sql)).rows as unknown[];
  }
  return rows;
}

let sandbox: EmbeddedSandbox;
/**
 * What every sync of the file syncs, from its sandbox: two units of one competition (crypto-1h),
 * so that they share its leaderboard.
 */
let selection: { assets: string[]; horizons: string[]; baseUrl: string; apiKey: string };
let folder: string;
let remove: () => void;
let lake: string;
let database: string;
let first: SyncSummary;

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW });
  selection = {
    assets: ["BTC", "ETH"],
    horizons: ["1h"],
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
  };
  ({ folder, remove } = temporaryFolder());
  lake = join(folder, "lake");
  database = join(folder, "p.duckdb");
  first = await runSync({ ...selection, lake });
  const stored = await runSync({ ...selection, database });
  expect(stored.status, JSON.stringify(stored.failures)).toBe("ok");
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

describe("sync --lake", () => {
  it("stores every unit, and says where", () => {
    expect(first.status, JSON.stringify(first.failures)).toBe("ok");
    expect(first.units.map((unit) => [unit.asset, unit.status])).toEqual([
      ["BTC", "stored"],
      ["ETH", "stored"],
    ]);
    expect(first.lake).toBe(lake);
    expect(first.database).toBe(":memory:");
    expect(first.totals.pathSets).toBe(ensembleSize(first.units[0]) + ensembleSize(first.units[1]));
    // the edges come from the units' own stores, before they are moved
    expect(first.venueEdges.markets).toBe(first.totals.venueComparisons);
  });

  it("holds what the same sync stores into a DuckDB file, row for row", async () => {
    const fromLake = await openLake(lake);
    const fromFile = await openStore(database, { readOnly: true });
    try {
      const [lakeRows, fileRows] = [await rowsOf(fromLake), await rowsOf(fromFile)];
      for (const table of Object.keys(QUERIES)) {
        expect(lakeRows[table].length, table).toBeGreaterThan(0);
        expect(lakeRows[table], table).toEqual(fileRows[table]);
      }
      // one copy of the crypto-1h leaderboard, though both units stored it
      const boards = await queryRows(
        fromLake,
        "select count(*) as n, count(distinct neuron_uid) as miners from leaderboard_rows",
      );
      expect(boards.rows[0][0]).toBe(boards.rows[0][1]);
      // the path sets read back through their ids, as from the file
      const query = {
        asset: "ETH",
        startTime: parseIsoTimeMs(first.units[1].forecastStartTime!) / 1000,
        timeIncrement: 60,
      };
      const [inLake, inFile] = [
        await readPathSets(fromLake, query),
        await readPathSets(fromFile, query),
      ];
      expect(inLake.length).toBe(ensembleSize(first.units[1]));
      expect(inLake.map((set) => [set.minerUid, set.values])).toEqual(
        inFile.map((set) => [set.minerUid, set.values]),
      );
    } finally {
      await fromLake.close();
      await fromFile.close();
    }
  });

  it("replaces its units when the same sync runs again: same rows, same ids, no copies", async () => {
    const before = await openLake(lake);
    const ids =
      "select 'path_sets', id from path_sets union all select 'insights', id from insights order by all";
    const [rowsBefore, idsBefore] = [await rowsOf(before), (await queryRows(before, ids)).rows];
    await before.close();
    const again = await runSync({ ...selection, lake });
    expect(again.status).toBe("ok");
    const after = await openLake(lake);
    try {
      expect(await rowsOf(after)).toEqual(rowsBefore);
      expect((await queryRows(after, ids)).rows).toEqual(idsBefore);
    } finally {
      await after.close();
    }
    // one folder per unit and write, one file of each table: readers take the second write's
    // (the rows above), and the first one's stays until a third write replaces the second
    const files = lakeFiles(join(lake, "units")).filter((file) =>
      file.endsWith("/path_sets.parquet"),
    );
    const expected = first.units.flatMap((unit) => {
      const startUnix = parseIsoTimeMs(unit.forecastStartTime!) / 1000;
      const date = unit.forecastStartTime!.slice(0, 10);
      const folder = `competition=crypto-1h/asset=${unit.asset}/date=${date}/unit-${syncUnitKey(unit, startUnix)}`;
      return [`${folder}.v0000000001/path_sets.parquet`, `${folder}.v0000000002/path_sets.parquet`];
    });
    expect(files).toEqual(expected.sort());
  }, 60_000);

  it("has a lake id code for every asset, operation and source the store can hold", () => {
    expect([...LAKE_ID_CODES.assets].sort()).toEqual([...PREDICTION_ASSETS].sort());
    expect([...LAKE_ID_CODES.operations].sort()).toEqual([...RECOMPUTABLE_PATHS].sort());
    expect(LAKE_ID_CODES.sources).toEqual(["service", "recomputed"]);
  });

  it("gives every path set and insight an id below 2^53, made of its natural key", async () => {
    const fromLake = await openLake(lake);
    try {
      for (const table of ["path_sets", "insights"]) {
        const { rows } = await queryRows(
          fromLake,
          `select count(*), count(distinct id) from ${table}`,
        );
        expect(rows[0][0], `${table}: one id per row`).toBe(rows[0][1]);
      }
      const insights = await queryRows(
        fromLake,
        `select id, epoch(forecast_start_time)::bigint // 60 - 26297280 as minute,
           case horizon when '1h' then 0 else 1 end as horizon, source from insights order by all`,
      );
      for (const [id, minute, horizon, source] of insights.rows) {
        expect(Number(id)).toBeLessThan(2 ** 53);
        // the top bits are the minute since 2020; then operation, asset, horizon, source
        expect(Math.floor(Number(id) / 2 ** 16)).toBe(Number(minute));
        expect(Math.floor(Number(id) / 4) % 2).toBe(Number(horizon));
        expect(Number(id) % 4).toBe(LAKE_ID_CODES.sources.indexOf(source as "service"));
      }
      const { rows } = await queryRows(
        fromLake,
        `select id, epoch(start_time)::bigint // 60 - 26297280 as minute, miner_uid from path_sets
         order by all`,
      );
      for (const [id, minute, miner] of rows.map((row) => row.map(Number))) {
        expect(id).toBeLessThan(2 ** 53);
        // the top bits are the minute since 2020, the next twelve the miner uid + 1
        expect(Math.floor(id / 2 ** 20)).toBe(minute);
        expect(Math.floor(id / 2 ** 8) % 2 ** 12).toBe(miner + 1);
      }
    } finally {
      await fromLake.close();
    }
  });

  it("refuses by name a row its id cannot hold: an asset without a code, a start off the minute", async () => {
    const plan = { asset: "BTC", horizon: "1h", competition: "crypto-1h", operations: [] } as const;
    for (const [asset, start, field] of [
      ["DOGE", "2026-11-21 10:00:00", "asset"],
      ["BTC", "2026-11-21 10:00:30", "minute"],
    ]) {
      const store = await openStore(":memory:");
      try {
        await store.withConnection((connection) =>
          connection.run(
            `insert into path_sets (asset, miner_uid, start_time, time_increment, time_length,
               n_paths, n_points, source, fetched_at)
             values ($asset, 7, $start::timestamp, 60, 3600, 1, 61, 'test', now()::timestamp)`,
            { asset, start },
          ),
        );
        await expect(
          moveSyncUnitToLake(store, join(folder, `refused-${field}`), plan, 1795341600),
        ).rejects.toThrow(
          new RegExp(
            `a row of path_sets has no lake id: its ${field} is outside what the id can hold`,
          ),
        );
      } finally {
        await store.close();
      }
    }
  });

  it("keeps the history's and the latest leaderboard of one time apart, as the file does, whichever comes last", async () => {
    // a unit of the past stores the latest leaderboard when the history has none that old, and
    // the unit of the clock the history's: the same rows for the same time, by two operations
    const rows = world.metaLeaderboard("crypto-1h", 14);
    const asOfUnix = parseIsoTimeMs(rows[0].updated_at) / 1000;
    const entries = (
      ["/v2/meta-leaderboard/historical", "/v2/meta-leaderboard/latest"] as const
    ).map((operation) => ({ operation, promptName: "crypto-1h", days: 14, asOfUnix, rows }));
    const file = await openStore(":memory:");
    await file.withConnection((connection) => insertLeaderboards(connection, entries, null));
    const inFile = (await queryRows(file, QUERIES.leaderboard_rows)).rows;
    await file.close();
    expect(inFile.length).toBe(2 * rows.length);
    const plan = { asset: "BTC", horizon: "1h", competition: "crypto-1h", operations: [] } as const;
    for (const order of [entries, [...entries].reverse()]) {
      const orderLake = join(folder, `leaderboards-${order[0].operation.split("/").pop()}-first`);
      for (const [index, entry] of order.entries()) {
        const unitStore = await openStore(":memory:");
        try {
          await unitStore.withConnection((connection) =>
            insertLeaderboards(connection, [entry], null),
          );
          await moveSyncUnitToLake(unitStore, orderLake, plan, asOfUnix - 3600 * (index + 1));
        } finally {
          await unitStore.close();
        }
      }
      const fromLake = await openLake(orderLake);
      try {
        expect((await queryRows(fromLake, QUERIES.leaderboard_rows)).rows).toEqual(inFile);
      } finally {
        await fromLake.close();
      }
    }
  });

  it("refuses a lake and a database together, naming both", async () => {
    await expect(runSync({ ...selection, lake, database })).rejects.toThrow(UsageError);
    await expect(runSync({ ...selection, lake, database })).rejects.toThrow(/--lake and --db/);
  });
});
