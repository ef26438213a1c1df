import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allocateValues, type PathSet } from "../../src/paths/pathSet.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { insertPathSets } from "../../src/store/pathSets.ts";
import { readPathSet, readPathSets } from "../../src/store/readPathSets.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { StoreError } from "../../src/store/storeError.ts";
import { writeUnit } from "../../src/store/writeUnit.ts";
import { bytesOf, randomPathSet, tableCounts, temporaryFolder } from "./helpers.ts";

let folder: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ folder, remove } = temporaryFolder());
  path = join(folder, "pathlab.duckdb");
});
afterEach(() => remove());

const START = 1772063100;

async function storePathSets(store: Store, pathSets: readonly PathSet[]): Promise<void> {
  await writeUnit(store, {
    asset: pathSets[0].asset,
    horizon: "24h",
    forecastStartTimeUnix: START,
    pathSets: pathSets.map((pathSet) => ({ pathSet, source: "test", fetchedAtUnix: START + 17 })),
  });
}

/** The compressions DuckDB used for the stored prices (after a checkpoint). */
async function priceCompressions(store: Store): Promise<string[]> {
  const { rows } = await queryRows(
    store,
    "select distinct compression from pragma_storage_info('path_values') where column_name = 'prices' and segment_type = 'DOUBLE' order by 1",
  );
  return rows.map((row) => String(row[0]));
}

/** Doubles of every kind: signed zeros, subnormals, extremes, infinities, NaNs with payloads. */
function awkwardDoubles(): Float64Array {
  const bits = new BigUint64Array([
    0x0000000000000000n, // +0
    0x8000000000000000n, // −0
    0x0000000000000001n, // smallest subnormal
    0x000fffffffffffffn, // largest subnormal
    0x0010000000000000n, // smallest normal
    0x7fefffffffffffffn, // largest finite
    0xffefffffffffffffn, // most negative finite
    0x7ff0000000000000n, // +Infinity
    0xfff0000000000000n, // −Infinity
    0x7ff8000000000000n, // the canonical NaN
    0x7ff8000000000001n, // a quiet NaN with a payload
    0xfff8000000000000n, // a negative NaN
    0x3ff0000000000001n, // 1 + 2⁻⁵²
    0x3fb999999999999an, // 0.1
    0x40f09a3c28f5c28fn, // 68003.76
    0x4130000000000001n, // 2²⁰ + ulp
  ]);
  return new Float64Array(bits.buffer);
}

