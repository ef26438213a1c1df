/**
 * A unit's write leaves the event loop its turns: `flushInTurn` flushes, then lets what was
 * scheduled meanwhile run before the writer goes on, and `writeUnit` flushes a unit's path sets
 * one by one and its cross-checks in parts of `ROWS_PER_TURN`, with such a turn between them. The
 * writes go into a real DuckDB file; the rows read back are the rows written.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { flushInTurn, ROWS_PER_TURN } from "../../src/store/appendInTurns.ts";
import type { CrosscheckEntry } from "../../src/store/crosschecks.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { writeUnit, type StoreUnit } from "../../src/store/writeUnit.ts";
import { randomPathSet, temporaryFolder } from "./helpers.ts";

let folder: string;
let remove: () => void;
beforeEach(() => ({ folder, remove } = temporaryFolder()));
afterEach(() => remove());

const START = 1772063100;

/** Writes `unit` while every turn of the event loop adds "turn" to `log`; returns the log. */
async function writeLogged(unit: StoreUnit, log: string[]): Promise<void> {
  const store = await openStore(join(folder, "turns.duckdb"));
  let writing = true;
  const tick = () => {
    if (!writing) return;
    log.push("turn");
    setImmediate(tick);
  };
  try {
    setImmediate(tick);
    await writeUnit(store, unit);
  } finally {
    writing = false;
    await store.close();
  }
}

describe("flushInTurn", () => {
  it("flushes, then waits for the event loop's next turn", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("scheduled before"));
    await flushInTurn({ flushSync: () => void order.push("flush") });
    order.push("writer goes on");
    expect(order).toEqual(["flush", "scheduled before", "writer goes on"]);
  });
});

describe("a unit's write, in turns", () => {
  it("lets the event loop run between two path sets", async () => {
    const log: string[] = [];
    // each path set's values, when read, add `set <miner>` to the log
    const pathSets = [1, 2, 3].map((miner): PathSet => {
      const pathSet = randomPathSet(miner, 50, 289);
      return {
        ...pathSet,
        get values() {
          log.push(`set ${miner}`);
          return pathSet.values;
        },
      };
    });
    await writeLogged(
      {
        asset: "BTC",
        horizon: "24h",
        forecastStartTimeUnix: START,
        pathSets: pathSets.map((pathSet) => ({ pathSet, source: "test", fetchedAtUnix: START })),
      },
      log,
    );
    // the last reads of each set are its append's, in order; a turn comes between two of them
    const last = [1, 2, 3].map((miner) => log.lastIndexOf(`set ${miner}`));
    expect(last[0]).toBeLessThan(last[1]);
    expect(log.slice(last[0], log.indexOf("set 2", last[0]))).toContain("turn");
    expect(log.slice(last[1], log.indexOf("set 3", last[1]))).toContain("turn");
    const store = await openStore(join(folder, "turns.duckdb"), { readOnly: true });
    try {
      const { rows } = await queryRows(store, "select count(*) from path_values");
      expect(Number(rows[0][0])).toBe(150);
    } finally {
      await store.close();
    }
  });

  it("lets the event loop run after each part of the cross-checks, and only there", async () => {
    const log: string[] = [];
    const count = 2 * ROWS_PER_TURN + 100;
    const crosschecks = Array.from({ length: count }, (_, index): CrosscheckEntry => ({
      operation: "/insights/lp-bounds",
      field: "field",
      key: String(index),
      serviceValue: index,
      recomputedValue: index,
      tolerance: null,
      verdict: "exact",
      // read once, as the row is appended
      get detail() {
        log.push(`row ${index}`);
        return undefined;
      },
    }));
    await writeLogged(
      { asset: "BTC", horizon: "24h", forecastStartTimeUnix: START, crosschecks },
      log,
    );
    const rows = log.filter((entry) => entry.startsWith("row "));
    expect(rows).toEqual(crosschecks.map((_, index) => `row ${index}`));
    // between the first row and the last, turns come right after a part's last row
    const first = log.indexOf("row 0");
    const end = log.indexOf(`row ${count - 1}`);
    const after = log
      .slice(first, end)
      .flatMap((entry, at, inside) =>
        entry === "turn" && inside[at - 1] !== "turn" ? [inside[at - 1]] : [],
      );
    expect(after).toEqual([`row ${ROWS_PER_TURN - 1}`, `row ${2 * ROWS_PER_TURN - 1}`]);
    const store = await openStore(join(folder, "turns.duckdb"), { readOnly: true });
    try {
      const { rows: stored } = await queryRows(store, "select count(*) from crosschecks");
      expect(Number(stored[0][0])).toBe(count);
    } finally {
      await store.close();
    }
  });
});
