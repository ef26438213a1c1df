/**
 * Watches and failures on a real `redis-server`: a watch enqueues each new prompt once across
 * worker restarts and stops cleanly; a worker without the service's key fails its units, and
 * `pathlab queue retry` runs them again once a worker has it. Skipped without redis-server unless
 * PATHLAB_REQUIRE_REDIS=1 (CI), as queueWorkers.test.ts.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { expect, it } from "vitest";
import { startEmbeddedSandbox } from "../../../src/service/embeddedSandbox.ts";
import { runPathlab } from "../../cli/runPathlab.ts";
import { describeWithRedis, NOW, RANGE, rows, SMALL_SANDBOX, startWorker } from "./queueHelpers.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

describeWithRedis("watches and retries on a real Redis", ({ directory, url: redisUrl }) => {
  it("a worker without the service's key fails its units; fixed, `queue retry` runs them again", async () => {
    const url = redisUrl();
    const sandbox = await startEmbeddedSandbox({
      ...SMALL_WORLD,
      seed: 42,
      now: NOW,
      apiKey: "the-service-key",
    });
    const queueName = ["--queue", "keys"];
    const lake = join(directory, "keys-lake");
    try {
      const service = ["--base-url", sandbox.url, "--no-own-only"];
      const enqueued = await runPathlab(
        ["enqueue", "score", "--redis", url, ...queueName, ...RANGE.slice(2), ...service],
        { env: { PATHLAB_API_KEY: "the-service-key" } },
      );
      expect(enqueued.stderr).toBe("");
      const units = Number(/enqueued: (\d+) of/.exec(enqueued.stdout)?.[1]);
      expect(units).toBeGreaterThan(20);
      // A lake folder of someone else's files: the worker refuses it at once, taking no unit.
      const theirs = join(directory, "theirs");
      mkdirSync(theirs);
      writeFileSync(join(theirs, "notes.txt"), "mine");
      const refused = await runPathlab([
        "worker",
        "--redis",
        url,
        ...queueName,
        "--lake",
        theirs,
        "--until-idle",
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is not a pathlab lake");
      // No key in this worker's environment (units never carry one): every unit fails.
      const keyless = await runPathlab([
        "worker",
        "--redis",
        url,
        ...queueName,
        "--lake",
        lake,
        "--until-idle",
      ]);
      expect(keyless.code).toBe(0);
      expect(keyless.stderr).toContain("this worker has no API key (set PATHLAB_API_KEY)");
      expect(keyless.stderr + keyless.stdout).not.toContain("the-service-key");
      const status = await runPathlab(["queue", "status", "--redis", url, ...queueName, "--json"]);
      expect(JSON.parse(status.stdout).counts).toMatchObject({ failed: units, completed: 0 });
      const retried = await runPathlab(["queue", "retry", "--redis", url, ...queueName]);
      expect(retried.stdout).toBe(`retried: ${units} failed units\n`);
      const keyed = await runPathlab(
        ["worker", "--redis", url, ...queueName, "--lake", lake, "--until-idle"],
        { env: { PATHLAB_API_KEY: "the-service-key" } },
      );
      expect(keyed.stdout).toBe(`worker: ${units} units stored, 0 failed attempts\n`);
      const after = await runPathlab(["queue", "status", "--redis", url, ...queueName, "--json"]);
      expect(JSON.parse(after.stdout).counts).toMatchObject({ failed: 0, completed: units });
    } finally {
      await sandbox.close();
    }
  }, 300_000);

  it("a watch enqueues each new prompt once, across worker restarts, and stops cleanly", async () => {
    const url = redisUrl();
    const queueName = ["--queue", "watch"];
    // The range's selection and clock, without its dates.
    const selection = [...RANGE.slice(0, 2), ...RANGE.slice(6), ...SMALL_SANDBOX];
    const installArgs = [
      "enqueue",
      "watch",
      "--redis",
      url,
      ...queueName,
      ...selection,
      "--every",
      "1",
      "--lookback",
      "3",
    ];
    const installed = await runPathlab(installArgs);
    expect(installed.stderr).toBe("");
    expect(installed.stdout).toMatch(
      /^watching: watch\.score\.crypto-24h\.BTC\.[0-9a-f]{8} on queue watch every 1 s, /,
    );
    // The same watch installed again is the same scheduler.
    const again = await runPathlab(installArgs);
    expect(again.stdout).toBe(installed.stdout);
    const watches = await runPathlab(["queue", "status", "--redis", url, ...queueName, "--json"]);
    expect(JSON.parse(watches.stdout).watches).toHaveLength(1);
    // The units the watch should find: the prompts of the three hours before the clock's last scored start.
    const expected = await runPathlab([
      "enqueue",
      "score",
      "--redis",
      url,
      "--queue",
      "expected",
      ...selection,
      "--from",
      "2026-11-19T09:00:00Z",
      "--to",
      "2026-11-19T12:00:00Z",
    ]);
    const units = Number(/enqueued: (\d+) of/.exec(expected.stdout)?.[1]);
    expect(units).toBeGreaterThan(3);

    const watchLake = join(directory, "watch-lake");
    const queue = new Queue("watch", { connection: { url } });
    try {
      // A worker runs the first tick's units, then a second one (a restart) sees later ticks
      // add nothing: the same prompts, under the same keys.
      expect(await startWorker(url, watchLake, [...queueName, "--until-idle"]).done).toBe(0);
      const first = await queue.getJobCounts("completed", "failed");
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await startWorker(url, watchLake, [...queueName, "--until-idle"]).done).toBe(0);
      const units1 = (await queue.getJobs(["completed"])).filter((job) => job.name === "score");
      expect(units1.length).toBe(units);
      expect(first.failed + (await queue.getJobCounts("failed")).failed).toBe(0);
      const prompts = await rows(["--lake", watchLake], "prompts");
      expect(prompts.length).toBe(units);

      // A worker without --until-idle stops on SIGTERM, and unwatching removes the scheduler.
      const running = startWorker(url, watchLake, queueName);
      // SIGTERM once it is connected (its handler is installed before it connects), however long
      // it takes to load
      await expect
        .poll(async () => (await queue.getWorkers()).length, { timeout: 60_000, interval: 100 })
        .toBeGreaterThan(0);
      running.child.kill("SIGTERM");
      expect(await running.done).toBe(0);
      const removed = await runPathlab(["queue", "unwatch", "--redis", url, ...queueName]);
      expect(removed.stdout).toMatch(/^unwatched: watch\.score\.crypto-24h\.BTC\.[0-9a-f]{8}\n$/);
      const status = await runPathlab(["queue", "status", "--redis", url, ...queueName, "--json"]);
      expect(JSON.parse(status.stdout).watches).toEqual([]);
    } finally {
      await queue.close();
    }
  }, 120_000);
});