describe("path set round trip", () => {
  it("a 1,000 × 289 path set reads back bit-identical after the file is closed and reopened", async () => {
    const pathSet = randomPathSet(17, 1000, 289);
    const store = await openStore(path);
    await storePathSets(store, [pathSet]);
    await store.close(); // checkpoint: the values are compressed on disk from here on
    const reader = await openStore(path, { readOnly: true });
    // full-precision doubles are stored with ALP-RD (ALP for "real doubles"), not as raw bytes
    expect(await priceCompressions(reader)).toEqual(["ALPRD"]);
    const back = await readPathSet(reader, {
      asset: "BTC",
      minerUid: 17,
      startTime: START,
      timeIncrement: 300,
      timeLength: 86400,
    });
    await reader.close();
    expect(back).toBeDefined();
    expect({ ...back, values: undefined }).toEqual({ ...pathSet, values: undefined });
    expect(bytesOf(back!.values).equals(bytesOf(pathSet.values))).toBe(true);
  });

  it("signed zeros, subnormals, extremes, infinities and NaN payloads read back bit-identical", async () => {
    const doubles = awkwardDoubles();
    // 64 paths of 16 points each: the awkward values repeated between ordinary prices, so that
    // DuckDB's compression sees them as exceptions inside otherwise compressible data
    const nPaths = 64;
    const values = new Float64Array(nPaths * doubles.length);
    const ordinary = randomPathSet(1, nPaths, doubles.length).values;
    for (let index = 0; index < values.length; index++) {
      values[index] = index % 5 === 0 ? doubles[index % doubles.length] : ordinary[index];
    }
    values.set(doubles, 0);
    const pathSet: PathSet = { ...randomPathSet(3, nPaths, doubles.length), values };
    const store = await openStore(path);
    await storePathSets(store, [pathSet]);
    await store.close();
    const reader = await openStore(path, { readOnly: true });
    const compressions = await priceCompressions(reader);
    expect(compressions.length).toBeGreaterThan(0);
    expect(compressions).not.toContain("Uncompressed");
    const [back] = await readPathSets(reader, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
    });
    await reader.close();
    expect(bytesOf(back.values).toString("hex")).toBe(bytesOf(values).toString("hex"));
  });

  it("a path set in shared memory is stored as any other, and reads back into shared memory on request", async () => {
    const ordinary = randomPathSet(23, 1000, 289);
    const values = allocateValues(ordinary.values.length, true);
    values.set(ordinary.values);
    const store = await openStore(path);
    await storePathSets(store, [{ ...ordinary, values }]);
    const key = { asset: "BTC", startTime: START, timeIncrement: 300, timeLength: 86400 };
    const [shared] = await readPathSets(store, key, { shared: true });
    const [plain] = await readPathSets(store, key);
    const single = await readPathSet(store, { ...key, minerUid: 23 }, { shared: true });
    await store.close();
    expect(shared.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(single!.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(plain.values.buffer).toBeInstanceOf(ArrayBuffer);
    for (const back of [shared, plain, single!]) {
      expect({ ...back, values: undefined }).toEqual({ ...ordinary, values: undefined });
      expect(bytesOf(back.values).equals(bytesOf(ordinary.values))).toBe(true);
    }
  });

  it("a 10-miner ensemble reads back as 10 path sets in miner order, each bit-identical", async () => {
    const pathSets = [9, 2, 41, 5, 17, 33, 8, 1, 60, 12].map((miner) =>
      randomPathSet(miner, 1000, 289),
    );
    const store = await openStore(path);
    await storePathSets(store, pathSets);
    await store.close();
    const reader = await openStore(path, { readOnly: true });
    const back = await readPathSets(reader, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
      timeLength: 86400,
    });
    const some = await readPathSets(reader, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
      minerUids: [41, 1],
    });
    await reader.close();
    const byMiner = [...pathSets].sort((a, b) => a.minerUid - b.minerUid);
    expect(back.map((pathSet) => pathSet.minerUid)).toEqual(byMiner.map((p) => p.minerUid));
    back.forEach((pathSet, index) => {
      expect(bytesOf(pathSet.values).equals(bytesOf(byMiner[index].values))).toBe(true);
    });
    expect(some.map((pathSet) => pathSet.minerUid)).toEqual([1, 41]);
  });

  it("path sets of more than 2,048 paths span several data chunks and keep their order", async () => {
    const pathSet = randomPathSet(4, 5000, 7);
    const store = await openStore(":memory:");
    await storePathSets(store, [pathSet]);
    const [back] = await readPathSets(store, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
    });
    expect(bytesOf(back.values).equals(bytesOf(pathSet.values))).toBe(true);
    await store.close();
  });

  it("a path set whose values view a larger array stores its own values, not its neighbours'", async () => {
    const pathSet = randomPathSet(4, 3000, 7);
    const around = new Float64Array(pathSet.values.length + 20).fill(-1);
    around.set(pathSet.values, 13);
    const store = await openStore(":memory:");
    await storePathSets(store, [
      { ...pathSet, values: around.subarray(13, 13 + pathSet.values.length) },
    ]);
    const [back] = await readPathSets(store, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
    });
    await store.close();
    expect(bytesOf(back.values).equals(bytesOf(pathSet.values))).toBe(true);
  });

  it("1h path sets (61 points) and 24h path sets of the same miner and start are kept apart", async () => {
    const daily = randomPathSet(5, 10, 289, { timeIncrement: 300 });
    const hourly = randomPathSet(5, 10, 61, { timeIncrement: 60, seed: 99 });
    const store = await openStore(":memory:");
    await storePathSets(store, [daily]);
    await writeUnit(store, {
      asset: "BTC",
      horizon: "1h",
      forecastStartTimeUnix: START,
      pathSets: [{ pathSet: hourly, source: "test", fetchedAtUnix: START }],
    });
    const [backHourly] = await readPathSets(store, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 60,
    });
    expect(backHourly.nPoints).toBe(61);
    expect(bytesOf(backHourly.values).equals(bytesOf(hourly.values))).toBe(true);
    const { rows } = await queryRows(
      store,
      "select time_increment, time_length, n_points from path_sets order by time_length",
    );
    expect(rows).toEqual([
      [60, 3600, 61],
      [300, 86400, 289],
    ]);
    await store.close();
  });

  it("readPathSet returns undefined when no path set has the key", async () => {
    const store = await openStore(":memory:");
    await storePathSets(store, [randomPathSet(5, 2, 3)]);
    const key = { asset: "BTC", minerUid: 6, startTime: START, timeIncrement: 300 };
    expect(await readPathSet(store, key)).toBeUndefined();
    expect(
      await readPathSet(store, { ...key, minerUid: 5, startTime: START + 300 }),
    ).toBeUndefined();
    await store.close();
  });
});

describe("path set upserts", () => {
  it("writing the same path set twice keeps one copy, holding the second write's values", async () => {
    const first = randomPathSet(17, 100, 289);
    const second = randomPathSet(17, 100, 289, { seed: 4242 });
    const store = await openStore(":memory:");
    await storePathSets(store, [first]);
    const before = await tableCounts(store);
    const idBefore = (await queryRows(store, "select id from path_sets")).rows;
    await storePathSets(store, [second]);
    expect(await tableCounts(store)).toEqual(before);
    expect((await queryRows(store, "select id from path_sets")).rows).toEqual(idBefore);
    const [back] = await readPathSets(store, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
    });
    expect(bytesOf(back.values).equals(bytesOf(second.values))).toBe(true);
    expect(before.path_values).toBe(100);
    await store.close();
  });
});

