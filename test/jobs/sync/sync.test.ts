/**
 * The sync job against the sandbox over real HTTP on 127.0.0.1, into real DuckDB files in a temp
 * folder: what a sync of BTC and ETH at 24h and 1h stores (checked against the sandbox's own world
 * and by SQL), that a second sync of the same clock adds nothing, that with faults on it completes
 * and records every failure, and that the API key is nowhere.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncEvent } from "../../../src/jobs/sync/events.ts";
import { runSync } from "../../../src/jobs/sync/sync.ts";
import type { SyncSummary } from "../../../src/jobs/sync/summary.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { HORIZON_LAYOUTS } from "../../../src/domain/insightConventions.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { openStore, type Store } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { readPathSets } from "../../../src/store/readPathSets.ts";
import { bytesOf, tableCounts } from "../../store/helpers.ts";
import { FAST_RETRIES, SYNC_NOW, SYNC_SELECTION, syncFixture } from "../syncFixture.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const NOW = SYNC_NOW;
const KEY = "sk-test-sync-5f1d0c9a2b7e4d31";
const SELECTION = SYNC_SELECTION;
const CLIENT = FAST_RETRIES;
const fixture = syncFixture(KEY, SMALL_WORLD);

/** GET with the key, as JSON (the test's own plain client). */
async function getJson(path: string, query: Record<string, string | number>): Promise<unknown> {
  const search = new URLSearchParams(
    Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
  );
  const response = await fetch(`${fixture.sandbox.url}${path}?${search}`, {
    headers: { Authorization: `Apikey ${KEY}` },
  });
  if (!response.ok) throw new Error(`GET ${path}?${search}: ${response.status}`);
  return response.json();
}

