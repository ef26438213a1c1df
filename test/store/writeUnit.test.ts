/**
 * `writeUnit` on real DuckDB files: every part of a unit stored and replaced whole, idempotent
 * upserts, units atomic under failures, aborts and a killed writer, and captured live records.
 * Over 300 lines: the cases share the hand-built complete unit and one temporary store each.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decode } from "../../src/domain/codec.ts";
import { liveNaming } from "../../src/domain/naming.ts";
import { insightLeaves } from "../../src/store/insightLeaves.ts";
import { openStore } from "../../src/store/openStore.ts";
import { readPathSets } from "../../src/store/readPathSets.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { StoreError } from "../../src/store/storeError.ts";
import { writeUnit, type StoreUnit } from "../../src/store/writeUnit.ts";
import { capturedExists, capturedFolder } from "../domain/captured.ts";
import {
  bytesOf,
  randomPathSet,
  startChild,
  stopChild,
  tableCounts,
  temporaryFolder,
} from "./helpers.ts";
import {
  completeUnit,
  FORECAST_START,
  leaderboardRows,
  liquidationRecord,
  rangeRecord,
} from "./units.ts";

let folder: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ folder, remove } = temporaryFolder());
  path = join(folder, "pathlab.duckdb");
});
afterEach(() => remove());

const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";

const EMPTY = {
  runs: 0,
  path_sets: 0,
  path_values: 0,
  insights: 0,
  insight_values: 0,
  crosschecks: 0,
  leaderboard_rows: 0,
  venue_comparisons: 0,
};

describe("writeUnit", () => {
  it("writeUnit stores every part of a unit and returns what it wrote", async () => {
    const store = await openStore(path);
    const unit = completeUnit();
    const summary = await writeUnit(store, unit);
    expect(summary.pathSetIds).toHaveLength(3);
    expect(summary.insightIds).toHaveLength(2);
    expect(summary).toMatchObject({
      crosscheckRows: 2,
      venueComparisonRows: 4,
      leaderboardRows: 5,
    });
    const leaves = unit.insights!.reduce(
      (sum, entry) => sum + insightLeaves(entry.record).length,
      0,
    );
    expect(await tableCounts(store)).toEqual({
      ...EMPTY,
      path_sets: 3,
      path_values: 150,
      insights: 2,
      insight_values: leaves,
      crosschecks: 2,
      leaderboard_rows: 5,
      venue_comparisons: 4,
    });
    const { rows } = await queryRows(
      store,
      `select i.source, v.value from insight_values v join insights i on i.id = v.insight_id
       where v.field = 'data.short_liquidation_probability' and v.key = '2.0%/12' order by i.source`,
    );
    expect(rows).toEqual([
      ["recomputed", liquidationRecord(0.01).data[1].short_liquidation_probability["12"]],
      ["service", liquidationRecord(0).data[1].short_liquidation_probability["12"]],
    ]);
    const record = await queryRows(
      store,
      "select record from insights where source = 'service' and operation = '/insights/liquidation'",
    );
    expect(JSON.parse(String(record.rows[0][0]))).toEqual(liquidationRecord(0));
    await store.close();
  });

  it("writing the same unit twice changes no row count and keeps the ids (idempotent upserts)", async () => {
    const store = await openStore(path);
    const first = await writeUnit(store, completeUnit());
    const counts = await tableCounts(store);
    const second = await writeUnit(store, completeUnit());
    expect(await tableCounts(store)).toEqual(counts);
    expect(second.pathSetIds).toEqual(first.pathSetIds);
    expect(second.insightIds).toEqual(first.insightIds);
    await store.close();
    // and across processes' sessions: reopen, write again, same counts
    const reopened = await openStore(path);
    await writeUnit(reopened, completeUnit());
    expect(await tableCounts(reopened)).toEqual(counts);
    await reopened.close();
  });

  it("a unit stored again with another ensemble keeps only its new members (their rows and values)", async () => {
    const store = await openStore(path);
    await writeUnit(store, completeUnit(3, 20)); // miners 1, 2, 3
    const unit = completeUnit(4, 20); // miners 1…4
    // The new ensemble: miners 2, 3 and 4 (miner 1 dropped out of the top).
    await writeUnit(store, { ...unit, pathSets: unit.pathSets!.slice(1) });
    const members = await queryRows(store, "select miner_uid from path_sets order by 1");
    expect(members.rows).toEqual([[2], [3], [4]]);
    const values = await queryRows(
      store,
      "select count(*) from path_values v left join path_sets s on s.id = v.path_set_id where s.id is null",
    );
    expect(values.rows).toEqual([[0]]);
    expect((await queryRows(store, "select count(*) from path_values")).rows).toEqual([[60]]);
    // and again with miner 4 alone: miners 2 and 3 go in one write
    await writeUnit(store, { ...unit, pathSets: unit.pathSets!.slice(3) });
    expect((await queryRows(store, "select miner_uid from path_sets")).rows).toEqual([[4]]);
    expect(
      (
        await queryRows(
          store,
          "select distinct s.miner_uid, count(*) over () from path_values v join path_sets s on s.id = v.path_set_id",
        )
      ).rows,
    ).toEqual([[4, 20]]);
    await store.close();
  });

  it("refuses two records of one operation and source in a unit, having written nothing", async () => {
    const store = await openStore(":memory:");
    const unit = completeUnit();
    const [first] = unit.insights!;
    await expect(
      writeUnit(store, { ...unit, insights: [...unit.insights!, { ...first }] }),
    ).rejects.toThrow(
      `insertInsights requires each record once per write, got ${first.operation} (${first.source}) twice`,
    );
    expect(await tableCounts(store)).toEqual(EMPTY);
    await store.close();
  });

  it("a unit stored again without an operation's recomputation drops that operation's derived rows, and keeps the service's record", async () => {
    const store = await openStore(path);
    const unit = completeUnit(2, 20);
    const range = "/insights/venuea/range/daily";
    const rangeRows = {
      insights: [
        { operation: range, source: "service" as const, record: [rangeRecord(66000, 68000)] },
        { operation: range, source: "recomputed" as const, record: [rangeRecord(66000, 68000)] },
      ],
      crosschecks: [{ ...unit.crosschecks![0], operation: range, key: "[0].model_probability" }],
    };
    await writeUnit(store, {
      ...unit,
      insights: [...unit.insights!, ...rangeRows.insights],
      crosschecks: [...unit.crosschecks!, ...rangeRows.crosschecks],
    });
    // the same unit one prompt earlier, which the rerun below must leave alone
    const earlier = FORECAST_START - 300;
    await writeUnit(store, {
      ...unit,
      forecastStartTimeUnix: earlier,
      pathSets: [],
      insights: [...unit.insights!, ...rangeRows.insights],
      crosschecks: [...unit.crosschecks!, ...rangeRows.crosschecks],
    });
    const earlierRows = async () =>
      (
        await queryRows(
          store,
          `select (select count(*) from insights where epoch(forecast_start_time) = ${earlier}),
                  (select count(*) from crosschecks where epoch(forecast_start_time) = ${earlier}),
                  (select count(*) from venue_comparisons where epoch(forecast_start_time) = ${earlier})`,
        )
      ).rows[0].map(Number);
    const earlierBefore = await earlierRows();
    expect(earlierBefore).toEqual([4, 3, 4]);
    const count = async (sql: string) => Number((await queryRows(store, sql)).rows[0][0]);
    const at = `epoch(forecast_start_time) = ${FORECAST_START}`;
    const rangeCounts = async () => ({
      service: await count(
        `select count(*) from insights where operation = '${range}' and source = 'service' and ${at}`,
      ),
      recomputed: await count(
        `select count(*) from insights where operation = '${range}' and source = 'recomputed' and ${at}`,
      ),
      values: await count(
        `select count(*) from insight_values v join insights i on i.id = v.insight_id
         where i.operation = '${range}' and i.source = 'recomputed' and epoch(i.forecast_start_time) = ${FORECAST_START}`,
      ),
      crosschecks: await count(
        `select count(*) from crosschecks where operation = '${range}' and ${at}`,
      ),
      comparisons: await count(
        `select count(*) from venue_comparisons where operation = '${range}' and ${at}`,
      ),
    });
    const before = await rangeCounts();
    expect(before.recomputed).toBe(1);
    expect(before.values).toBeGreaterThan(0);
    expect(before.crosschecks).toBe(1);
    expect(before.comparisons).toBe(2);
    const liquidation = await tableCounts(store);
    // A write of the unit's parts other than insights and cross-checks removes nothing of them.
    await writeUnit(store, { ...unit, insights: undefined, crosschecks: undefined });
    expect(await rangeCounts()).toEqual(before);
    // The rerun fetched the range record but could not recompute it.
    await writeUnit(store, {
      ...unit,
      insights: [...unit.insights!, rangeRows.insights[0]],
      venueComparisons: unit.venueComparisons!.filter((entry) => entry.operation !== range),
    });
    expect(await rangeCounts()).toEqual({
      service: 1,
      recomputed: 0,
      values: 0,
      crosschecks: 0,
      comparisons: 0,
    });
    expect(await earlierRows()).toEqual(earlierBefore);
    const after = await tableCounts(store);
    expect(after.crosschecks).toBe(liquidation.crosschecks - 1);
    expect(after.venue_comparisons).toBe(liquidation.venue_comparisons - 2);
    expect(after.insights).toBe(liquidation.insights - 1);
    await store.close();
  });

  it("writeUnit refuses path sets of another asset before writing anything", async () => {
    const store = await openStore(":memory:");
    const unit = completeUnit();
    const stray = {
      pathSet: randomPathSet(9, 2, 289, { asset: "ETH" }),
      source: "t",
      fetchedAtUnix: 0,
    };
    await expect(
      writeUnit(store, { ...unit, pathSets: [...unit.pathSets!, stray] }),
    ).rejects.toThrow(
      'writeUnit on ":memory:": unit BTC 24h 2026-02-25T23:45:00.000Z: path set of miner 9: expected asset BTC, got ETH',
    );
    expect(await tableCounts(store)).toEqual(EMPTY);
    await store.close();
  });
});

describe("unit atomicity", () => {
  it("a record JSON cannot hold, after the path sets were written, leaves nothing of the unit", async () => {
    const store = await openStore(path);
    const earlier: StoreUnit = { ...completeUnit(), forecastStartTimeUnix: FORECAST_START - 300 };
    await writeUnit(store, earlier);
    const before = await tableCounts(store);
    const unit = completeUnit();
    const broken: StoreUnit = {
      ...unit,
      pathSets: [1, 2, 3].map((miner) => ({
        pathSet: randomPathSet(miner, 50, 289, { startTime: FORECAST_START + 300 }),
        source: "t",
        fetchedAtUnix: 0,
      })),
      insights: [
        ...unit.insights!,
        { operation: "/insights/volatility", source: "service", record: { big: 10n } },
      ],
    };
    const failure = await writeUnit(store, broken).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as Error).message).toMatch(
      /^writeUnit on ".*": unit BTC 24h 2026-02-25T23:45:00\.000Z was not stored \(rolled back\): insertInsights: \/insights\/volatility \(service\): expected a record that JSON can hold, got one that JSON\.stringify refuses: .*BigInt/,
    );
    expect(await tableCounts(store)).toEqual(before);
    await store.close();
  });

  it("a signal that aborted while the unit was written rolls the whole unit back", async () => {
    const store = await openStore(path);
    const controller = new AbortController();
    const reason = new Error("interrupted (SIGINT)");
    // aborted while the first part is being inserted: every part is written, then rolled back
    const unit = completeUnit();
    const pending = writeUnit(store, unit, controller.signal);
    queueMicrotask(() => controller.abort(reason));
    await expect(pending).rejects.toBe(reason);
    expect(await tableCounts(store)).toEqual(EMPTY);
    // without an abort the same unit is stored
    await writeUnit(store, unit, new AbortController().signal);
    expect((await tableCounts(store)).path_sets).toBe(3);
    await store.close();
  });

  it("a constraint failing mid-unit rolls back the path sets and insights written before it", async () => {
    const store = await openStore(path);
    const unit = completeUnit();
    const failure = await writeUnit(store, {
      ...unit,
      venueComparisons: [
        ...unit.venueComparisons!,
        // a venue record without a model probability violates service_probability NOT NULL
        {
          operation: "/insights/venueb/hourly",
          record: { ...unit.venueComparisons![3].record, model_probability_up: null } as never,
          recomputedProbability: 0.5,
        },
      ],
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as Error).message).toMatch(/was not stored \(rolled back\): .*NOT NULL/);
    expect(await tableCounts(store)).toEqual(EMPTY);
    // the store still works after the rollback
    await writeUnit(store, unit);
    expect((await tableCounts(store)).path_sets).toBe(3);
    await store.close();
  });

  it("a process killed in the middle of a unit leaves nothing of it; the file reopens and a rerun completes", async () => {
    const child = await startChild("hangInUnit", [path], "inside");
    await stopChild(child, "SIGKILL");
    const store = await openStore(path);
    expect(await tableCounts(store)).toEqual(EMPTY);
    const unit = completeUnit(10, 1000);
    await writeUnit(store, unit);
    await store.close();
    const reader = await openStore(path, { readOnly: true });
    const back = await readPathSets(reader, {
      asset: "BTC",
      startTime: FORECAST_START,
      timeIncrement: 300,
    });
    expect(back).toHaveLength(10);
    back.forEach((pathSet, index) => {
      expect(bytesOf(pathSet.values).equals(bytesOf(unit.pathSets![index].pathSet.values))).toBe(
        true,
      );
    });
    await reader.close();
  }, 60_000);
});

describe("cross-checks, venue comparisons, leaderboards", () => {
  it("cross-check rows store recomputed − service and replace the rows of their operation", async () => {
    const store = await openStore(":memory:");
    await writeUnit(store, completeUnit());
    const first = await queryRows(
      store,
      "select key, service_value, recomputed_value, difference, tolerance, verdict, detail from crosschecks order by key",
    );
    expect(first.rows).toEqual([
      ["1.0%/12", 0.5, null, null, null, "missing", "not recomputed"],
      ["1.0%/6", 0.4, 0.41, 0.41 - 0.4, 0.02, "match", null],
    ]);
    await writeUnit(store, {
      ...completeUnit(),
      crosschecks: [
        {
          operation: "/insights/liquidation",
          field: "current_price",
          key: "",
          serviceValue: 1,
          recomputedValue: 1,
          tolerance: 0,
          verdict: "match",
        },
      ],
    });
    const second = await queryRows(store, "select field from crosschecks");
    expect(second.rows).toEqual([["current_price"]]);
    await store.close();
  });

  it("stores a strike ladder whose first price is whole and the next fractional", async () => {
    // DuckDB infers an unbound list's type from its first element; [110, 112.5] must stay doubles.
    const store = await openStore(":memory:");
    const unit = completeUnit();
    const ladder = { ...unit.venueComparisons![1], record: rangeRecord(110, 112.5) };
    await writeUnit(store, { ...unit, venueComparisons: [ladder] });
    const { rows } = await queryRows(store, "select ref_prices from venue_comparisons");
    expect(rows).toEqual([[[110, 112.5]]]);
    await store.close();
  });

  it("venue comparison columns come from each kind of record", async () => {
    const store = await openStore(":memory:");
    await writeUnit(store, completeUnit());
    const { columns, rows } = await queryRows(
      store,
      `select kind, market, ref_prices, strftime(event_start_time, '%Y-%m-%dT%H:%M:%S') as starts,
         strftime(event_end_time, '%Y-%m-%dT%H:%M:%S') as ends, service_probability,
         recomputed_probability, recomputed_standard_error, venue_probability, best_bid_price,
         best_bid_size, best_ask_price, best_ask_size, last_trade_price, start_price
       from venue_comparisons order by operation, market`,
    );
    expect(columns[0]).toBe("kind");
    expect(rows).toEqual([
      [
        "range",
        "[66000, 68000]",
        [66000, 68000],
        "2026-02-25T17:00:00",
        "2026-02-26T17:00:00",
        0.3773,
        0.38,
        null,
        0.395,
        null,
        null,
        0.41,
        12,
        0.4,
        null,
      ],
      [
        "range",
        "[68000, 70000]",
        [68000, 70000],
        "2026-02-25T17:00:00",
        "2026-02-26T17:00:00",
        0.3773,
        0.31,
        null,
        0.395,
        null,
        null,
        0.41,
        12,
        0.4,
        null,
      ],
      [
        "up-down",
        "bitcoin-up-or-down-on-february-26",
        null,
        "2026-02-25T17:00:00",
        "2026-02-26T17:00:00",
        0.4151,
        0.4093,
        0.0049,
        0.395,
        0.39,
        20,
        0.4,
        1420,
        0.4,
        68249.16,
      ],
      [
        "up-down",
        "btc-above-67500-feb-26-0000",
        null,
        null,
        "2026-02-26T00:00:00",
        0.6,
        null,
        null,
        0.62,
        0.61,
        null,
        0.63,
        null,
        null,
        67500,
      ],
    ]);
    await store.close();
  });

  it.skipIf(!capturedExists)(
    `captured venue A records store one row per market, range buckets told apart by title${needs}`,
    async () => {
      const read = (file: string): unknown =>
        JSON.parse(readFileSync(join(capturedFolder, "polymarket", file), "utf8"));
      const range = decode("/insights/venuea/range/daily", read("range.json"), {
        naming: liveNaming,
      });
      const upDown = decode("/insights/venuea/up-down/daily", read("up_down_daily_BTC.json"), {
        naming: liveNaming,
      });
      const store = await openStore(":memory:");
      await writeUnit(store, {
        asset: "BTC",
        horizon: "24h",
        forecastStartTimeUnix: FORECAST_START,
        venueComparisons: [
          {
            operation: "/insights/venuea/up-down/daily",
            record: upDown,
            recomputedProbability: 0.41,
          },
          ...range.map((record) => ({
            operation: "/insights/venuea/range/daily",
            record,
            recomputedProbability: null,
          })),
        ],
      });
      const { rows } = await queryRows(
        store,
        "select kind, market, service_probability, venue_probability from venue_comparisons order by operation desc, market",
      );
      expect(rows).toHaveLength(1 + range.length);
      expect(rows[0]).toEqual([
        "up-down",
        upDown.slug,
        upDown.model_probability_up,
        upDown.venuea_probability_up,
      ]);
      const below = range.find((record) => record.cmp_type === "below")!;
      expect(rows).toContainEqual([
        "below",
        below.title,
        below.model_probability,
        below.venuea_probability,
      ]);
      await store.close();
    },
  );

  it("a leaderboard replaces the rows stored for the same operation, competition, days and time", async () => {
    const store = await openStore(":memory:");
    await writeUnit(store, completeUnit());
    const shorter = leaderboardRows(3).reverse();
    await writeUnit(store, {
      ...completeUnit(),
      leaderboards: [
        {
          operation: "/v2/meta-leaderboard/latest",
          promptName: "crypto-24h",
          days: 14,
          asOfUnix: FORECAST_START,
          rows: shorter,
        },
      ],
    });
    const { rows } = await queryRows(
      store,
      "select rank, neuron_uid, rewards from leaderboard_rows order by rank",
    );
    expect(rows).toEqual(shorter.map((row, index) => [index + 1, row.neuron_uid, row.rewards]));
    await store.close();
  });
});
