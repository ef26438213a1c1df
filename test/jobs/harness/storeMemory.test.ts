/**
 * The memory limit and threads of a job's store: a database file is opened with DuckDB's
 * `memory_limit` at `JOB_STORE_MEMORY_LIMIT` (a sync's: `SYNC_STORE_MEMORY`, with DuckDB's
 * allocator flushes after 1 MB freed; `PATHLAB_DUCKDB_MEMORY_LIMIT` sets either limit), so that
 * the blocks DuckDB keeps after writing them stop growing there, and with `threads` at
 * `JOB_STORE_THREADS` (or `PATHLAB_DUCKDB_THREADS`); a database in memory keeps DuckDB's memory
 * limit, and a lake's working store in memory all of DuckDB's defaults.
 * What a statement works on beyond the limit spills to `<file>.tmp`, which DuckDB removes when it
 * made it, and where it leaves a user's own files alone.
 */

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  JOB_STORE_MEMORY_LIMIT,
  JOB_STORE_THREADS,
  SYNC_STORE_MEMORY,
} from "../../../src/jobs/harness/defaults.ts";
import { runJob, type JobDefinition, type JobOptions } from "../../../src/jobs/harness/runJob.ts";
import { SYNC_JOB } from "../../../src/jobs/sync/sync.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";

const { folder, remove } = temporaryFolder();
// the tests set the variables themselves: those in the developer's environment are put back after
const VARIABLES = ["PATHLAB_DUCKDB_MEMORY_LIMIT", "PATHLAB_DUCKDB_THREADS"] as const;
const developers = VARIABLES.map((name) => process.env[name]);
beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
});
afterAll(() => {
  VARIABLES.forEach((name, index) => {
    const value = developers[index];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  });
  remove();
});

const SETTINGS =
  "select current_setting('memory_limit'), current_setting('temp_directory'), current_setting('threads')::INTEGER, current_setting('allocator_bulk_deallocation_flush_threshold')";
const definition = { command: "score", check: () => undefined, talks: () => false };
// the sync's own definition, without a service to talk to or options to check
const syncDefinition = { ...SYNC_JOB, ...definition, command: "sync" };
/** DuckDB's memory limit, spill folder, threads and flush threshold in the store of a job. */
const jobSettings = (
  options: { database?: string; lake?: string },
  job: JobDefinition<JobOptions, undefined> = definition,
) => runJob(job, options, async ({ store }) => (await queryRows(store, SETTINGS)).rows[0]);

/** DuckDB's threads in a store opened without a setting: its own default, one per core. */
async function openedThreads(): Promise<unknown> {
  const store = await openStore(":memory:");
  try {
    return (await queryRows(store, SETTINGS)).rows[0][2];
  } finally {
    await store.close();
  }
}

/** DuckDB's memory limit of a store opened with `memoryLimit`, or without one. */
async function openedLimit(memoryLimit?: string): Promise<unknown> {
  const store = await openStore(":memory:", memoryLimit === undefined ? {} : { memoryLimit });
  try {
    return (await queryRows(store, SETTINGS)).rows[0][0];
  } finally {
    await store.close();
  }
}