async function withStore<T>(path: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(path, { readOnly: true });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function rows(store: Store, sql: string): Promise<unknown[][]> {
  return (await queryRows(store, sql)).rows as unknown[][];
}

/** Every text of every VARCHAR or JSON column of the schema that contains `needle`. */
async function textsContaining(store: Store, needle: string): Promise<string[]> {
  const columns = await rows(
    store,
    `select table_name, column_name from duckdb_columns()
     where database_name = current_database() and data_type in ('VARCHAR', 'JSON')`,
  );
  const found: string[] = [];
  for (const [table, column] of columns) {
    const { rows: hits } = await queryRows(
      store,
      `select "${String(column)}" from "${String(table)}" where contains(CAST("${String(column)}" AS VARCHAR), $needle)`,
      { needle },
    );
    for (const [value] of hits) found.push(`${String(table)}.${String(column)}: ${String(value)}`);
  }
  return found;
}

/** The database file and any sidecar (WAL), as text. */
function databaseText(path: string): string {
  const directory = join(path, "..");
  const name = path.split("/").at(-1) as string;
  return readdirSync(directory)
    .filter((file) => file.startsWith(name))
    .map((file) => readFileSync(join(directory, file)).toString("latin1"))
    .join("\n");
}

describe("sync against the sandbox over HTTP", () => {
  const database = () => join(fixture.folder, "sync.duckdb");
  let summary: SyncSummary;
  const events: SyncEvent[] = [];

  beforeAll(async () => {
    summary = await runSync({
      ...SELECTION,
      database: database(),
      baseUrl: fixture.sandbox.url,
      apiKey: KEY,
      client: CLIENT,
      onEvent: (event) => events.push(event),
    });
  }, 180_000);

  it("stores every unit, with nothing failed", () => {
    expect(summary.failures).toEqual([]);
    expect(summary.status).toBe("ok");
    expect(summary.exitCode).toBe(0);
    expect(summary.units.map((unit) => `${unit.asset} ${unit.horizon} ${unit.status}`)).toEqual([
      "BTC 24h stored",
      "BTC 1h stored",
      "ETH 24h stored",
      "ETH 1h stored",
    ]);
    const ended = events.filter((event) => event.type === "unit-end");
    expect(ended).toHaveLength(4);
    const bytes = events.filter((event) => event.type === "bytes").at(-1);
    expect(bytes).toEqual({
      type: "bytes",
      bytesFetched: summary.totals.bytesFetched,
      requests: summary.totals.requests,
    });
  });

  it("stores the top-10 path sets of the ranking, bit for bit as the sandbox serves them", async () => {
    await withStore(database(), async (store) => {
      // BTC at both horizons (ETH takes the same path through the code; its cross-checks below)
      for (const unit of summary.units.filter((candidate) => candidate.asset === "BTC")) {
        const startUnix = parseIsoTimeMs(unit.forecastStartTime as string) / 1000;
        const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[unit.horizon];
        const stored = await readPathSets(store, {
          asset: unit.asset,
          startTime: startUnix,
          timeIncrement,
          timeLength: horizonMinutes * 60,
        });
        // The service's rule (DOMAIN.md §4), walked here plainly: ranking order, the first ten
        // miners with a set of only positive prices.
        const ranking = (await getJson("/v2/meta-leaderboard/latest", {
          days: 14,
          prompt_name: unit.competition,
        })) as { neuron_uid: number }[];
        const expected: { minerUid: number; values: Float64Array }[] = [];
        for (const { neuron_uid: minerUid } of ranking) {
          if (expected.length === 10) break;
          const sets = (await getJson("/v2/prediction/historical", {
            asset: unit.asset,
            time_increment: timeIncrement,
            time_length: horizonMinutes * 60,
            start_time: new Date(startUnix * 1000).toISOString(),
            miner: minerUid,
          })) as { predictions: number[][] }[];
          const values = Float64Array.from(sets[0]?.predictions.flat() ?? []);
          if (values.length > 0 && values.every((price) => price > 0)) {
            expected.push({ minerUid, values });
          }
        }
        // readPathSets returns them by miner uid
        expected.sort((a, b) => a.minerUid - b.minerUid);
        expect(stored.map((pathSet) => pathSet.minerUid)).toEqual(
          expected.map((member) => member.minerUid),
        );
        stored.forEach((pathSet, index) => {
          expect(bytesOf(pathSet.values).equals(bytesOf(expected[index].values))).toBe(true);
        });
      }
    });
  }, 60_000);

  it("cross-checks every insight and venue record exact against the sandbox", async () => {
    await withStore(database(), async (store) => {
      const verdicts = await rows(
        store,
        "select verdict, count(*) from crosschecks group by verdict order by verdict",
      );
      expect(verdicts).toEqual([["exact", summary.totals.verdicts.exact]]);
      expect(summary.totals.verdicts.exact).toBeGreaterThan(20_000);
      // every operation of each unit: its service record and its recomputation
      const perUnit = await rows(
        store,
        `select asset, horizon, source, count(*) from insights group by all order by all`,
      );
      const operations = { "24h": 14, "1h": 13 }; // test/jobs/syncPlan.test.ts
      expect(perUnit).toEqual(
        ["BTC", "ETH"].flatMap((asset) =>
          (["1h", "24h"] as const).flatMap((horizon) =>
            ["recomputed", "service"].map((source) => [
              asset,
              horizon,
              source,
              operations[horizon],
            ]),
          ),
        ),
      );
      const crossChecked = await rows(
        store,
        "select count(distinct (operation, asset, horizon)) from crosschecks",
      );
      expect(crossChecked).toEqual([[2 * 14 + 2 * 13]]);
    });
  });

  it("stores venue comparisons: the service's model probability, the recomputed one, the venue's, the order book and the window", async () => {
    await withStore(database(), async (store) => {
      const [[count, far, venue, book, windows]] = await rows(
        store,
        `select count(*),
           count(*) filter (where abs(recomputed_probability - service_probability) > 0.0001 + 1e-12),
           count(venue_probability), count(best_ask_price), count(*) filter (where event_end_time > observed_at)
         from venue_comparisons`,
      );
      expect(Number(count)).toBe(summary.totals.venueComparisons);
      expect(Number(count)).toBeGreaterThan(0);
      expect(Number(far)).toBe(0);
      expect(Number(venue)).toBe(Number(count));
      expect(Number(book)).toBeGreaterThan(0);
      expect(Number(windows)).toBe(Number(count));
      // the service probability is the record's model probability
      const [[mismatched]] = await rows(
        store,
        `select count(*) from venue_comparisons where service_probability !=
           coalesce(CAST(record->>'model_probability_up' AS DOUBLE), CAST(record->>'model_probability' AS DOUBLE))`,
      );
      expect(Number(mismatched)).toBe(0);
    });
  });

  it("records the run with its arguments, status and no failures", async () => {
    await withStore(database(), async (store) => {
      const [[command, status, failures, args]] = await rows(
        store,
        "select command, status, failures, args from runs",
      );
      expect([command, status, JSON.parse(String(failures))]).toEqual(["sync", "ok", []]);
      expect(JSON.parse(String(args))).toMatchObject({
        assets: ["BTC", "ETH"],
        horizons: ["24h", "1h"],
        service: { kind: "service", baseUrl: fixture.sandbox.url },
      });
    });
  });

  it("a second sync of the same clock changes no row count but the runs'", async () => {
    const before = await withStore(database(), tableCounts);
    // Its 1h units again (each unit is replaced whole, at either horizon, by the same code).
    const again = await runSync({
      ...SELECTION,
      horizons: ["1h"],
      database: database(),
      baseUrl: fixture.sandbox.url,
      apiKey: KEY,
      client: CLIENT,
    });
    expect(again.status).toBe("ok");
    const after = await withStore(database(), tableCounts);
    expect(after).toEqual({ ...before, runs: before.runs + 1 });
  }, 180_000);

  it("the API key is in no table, no byte of the database, no event and no summary", async () => {
    expect(JSON.stringify(summary)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    await withStore(database(), async (store) => {
      expect(await textsContaining(store, KEY)).toEqual([]);
      // the search finds what is there
      expect((await textsContaining(store, fixture.sandbox.url)).length).toBeGreaterThan(0);
    });
    const text = databaseText(database());
    expect(text.includes(KEY)).toBe(false);
    expect(text.includes(`"baseUrl":"${fixture.sandbox.url}"`)).toBe(true);
  });
});

describe("sync with the sandbox's faults on", () => {
  // Every 3rd path-set response is one point short. The first two rules, counting requests over
  // every path, answer some of those requests with an error first, and then the short set never
  // shows: with every 9th, runs here saw 1 or 2 short sets, and a CI run none; with every 3rd,
  // 10–13 in three runs.
  const FAULTS =
    "5xx=0.2,429burst=3,retryafter=50ms; truncate=0.04,malformed=0.04;" +
    " path=/v2/prediction/*,shortpaths=every:3,nan=every:13";

  // The same (already scored) sandbox, its faults switched on for this test only.
  beforeAll(() => fixture.sandbox.setFaults(FAULTS));
  afterAll(() => fixture.sandbox.setFaults(""));

  it("completes, stores what could be fetched, records every failure with its reason, and exits 1", async () => {
    const database = join(fixture.folder, "faults.duckdb");
    // Two units, at the horizon of the cheaper path sets: what is stored or failed is the point.
    const summary = await runSync({
      assets: ["BTC", "ETH"],
      horizons: ["1h"],
      database,
      baseUrl: fixture.sandbox.url,
      apiKey: KEY,
      client: CLIENT,
    });
    expect(summary.exitCode).toBe(1);
    expect(summary.failures.length).toBeGreaterThan(0);
    for (const failure of summary.failures) {
      expect(failure.reason.length, JSON.stringify(failure)).toBeGreaterThan(10);
      expect(failure.unit).toBe(`${failure.asset} ${failure.horizon}`);
    }
    // A set with paths one point short is fetched again: valid then, it is counted as refetched
    // and is no failure; invalid on every copy, it is a failure named with the validator's words.
    const shortSets = summary.failures.filter((failure) =>
      /Number of time points is incorrect: expected (289, got 288|61, got 60)/.test(failure.reason),
    );
    expect(shortSets.length + summary.totals.pathSetsRefetched).toBeGreaterThan(0);
    for (const failure of shortSets)
      expect(failure.reason).toMatch(/invalid on every copy fetched/);
    const stored = summary.units.filter((unit) => unit.status === "stored");
    expect(stored.length).toBeGreaterThan(0);
    expect(summary.status).toBe("partial");
    expect(summary.totals.failures).toBe(summary.failures.length);
    await withStore(database, async (store) => {
      const [[status, failures]] = await rows(store, "select status, failures from runs");
      expect(status).toBe("partial");
      expect(JSON.parse(String(failures))).toEqual(JSON.parse(JSON.stringify(summary.failures)));
      for (const unit of summary.units) {
        const [[pathSets, insights, crosschecks]] = await rows(
          store,
          `select (select count(*) from path_sets where asset = '${unit.asset}'
                    and time_increment = ${HORIZON_LAYOUTS[unit.horizon].timeIncrement}),
                  (select count(*) from insights where asset = '${unit.asset}' and horizon = '${unit.horizon}'),
                  (select count(*) from crosschecks where asset = '${unit.asset}' and horizon = '${unit.horizon}')`,
        );
        if (unit.status === "stored") {
          expect(Number(pathSets), `${unit.asset} ${unit.horizon}`).toBe(unit.pathSets);
          expect(Number(insights)).toBeGreaterThan(0);
          expect(Number(crosschecks)).toBeGreaterThan(0);
        } else {
          expect([pathSets, insights, crosschecks].map(Number)).toEqual([0, 0, 0]);
        }
      }
      expect(await textsContaining(store, KEY)).toEqual([]);
    });
    expect(JSON.stringify(summary)).not.toContain(KEY);
    expect(databaseText(database).includes(KEY)).toBe(false);
  }, 180_000);
});

/** A sync of BTC 1h from the fixture's sandbox (with its faults of the time) into `database`. */
function syncBtcHour(database: string): Promise<SyncSummary> {
  return runSync({
    assets: ["BTC"],
    horizons: ["1h"],
    database,
    baseUrl: fixture.sandbox.url,
    apiKey: KEY,
    client: CLIENT,
  });
}

describe("sync with transient faults only", () => {
  // Every fifth request a 503, and bursts of 429s: each call succeeds on a retry.
  beforeAll(() => fixture.sandbox.setFaults("5xx=every:5,429burst=2,retryafter=20ms"));
  afterAll(() => fixture.sandbox.setFaults(""));

  it("a call that succeeds on a retry is no failure: the run is ok, exits 0, and counts retries apart", async () => {
    const database = join(fixture.folder, "retried.duckdb");
    const summary = await syncBtcHour(database);
    expect(summary.failures).toEqual([]);
    expect(summary).toMatchObject({ status: "ok", exitCode: 0, totals: { stored: 1 } });
    // every attempt is counted in requests; the retried ones also in retries
    expect(summary.totals.retries).toBeGreaterThanOrEqual(Math.floor(summary.totals.requests / 5));
    await withStore(database, async (store) => {
      expect(await rows(store, "select status from runs")).toEqual([["ok"]]);
    });
  }, 120_000);
});

describe("sync with a field left out of some records", () => {
  // The liquidation and LP bounds records lack their first field, `forecast_start_time`.
  beforeAll(() =>
    fixture.sandbox.setFaults("missingfield=1,path=re:^/insights/(liquidation|lp-bounds)$"),
  );
  afterAll(() => fixture.sandbox.setFaults(""));

  it("stores a missing verdict for each lost comparison, and the summary counts them", async () => {
    const database = join(fixture.folder, "missing-field.duckdb");
    const summary = await syncBtcHour(database);
    expect(summary.units.map((unit) => unit.status)).toEqual(["stored"]);
    expect(summary.totals.verdicts.missing).toBe(2);
    expect(summary.units[0].lacking.map((lacking) => lacking.operation).sort()).toEqual([
      "/insights/liquidation",
      "/insights/lp-bounds",
    ]);
    await withStore(database, async (store) => {
      expect(
        await rows(
          store,
          "select operation, field, verdict from crosschecks where verdict = 'missing' order by all",
        ),
      ).toEqual([
        ["/insights/liquidation", "forecast_start_time", "missing"],
        ["/insights/lp-bounds", "forecast_start_time", "missing"],
      ]);
    });
  }, 120_000);
});

describe("sync options", () => {
  it("refuses a clock for a service, a service without a key, and a concurrency below 1", async () => {
    const database = join(fixture.folder, "never.duckdb");
    await expect(
      runSync({ database, baseUrl: fixture.sandbox.url, apiKey: KEY, now: NOW }),
    ).rejects.toThrow(/--now sets the embedded sandbox; it cannot be used with a service/);
    await expect(runSync({ database, baseUrl: fixture.sandbox.url })).rejects.toThrow(
      /needs an API key: pass --api-key or set PATHLAB_API_KEY/,
    );
    await expect(runSync({ database, concurrency: 0 })).rejects.toThrow(UsageError);
  });
});
