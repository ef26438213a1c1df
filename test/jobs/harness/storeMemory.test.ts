/**
 * The memory limit of a job's store: a database file is opened with DuckDB's `memory_limit` at
 * `JOB_STORE_MEMORY_LIMIT`, so that the blocks DuckDB keeps after writing them stop growing there;
 * a lake's working store in memory keeps DuckDB's default, which it must not spill from. Work
 * beyond the limit spills to a folder beside the file, which closing the store removes.
 */

import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JOB_STORE_MEMORY_LIMIT } from "../../../src/jobs/harness/defaults.ts";
import { runJob } from "../../../src/jobs/harness/runJob.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";

const { folder, remove } = temporaryFolder();
afterAll(remove);

const definition = { command: "sync", check: () => undefined, talks: () => false } as const;
/** DuckDB's `memory_limit` setting of the store of a job with `options`, as DuckDB prints it. */
const storeLimit = (options: { database?: string; lake?: string }) =>
  runJob(definition, options, async (job) => {
    const { rows } = await queryRows(job.store, "select current_setting('memory_limit')");
    return String(rows[0][0]);
  });

/** DuckDB's `memory_limit` of a store opened with `memoryLimit`, or without one. */
async function openedLimit(memoryLimit?: string): Promise<string> {
  const store = await openStore(":memory:", memoryLimit === undefined ? {} : { memoryLimit });
  try {
    return String((await queryRows(store, "select current_setting('memory_limit')")).rows[0][0]);
  } finally {
    await store.close();
  }
}

describe("a job's store", () => {
  it("openStore sets DuckDB's memory limit it is given, and leaves DuckDB's own otherwise", async () => {
    // DuckDB prints limits in binary units: 300 MB = 286.1 MiB
    expect(await openedLimit("300MB")).toBe("286.1 MiB");
    expect(await openedLimit()).not.toBe("286.1 MiB");
  });

  it("a database file is limited to JOB_STORE_MEMORY_LIMIT, a lake's working store is not", async () => {
    const limited = await openedLimit(JOB_STORE_MEMORY_LIMIT);
    expect(limited).not.toBe(await openedLimit());
    expect(await storeLimit({ database: join(folder, "job.duckdb") })).toBe(limited);
    expect(await storeLimit({ lake: join(folder, "lake") })).toBe(await openedLimit());
  });
});

describe("a store over its memory limit", () => {
  it("spills to <file>.tmp beside its file, and closing it leaves only the database", async () => {
    const path = join(folder, "spill", "spill.duckdb");
    mkdirSync(join(folder, "spill"));
    const store = await openStore(path, { memoryLimit: "64MB" });
    try {
      // five million groups: a hash table far beyond 64 MB
      const { rows } = await queryRows(
        store,
        "select count(*)::INTEGER from (select i % 5000000 as k, count(*) from range(40000000) t(i) group by all)",
      );
      expect(rows).toEqual([[5_000_000]]);
      expect(existsSync(`${path}.tmp`)).toBe(true);
    } finally {
      await store.close();
    }
    expect(readdirSync(join(folder, "spill"))).toEqual(["spill.duckdb"]);
  }, 60_000);
});