describe("a job's store", () => {
  it("a database file gets JOB_STORE_MEMORY_LIMIT and spills beside itself", async () => {
    const limited = await openedLimit(JOB_STORE_MEMORY_LIMIT);
    expect(limited).toBe("488.2 MiB"); // DuckDB prints binary units: 512 MB = 488.2 MiB
    expect(await openedLimit()).not.toBe(limited);
    const database = join(folder, "job.duckdb");
    // DuckDB's own flush threshold: 512 MiB
    expect(await jobSettings({ database })).toEqual([limited, `${database}.tmp`, 1, "512.0 MiB"]);
    expect(JOB_STORE_THREADS).toBe(1);
  });

  it("a sync's database file gets SYNC_STORE_MEMORY: 128 MB, flushes after 1 MB freed", async () => {
    const database = join(folder, "sync.duckdb");
    expect(SYNC_STORE_MEMORY).toEqual({ limit: "128MB", flushThreshold: "1MB" });
    // DuckDB prints binary units: 128 MB = 122.0 MiB, 1 MB = 976.5 KiB
    expect(await jobSettings({ database }, syncDefinition)).toEqual([
      "122.0 MiB",
      `${database}.tmp`,
      1,
      "976.5 KiB",
    ]);
    process.env.PATHLAB_DUCKDB_MEMORY_LIMIT = "2GB";
    const [limit, , , flush] = await jobSettings({ database }, syncDefinition);
    expect([limit, flush]).toEqual(["1.8 GiB", "976.5 KiB"]);
    delete process.env.PATHLAB_DUCKDB_MEMORY_LIMIT;
    // a database in memory: DuckDB's own limit (its rows cannot be dropped), the sync's flushes
    const inMemory = await jobSettings({ database: ":memory:" }, syncDefinition);
    expect([inMemory[0], inMemory[3]]).toEqual([await openedLimit(), "976.5 KiB"]);
    // a lake's working store: DuckDB's defaults whatever the job
    const lake = await jobSettings({ lake: join(folder, "sync-lake") }, syncDefinition);
    expect([lake[0], lake[3]]).toEqual([await openedLimit(), "512.0 MiB"]);
  });

  it("a lake's working store keeps DuckDB's defaults", async () => {
    const [limit, , threads] = await jobSettings({ lake: join(folder, "lake") });
    expect(limit).toBe(await openedLimit());
    expect(threads).toBe(await openedThreads());
  });

  it("PATHLAB_DUCKDB_THREADS sets its threads; a value DuckDB refuses is named", async () => {
    const database = join(folder, "job-threads.duckdb");
    process.env.PATHLAB_DUCKDB_THREADS = "3";
    expect((await jobSettings({ database }))[2]).toBe(3);
    process.env.PATHLAB_DUCKDB_THREADS = "0";
    await expect(jobSettings({ database })).rejects.toThrow(
      /^openStore on ".*job-threads\.duckdb": DuckDB's threads "0": .*at least 1 thread/,
    );
  });

  it("PATHLAB_DUCKDB_MEMORY_LIMIT sets it; a value DuckDB refuses is named", async () => {
    const database = join(folder, "job-env.duckdb");
    process.env.PATHLAB_DUCKDB_MEMORY_LIMIT = "2GB";
    expect((await jobSettings({ database }))[0]).toBe("1.8 GiB");
    process.env.PATHLAB_DUCKDB_MEMORY_LIMIT = "lots";
    await expect(jobSettings({ database })).rejects.toThrow(
      /^openStore on ".*job-env\.duckdb": DuckDB's memory limit "lots": /,
    );
  });
});

/**
 * Runs a grouping far beyond a 64 MB limit in the store at `path`; the names seen in the folder
 * `<path>.tmp` while it ran.
 */
async function spill(path: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const store = await openStore(path, { memoryLimit: "64MB" });
  const watch = setInterval(() => {
    if (existsSync(`${path}.tmp`)) for (const name of readdirSync(`${path}.tmp`)) seen.add(name);
  }, 5);
  try {
    await queryRows(store, "SET threads = 2"); // per-thread buffers: the same on any machine
    // two million groups: a hash table beyond 64 MB
    const { rows } = await queryRows(
      store,
      "select count(*)::INTEGER from (select i % 2000000, count(*) from range(8000000) t(i) group by all)",
    );
    expect(rows).toEqual([[2_000_000]]);
    return seen;
  } finally {
    clearInterval(watch);
    await store.close();
  }
}

/** DuckDB's spill files among `names`. */
const spillFiles = (names: Set<string>) => [...names].filter((name) => name.startsWith("duckdb_"));

describe("a store over its memory limit", () => {
  it("spills to <file>.tmp, which closing it removes", async () => {
    const directory = join(folder, "spill");
    mkdirSync(directory);
    expect(spillFiles(await spill(join(directory, "spill.duckdb")))).not.toEqual([]);
    expect(readdirSync(directory)).toEqual(["spill.duckdb"]);
  }, 60_000);

  it("leaves a user's own <file>.tmp and its files where they were", async () => {
    const directory = join(folder, "theirs");
    mkdirSync(join(directory, "theirs.duckdb.tmp"), { recursive: true });
    writeFileSync(join(directory, "theirs.duckdb.tmp", "notes.txt"), "mine");
    expect(spillFiles(await spill(join(directory, "theirs.duckdb")))).not.toEqual([]);
    expect(readdirSync(join(directory, "theirs.duckdb.tmp"))).toEqual(["notes.txt"]);
  }, 60_000);
});
