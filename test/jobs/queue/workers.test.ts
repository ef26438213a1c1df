/**
 * Beyond one machine, for real: a `redis-server` on a free loopback port, half a day of the
 * sandbox's crypto-24h BTC prompts enqueued by `pathlab enqueue score`, three `pathlab worker`
 * processes writing one lake, one of them killed with SIGKILL while it runs a unit. The lake must
 * then hold exactly what a single `pathlab score` process stores for the same range, row for row
 * and value for value, with no duplicate.
 *
 * Needs Debian's redis-server (`.ci/run` installs it). Without it the test is skipped with the
 * reason, unless PATHLAB_REQUIRE_REDIS=1 (CI), which turns the absence into a failure.
 */

import { join } from "node:path";
import { Queue } from "bullmq";
import { expect, it } from "vitest";
import { runPathlab } from "../../cli/runPathlab.ts";
import {
  describeWithRedis,
  expectAllDone,
  killMidUnit,
  RANGE,
  SMALL_SANDBOX,
  rows,
  startWorker,
  TABLES,
} from "./queueHelpers.ts";

describeWithRedis("three workers on a real Redis", ({ directory, url: redisUrl }) => {
  const lake = join(directory, "lake");
  const database = join(directory, "single.duckdb");

  it("a worker killed mid-unit loses nothing: the lake equals a single process's rows", async () => {
    const url = redisUrl();
    const enqueue = ["enqueue", "score", "--redis", url, ...RANGE, ...SMALL_SANDBOX];
    const enqueued = await runPathlab(enqueue);
    expect(enqueued.stderr).toBe("");
    const planned = Number(/enqueued: (\d+) of (\d+) units/.exec(enqueued.stdout)?.[2]);
    expect(planned).toBeGreaterThan(20); // half a day of crypto-24h prompts
    // Enqueueing the same range again adds nothing: the job ids are the units' natural keys.
    const again = await runPathlab(enqueue);
    expect(again.stdout).toContain(`enqueued: 0 of ${planned} units`);

    const workers = [0, 1, 2].map(() => startWorker(url, lake));
    const victim = workers[0].child;
    const queue = new Queue("pathlab", { connection: { url } });
    try {
      const killedUnit = await killMidUnit(queue, victim);
      expect(await workers[0].done).toBe(null); // killed by the signal
      expect(await workers[1].done).toBe(0);
      expect(await workers[2].done).toBe(0);
      // The killed unit's lock lapsed, it went back to the queue and another worker ran it.
      await expectAllDone(queue, planned, killedUnit, victim);
    } finally {
      for (const { child } of workers) child.kill("SIGKILL");
      await queue.close();
    }

    const single = await runPathlab(["score", ...RANGE, ...SMALL_SANDBOX, "--db", database]);
    expect(single.code).toBe(0);
    for (const table of TABLES) {
      const fromLake = await rows(["--lake", lake], table);
      const fromSingle = await rows(["--db", database], table);
      expect(fromLake.length, table).toBeGreaterThan(0);
      expect(new Set(fromLake).size, `${table}: no duplicate row`).toBe(fromLake.length);
      expect(fromLake, table).toEqual(fromSingle);
    }
    // the reduce step: the workers' units ranked as the single process ranked them
    const reduced = await runPathlab([
      "lake",
      "reduce",
      "--lake",
      lake,
      ...RANGE.slice(0, 6),
      ...SMALL_SANDBOX,
    ]);
    expect(reduced.code, reduced.stderr).toBe(0);
    for (const table of ["rank_history", "smoothed_scores"]) {
      const reducedRows = await rows(["--lake", lake], table);
      expect(reducedRows.length, table).toBeGreaterThan(0);
      expect(reducedRows, table).toEqual(await rows(["--db", database], table));
    }
  }, 300_000);
});
