/**
 * Sync units on a real Redis: `pathlab enqueue sync` puts an hour of the sandbox's forecasts (BTC
 * and ETH, 1h) on the queue, three `pathlab worker` processes run them into one lake, one of them
 * killed with SIGKILL while it runs a unit. The lake must then hold exactly what a single
 * `pathlab sync --from --to --lake` stores for the same range: every table, row for row, its ids
 * included (they are the rows' natural keys), path and insight values by their hash. A sync watch
 * on the queue enqueues each forecast of its look-back once, across a worker's restart.
 *
 * Needs Debian's redis-server (`.ci/run` installs it); see queueHelpers.ts.
 */

import { join } from "node:path";
import { Queue } from "bullmq";
import { expect, it } from "vitest";
import { runPathlab } from "../../cli/runPathlab.ts";
import {
  describeWithRedis,
  expectAllDone,
  killMidUnit,
  SMALL_SANDBOX,
  startWorker,
} from "./queueHelpers.ts";

const RANGE = [
  "--now",
  "2026-11-21T10:00:00Z",
  "--from",
  "2026-11-21T09:00:00Z",
  "--to",
  "2026-11-21T10:00:00Z",
  "--assets",
  "BTC,ETH",
  "--horizons",
  "1h",
  ...SMALL_SANDBOX,
];

/** Each table of a sync unit, as sorted lines (when path sets were fetched left out). */
const QUERIES: Readonly<Record<string, string>> = {
  path_sets: "select * exclude (run_id, fetched_at) from path_sets order by all",
  path_values: "select path_set_id, path, hash(prices) from path_values order by all",
  insights: "select * exclude (run_id) from insights order by all",
  insight_values: "select insight_id, field, key, hash(value) from insight_values order by all",
  crosschecks: "select * exclude (run_id) from crosschecks order by all",
  venue_comparisons: "select * exclude (run_id) from venue_comparisons order by all",
  leaderboard_rows: "select * exclude (run_id) from leaderboard_rows order by all",
};

async function lines(lake: string, sql: string): Promise<string[]> {
  const result = await runPathlab(["query", "--lake", lake, "--ndjson", sql]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout.split("\n").filter((line) => line !== "");
}

describeWithRedis("sync units on a real Redis", ({ directory, url: redisUrl }) => {
  const lake = join(directory, "sync-lake");
  const single = join(directory, "single-lake");

  it("three workers, one killed mid-unit, leave the lake of a single sync", async () => {
    const url = redisUrl();
    const enqueued = await runPathlab(["enqueue", "sync", "--redis", url, ...RANGE]);
    expect(enqueued.stderr).toBe("");
    // BTC's 1h forecasts start at :00, :20 and :40, ETH's at :04, :24 and :44 in the sandbox
    expect(enqueued.stdout).toContain("enqueued: 7 of 7 units");
    const again = await runPathlab(["enqueue", "sync", "--redis", url, ...RANGE]);
    expect(again.stdout).toContain("enqueued: 0 of 7 units on queue pathlab (7 already there)");

    const workers = [0, 1, 2].map(() => startWorker(url, lake));
    const victim = workers[0].child;
    const queue = new Queue("pathlab", { connection: { url } });
    try {
      const killedUnit = await killMidUnit(queue, victim);
      expect(killedUnit).toMatch(/^sync\.(BTC|ETH)\.1h\.20261121T\d{6}Z$/);
      expect(await workers[0].done).toBe(null);
      expect(await workers[1].done).toBe(0);
      expect(await workers[2].done).toBe(0);
      await expectAllDone(queue, 7, killedUnit, victim);
    } finally {
      for (const { child } of workers) child.kill("SIGKILL");
      await queue.close();
    }

    const synced = await runPathlab(["sync", ...RANGE, "--lake", single]);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain("7/7 stored");
    for (const [table, sql] of Object.entries(QUERIES)) {
      const fromWorkers = await lines(lake, sql);
      expect(fromWorkers.length, table).toBeGreaterThan(0);
      expect(new Set(fromWorkers).size, `${table}: no duplicate row`).toBe(fromWorkers.length);
      expect(fromWorkers, table).toEqual(await lines(single, sql));
    }
    // every unit's seven forecasts, each cross-checked value exact
    const [starts] = await lines(
      lake,
      "select count(distinct (asset, forecast_start_time))::INTEGER n from insights",
    );
    expect(JSON.parse(starts)).toEqual({ n: 7 });
    const verdicts = await lines(lake, "select distinct verdict from crosschecks");
    expect(verdicts).toEqual(['{"verdict":"exact"}']);
  }, 300_000);

  it("a sync watch enqueues each forecast of its look-back once, and unwatches cleanly", async () => {
    const url = redisUrl();
    const queueName = ["--queue", "sync-watch"];
    const selection = [...RANGE.slice(0, 2), ...RANGE.slice(6)];
    const installed = await runPathlab([
      "enqueue",
      "sync",
      "--watch",
      "--redis",
      url,
      ...queueName,
      ...selection,
      "--every",
      "1",
      "--lookback",
      "1",
    ]);
    expect(installed.stderr).toBe("");
    expect(installed.stdout).toMatch(
      /^watching: watch\.sync\.BTC\+ETH\.1h\.[0-9a-f]{8} on queue sync-watch every 1 s, /,
    );
    const ranged = await runPathlab(["enqueue", "sync", "--watch", "--redis", url, ...RANGE]);
    expect(ranged.code).toBe(2);
    expect(ranged.stderr).toContain(
      "--watch follows the new forecasts; --from/--to enqueue a range",
    );

    const watchLake = join(directory, "sync-watch-lake");
    const queue = new Queue("sync-watch", { connection: { url } });
    try {
      expect(await startWorker(url, watchLake, [...queueName, "--until-idle"]).done).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await startWorker(url, watchLake, [...queueName, "--until-idle"]).done).toBe(0);
      // the hour before the clock, both ends included: the seven forecasts of the range above
      const units = (await queue.getJobs(["completed"])).filter((job) => job.name === "sync");
      expect(units.map((job) => job.id).sort()).toEqual([
        "sync.BTC.1h.20261121T090000Z",
        "sync.BTC.1h.20261121T092000Z",
        "sync.BTC.1h.20261121T094000Z",
        "sync.BTC.1h.20261121T100000Z",
        "sync.ETH.1h.20261121T090400Z",
        "sync.ETH.1h.20261121T092400Z",
        "sync.ETH.1h.20261121T094400Z",
      ]);
      expect((await queue.getJobCounts("failed")).failed).toBe(0);
      expect(await lines(watchLake, "select distinct verdict from crosschecks")).toEqual([
        '{"verdict":"exact"}',
      ]);
      const removed = await runPathlab(["queue", "unwatch", "--redis", url, ...queueName]);
      expect(removed.stdout).toMatch(/^unwatched: watch\.sync\.BTC\+ETH\.1h\.[0-9a-f]{8}\n$/);
    } finally {
      await queue.close();
    }
  }, 180_000);
});