describe("path values in SQL", () => {
  it("the path_points view has one row per price with its 0-based point and time", async () => {
    const pathSet = randomPathSet(7, 4, 6);
    const store = await openStore(":memory:");
    await storePathSets(store, [pathSet]);
    const { rows } = await queryRows(
      store,
      "select point, epoch(start_time + to_seconds(point * time_increment)) as t, price from path_points where path = 2 order by point",
    );
    expect(rows).toEqual(
      Array.from({ length: 6 }, (_, point) => [
        point,
        START + point * 300,
        pathSet.values[2 * 6 + point],
      ]),
    );
    const count = await queryRows(store, "select count(*) from path_points");
    expect(count.rows).toEqual([[24]]);
    await store.close();
  });

  it("prices[t + 1] in SQL is point t of the path", async () => {
    const pathSet = randomPathSet(7, 3, 289);
    const store = await openStore(":memory:");
    await storePathSets(store, [pathSet]);
    const { rows } = await queryRows(store, "select prices[289] from path_values order by path");
    expect(rows.map((row) => row[0])).toEqual([0, 1, 2].map((p) => pathSet.values[p * 289 + 288]));
    await store.close();
  });
});

describe("damaged path sets", () => {
  it("readPathSets names the path set and the missing path", async () => {
    const store = await openStore(":memory:");
    await storePathSets(store, [randomPathSet(5, 4, 3)]);
    await queryRows(store, "delete from path_values where path = 2");
    await expect(
      readPathSets(store, { asset: "BTC", startTime: START, timeIncrement: 300 }),
    ).rejects.toThrow(
      'readPathSets on ":memory:": path set 1 (BTC, miner 5): expected path 2 of 4, got path 3',
    );
    await queryRows(store, "delete from path_values where path = 3");
    await expect(
      readPathSets(store, { asset: "BTC", startTime: START, timeIncrement: 300 }),
    ).rejects.toThrow("path set 1 (BTC, miner 5): expected 4 paths, got 2");
    await store.close();
  });

  it("readPathSets names a path with the wrong number of prices", async () => {
    const store = await openStore(":memory:");
    await storePathSets(store, [randomPathSet(5, 4, 3)]);
    await queryRows(store, "update path_values set prices = prices[1:2] where path = 1");
    const failure = await readPathSets(store, {
      asset: "BTC",
      startTime: START,
      timeIncrement: 300,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as Error).message).toBe(
      'readPathSets on ":memory:": path set 1 (BTC, miner 5): path 1: expected 3 prices, got 2',
    );
    await store.close();
  });

  it("insertPathSets refuses values that do not match nPaths × nPoints", async () => {
    const store = await openStore(":memory:");
    const pathSet = { ...randomPathSet(5, 4, 3), nPaths: 5 };
    await expect(
      store.withTransaction((connection) =>
        insertPathSets(connection, [{ pathSet, source: "t", fetchedAtUnix: START }], null),
      ),
    ).rejects.toThrow(
      "insertPathSets: path set of BTC, miner 5: values: expected nPaths × nPoints = 15 numbers, got 12",
    );
    expect((await tableCounts(store)).path_sets).toBe(0);
    await store.close();
  });
});

describe("path set entries", () => {
  it("insertPathSets refuses the same path set twice in one write", async () => {
    const store = await openStore(":memory:");
    const pathSet = randomPathSet(5, 2, 3);
    const entry = { pathSet, source: "t", fetchedAtUnix: START };
    await expect(
      store.withTransaction((connection) => insertPathSets(connection, [entry, entry], null)),
    ).rejects.toThrow(
      `insertPathSets requires each path set once per write, got BTC miner 5 start ${START} increment 300 points 3 twice`,
    );
    expect((await tableCounts(store)).path_sets).toBe(0);
    await store.close();
  });
});

describe("row groups", () => {
  it("path values are stored in row groups of 2,048 rows (the store's setting, not DuckDB's 122,880)", async () => {
    const store = await openStore(path);
    await storePathSets(store, [randomPathSet(5, 5000, 3)]);
    await store.close();
    const reader = await openStore(path, { readOnly: true });
    const { rows } = await queryRows(
      reader,
      "select row_group_id, max(start + count) - min(start) from pragma_storage_info('path_values') where column_name = 'path' and segment_type = 'INTEGER' group by 1 order by 1",
    );
    await reader.close();
    expect(rows.map((row) => Number(row[1]))).toEqual([2048, 2048, 904]);
  });
});
