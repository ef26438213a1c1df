/**
 * The lake: one folder per unit with one file per table, replaced whole (never duplicated) by a
 * rerun, a tombstone where a rerun has no rows for a table, read back through `openLake` with the
 * store's columns and types, and a folder of someone else's files, or a lake of another layout,
 * refused.
 */

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LAKE_MARKER, lakeFiles, openLake, prepareLake } from "../../src/store/lake.ts";
import { writeLakeUnit } from "../../src/store/lakeWrite.ts";
import { compactLake } from "../../src/store/lakeCompact.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { writeScoredPrompt, SCORED_PROMPT_TABLES } from "../../src/store/scoredPrompts.ts";
import { StoreError } from "../../src/store/storeError.ts";
import { temporaryFolder } from "./helpers.ts";

const START = Date.UTC(2026, 10, 19, 6) / 1000;
const UNIT = {
  key: "score.crypto-24h.BTC.20261119T060000Z",
  competition: "crypto-24h",
  asset: "BTC",
  date: "2026-11-19",
};

/** An in-memory store holding one scored prompt with `miners` miner rows. */
async function unitStore(miners: number, realized = true, startUnix = START): Promise<Store> {
  const store = await openStore(":memory:");
  await writeScoredPrompt(
    store,
    {
      asset: "BTC",
      timeIncrement: 300,
      timeLength: 86400,
      startTimeUnix: startUnix,
      competition: "crypto-24h",
      scoreRule: "current",
      ...(realized && { realizedPrices: [91000.5, null, 91010.25] }),
      serviceRows: [],
      minerScores: Array.from({ length: miners }, (_, uid) => ({
        source: "network" as const,
        minerUid: uid,
        hotkey: `hk${uid}`,
        crps: 100 + uid / 3,
        intervals: { "5min": uid },
        promptScore: uid / 7,
        invalidReason: null,
        serviceCrps: null,
        servicePromptScore: null,
        verdict: "not compared",
        calibration: undefined,
      })),
    },
    null,
  );
  return store;
}

let cleanup: () => void = () => {};
afterEach(() => cleanup());

describe("the lake", () => {
  it("writes one folder per unit, a file per table, and a rerun replaces it instead of adding rows", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const lake = join(folder, "lake");
    const first = await unitStore(3);
    expect(await writeLakeUnit(lake, UNIT, first, SCORED_PROMPT_TABLES)).toEqual({
      prompts: 1,
      realized_prices: 1,
      service_scores: 0,
      miner_scores: 3,
      calibration: 0,
    });
    await first.close();
    const partition = "competition=crypto-24h/asset=BTC/date=2026-11-19";
    const tableFiles = (version: string) =>
      ["miner_scores", "prompts", "realized_prices"].map(
        (table) => `${partition}/unit-${UNIT.key}.${version}/${table}.parquet`,
      );
    // tables without rows, and none earlier: no file
    expect(lakeFiles(join(lake, "units"))).toEqual(tableFiles("v0000000001"));
    // The rerun has other rows and no realized prices: the unit's folder is replaced, and its
    // realized-price file becomes a tombstone that readers leave out. The folder replaced stays
    // until the next rerun (for the queries reading it a moment before).
    const rerun = await unitStore(5, false);
    await writeLakeUnit(lake, UNIT, rerun, SCORED_PROMPT_TABLES);
    await writeLakeUnit(lake, UNIT, rerun, SCORED_PROMPT_TABLES);
    await rerun.close();
    expect(lakeFiles(join(lake, "units"))).toEqual([
      ...tableFiles("v0000000002"),
      ...tableFiles("v0000000003"),
    ]);
    // no staging folder left
    expect(readdirSync(lake).sort()).toEqual([LAKE_MARKER, "units"]);

    const reader = await openLake(lake);
    try {
      const { rows } = await queryRows(
        reader,
        "select miner_uid, crps, hotkey, asset from miner_scores order by miner_uid",
      );
      expect(rows.map((row) => row[0])).toEqual([0, 1, 2, 3, 4]);
      expect(rows[4]).toEqual([4, 100 + 4 / 3, "hk4", "BTC"]);
      // The store's types, not the ones the files or folders would suggest.
      const types = await queryRows(
        reader,
        "select column_name, column_type from (describe prompts)",
      );
      expect(types.rows).toContainEqual(["start_time", "TIMESTAMP"]);
      expect(types.rows).toContainEqual(["competition", "VARCHAR"]);
      // A unit's tombstone hides its earlier rows; a table without files reads as empty.
      const gone = await queryRows(reader, "select count(*)::INTEGER as n from realized_prices");
      expect(gone.rows).toEqual([[0]]);
      const empty = await queryRows(reader, "select count(*)::INTEGER as n from service_scores");
      expect(empty.rows).toEqual([[0]]);
      // Reads only: a statement that writes is refused before it runs.
      await expect(
        queryRows(reader, `copy (select 1) to '${join(lake, "x.parquet")}'`),
      ).rejects.toThrow();
      expect(existsSync(join(lake, "x.parquet"))).toBe(false);
    } finally {
      await reader.close();
    }
  });

  it("compaction merges a partition's files into one, and reruns still replace what it merged", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const lake = join(folder, "lake");
    // Three prompts of one day (one partition), one of them written twice.
    const units = [0, 1, 2].map((index) => ({
      unit: { ...UNIT, key: `${UNIT.key}.${index}` },
      startUnix: START + index * 1800,
    }));
    const write = async (index: number, miners: number, realized = true) => {
      const store = await unitStore(miners, realized, units[index].startUnix);
      await writeLakeUnit(lake, units[index].unit, store, SCORED_PROMPT_TABLES);
      await store.close();
    };
    await write(0, 2);
    await write(1, 3);
    await write(2, 4);
    await write(1, 6); // a rerun: 6 miners now
    const read = async () => {
      const reader = await openLake(lake);
      try {
        const miners = await queryRows(
          reader,
          "select start_time, count(*)::INTEGER from miner_scores group by all order by all",
        );
        const realized = await queryRows(reader, "select count(*)::INTEGER from realized_prices");
        return { miners: miners.rows.map((row) => row[1]), realized: realized.rows[0][0] };
      } finally {
        await reader.close();
      }
    };
    expect(await read()).toEqual({ miners: [2, 6, 4], realized: 3 });
    const partition = "units/competition=crypto-24h/asset=BTC/date=2026-11-19";
    const compacted = await compactLake(lake);
    // four folders (the rerun's and the one it replaced), 12 miner rows, 3 prompts, 3 realized prices
    expect(compacted).toEqual([{ partition, merged: 4, rows: 18 }]);
    expect(lakeFiles(join(lake, partition))).toEqual(
      ["miner_scores", "prompts", "realized_prices"].map((table) =>
        expect.stringMatching(new RegExp(`^compact-[^/]*/${table}\\.parquet$`)),
      ),
    );
    expect(await read()).toEqual({ miners: [2, 6, 4], realized: 3 });
    // After compaction a rerun replaces its unit's merged rows, and a tombstone hides them, even
    // from a worker whose clock is behind (its write time earlier than the merged rows').
    const behind = vi.spyOn(Date, "now").mockReturnValue(0);
    try {
      await write(2, 1, false);
    } finally {
      behind.mockRestore();
    }
    expect(await read()).toEqual({ miners: [2, 6, 1], realized: 2 });
    await compactLake(lake);
    expect(readdirSync(join(lake, partition))).toEqual([expect.stringMatching(/^compact-/)]);
    expect(await read()).toEqual({ miners: [2, 6, 1], realized: 2 });
    expect(await compactLake(lake)).toEqual([]); // one file per partition: nothing to merge
  });

  it("refuses a folder of someone else's files, and reading a folder that is not a lake", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const theirs = join(folder, "theirs");
    mkdirSync(theirs);
    writeFileSync(join(theirs, "notes.txt"), "mine");
    expect(() => prepareLake(theirs)).toThrow(StoreError);
    expect(() => prepareLake(theirs)).toThrow(/holds files and is not a pathlab lake/);
    expect(readdirSync(theirs)).toEqual(["notes.txt"]);
    await expect(openLake(theirs)).rejects.toThrow(/not a pathlab lake/);
    prepareLake(join(folder, "new"));
    expect(existsSync(join(folder, "new", LAKE_MARKER))).toBe(true);
  });

  it("refuses a lake of another layout, naming it, for reading, writing and compacting", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const lake = join(folder, "lake");
    mkdirSync(lake);
    writeFileSync(join(lake, LAKE_MARKER), `${JSON.stringify({ writer: "pathlab", layout: 1 })}\n`);
    const layout = /the lake has layout 1 \(\.pathlab-lake\.json\).*layout 2 only/;
    expect(() => prepareLake(lake)).toThrow(layout);
    await expect(openLake(lake)).rejects.toThrow(layout);
    await expect(compactLake(lake)).rejects.toThrow(layout);
    const store = await unitStore(1);
    await expect(writeLakeUnit(lake, UNIT, store, ["prompts"])).rejects.toThrow(layout);
    await store.close();
    expect(readdirSync(lake)).toEqual([LAKE_MARKER]);
  });

  it("removes the staging folders of killed writers of this machine, and nothing else", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const lake = join(folder, "lake");
    prepareLake(lake);
    // a process id no process has (above Linux's largest), one that runs, another host's
    const left = [
      `.pathlab-staging-99999999@${hostname()}-AbC123`,
      `.pathlab-staging-${process.pid}@${hostname()}-AbC123`,
      ".pathlab-staging-99999999@elsewhere-AbC123",
      ".pathlab-staging-notes",
    ];
    for (const name of left) {
      mkdirSync(join(lake, name));
      writeFileSync(join(lake, name, "prompts.parquet"), "");
    }
    const store = await unitStore(1);
    await writeLakeUnit(lake, UNIT, store, ["prompts"]);
    await store.close();
    expect(readdirSync(lake).sort()).toEqual([LAKE_MARKER, ...left.slice(1), "units"].sort());
    const reader = await openLake(lake);
    try {
      expect((await queryRows(reader, "select count(*)::INTEGER from prompts")).rows).toEqual([
        [1],
      ]);
    } finally {
      await reader.close();
    }
  });

  it("keeps a unit's tables that a rerun does not write", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const lake = join(folder, "lake");
    const first = await unitStore(3);
    await writeLakeUnit(lake, UNIT, first, SCORED_PROMPT_TABLES);
    await first.close();
    const rerun = await unitStore(5);
    await writeLakeUnit(lake, UNIT, rerun, ["miner_scores"]);
    await rerun.close();
    const reader = await openLake(lake);
    try {
      const counts = await queryRows(
        reader,
        `select (select count(*) from miner_scores)::INTEGER, (select count(*) from prompts)::INTEGER,
           (select count(*) from realized_prices)::INTEGER`,
      );
      expect(counts.rows).toEqual([[5, 1, 1]]);
    } finally {
      await reader.close();
    }
    expect(
      readdirSync(join(lake, "units/competition=crypto-24h/asset=BTC/date=2026-11-19")).sort(),
    ).toEqual([`unit-${UNIT.key}.v0000000001`, `unit-${UNIT.key}.v0000000002`]);
  });

  it("refuses a key or partition value that is not a plain name", async () => {
    const { folder, remove } = temporaryFolder();
    cleanup = remove;
    const store = await unitStore(1);
    await expect(
      writeLakeUnit(join(folder, "lake"), { ...UNIT, asset: "../BTC" }, store, ["prompts"]),
    ).rejects.toThrow(/asset of letters, digits/);
    await store.close();
  });
});
