/**
 * Many machines, for real: a `redis-server` on a free loopback port, a day of the sandbox's
 * crypto-24h BTC prompts enqueued by `pathlab enqueue score`, three `pathlab worker` processes
 * writing one lake, one of them killed with SIGKILL while it runs a unit. The lake must then hold
 * exactly what a single `pathlab score` process stores for the same range, row for row and value
 * for value, with no duplicate.
 *
 * Needs Debian's redis-server (`.ci/run` installs it). Without it the test is skipped with the
 * reason, unless PATHLAB_REQUIRE_REDIS=1 (CI), which turns the absence into a failure.
 */

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedSandbox } from "../../src/jobs/embeddedSandbox.ts";
import { runPathlab } from "../cli/runPathlab.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const hasRedis = spawnSync("redis-server", ["--version"]).status === 0;
const required = process.env.PATHLAB_REQUIRE_REDIS === "1";
const reason = hasRedis ? undefined : "no redis-server (apt-get install -y redis-server)";
if (reason !== undefined && !required) console.warn(`queue workers: skipped: ${reason}`);

const NOW = "2026-11-20T12:00:00Z";
const RANGE = [
  "--now",
  NOW,
  "--from",
  "2026-11-18T12:00:00Z",
  "--to",
  "2026-11-19T12:00:00Z",
  "--competition",
  "crypto-24h",
  "--assets",
  "BTC",
  "--miners",
  "top:5",
];
const TABLES = ["prompts", "realized_prices", "service_scores", "miner_scores", "calibration"];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts redis-server without persistence; resolves once it accepts connections. */
async function startRedis(directory: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      directory,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (data: Buffer) => {
      output += String(data);
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, process: child };
}

function startWorker(
  url: string,
  lake: string,
  more: readonly string[] = ["--until-idle"],
): { child: ChildProcess; done: Promise<number | null> } {
  const main = join(repoRoot, "dist/cli/main.js");
  const child = spawn(
    process.execPath,
    [main, "worker", "--redis", url, "--lake", lake, "--lock-seconds", "2", ...more],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr!.resume();
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, done };
}

/** One line per row of `table` (the run id left out: a unit belongs to no run), sorted. */
async function rows(source: string[], table: string): Promise<string[]> {
  const result = await runPathlab([
    "query",
    ...source,
    "--ndjson",
    `select * exclude (run_id) from ${table} order by all`,
  ]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout.split("\n").filter((line) => line !== "");
}

describe.skipIf(reason !== undefined && !required)(
  `three workers on a real Redis${reason !== undefined && !required ? ` (skipped: ${reason})` : ""}`,
  () => {
    const directory = mkdtempSync(join(tmpdir(), "pathlab-queue-"));
    const lake = join(directory, "lake");
    const database = join(directory, "single.duckdb");
    let redis: { url: string; process: ChildProcess } | undefined;

    beforeAll(async () => {
      expect(reason, "set by PATHLAB_REQUIRE_REDIS=1 (CI)").toBeUndefined();
      redis = await startRedis(directory);
    });
    afterAll(() => {
      redis?.process.kill("SIGKILL");
      rmSync(directory, { recursive: true, force: true });
    });

    it("a worker killed mid-unit loses nothing: the lake equals a single process's rows", async () => {
      const url = redis!.url;
      const enqueued = await runPathlab(["enqueue", "score", "--redis", url, ...RANGE]);
      expect(enqueued.stderr).toBe("");
      const planned = Number(/enqueued: (\d+) of (\d+) units/.exec(enqueued.stdout)?.[2]);
      expect(planned).toBeGreaterThan(40); // a day of crypto-24h prompts
      // Enqueueing the same range again adds nothing: the job ids are the units' natural keys.
      const again = await runPathlab(["enqueue", "score", "--redis", url, ...RANGE]);
      expect(again.stdout).toContain(`enqueued: 0 of ${planned} units`);

      const workers = [0, 1, 2].map(() => startWorker(url, lake));
      const victim = workers[0].child;
      const queue = new Queue("pathlab", { connection: { url } });
      let killedUnit: string | undefined;
      try {
        // Kill the victim within 150 ms of its taking a unit: the unit is then surely unfinished.
        while (killedUnit === undefined) {
          const active = await queue.getJobs(["active"]);
          const held = active.find(
            (job) =>
              job.processedBy === `${hostname()}:${victim.pid}` &&
              Date.now() - (job.processedOn ?? 0) < 150,
          );
          if (held !== undefined) {
            victim.kill("SIGKILL");
            killedUnit = String(held.id);
          } else await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(await workers[0].done).toBe(null); // killed by the signal
        expect(await workers[1].done).toBe(0);
        expect(await workers[2].done).toBe(0);

        const counts = await queue.getJobCounts(
          "waiting",
          "active",
          "delayed",
          "completed",
          "failed",
        );
        expect(counts).toEqual({
          waiting: 0,
          active: 0,
          delayed: 0,
          completed: planned,
          failed: 0,
        });
        // The killed unit's lock lapsed, it went back to the queue and another worker ran it.
        const recovered = await queue.getJob(killedUnit);
        expect(await recovered!.getState()).toBe("completed");
        expect(recovered!.stalledCounter).toBeGreaterThanOrEqual(1);
        expect(recovered!.processedBy).not.toBe(`${hostname()}:${victim.pid}`);
      } finally {
        for (const { child } of workers) child.kill("SIGKILL");
        await queue.close();
      }

      const single = await runPathlab(["score", ...RANGE, "--db", database]);
      expect(single.code).toBe(0);
      for (const table of TABLES) {
        const fromLake = await rows(["--lake", lake], table);
        const fromSingle = await rows(["--db", database], table);
        expect(fromLake.length, table).toBeGreaterThan(0);
        expect(new Set(fromLake).size, `${table}: no duplicate row`).toBe(fromLake.length);
        expect(fromLake, table).toEqual(fromSingle);
      }
    }, 300_000);

    it("a worker without the service's key fails its units; fixed, `queue retry` runs them again", async () => {
      const url = redis!.url;
      const sandbox = await startEmbeddedSandbox({ seed: 42, now: NOW, apiKey: "the-service-key" });
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
        expect(units).toBeGreaterThan(40);
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
        const status = await runPathlab([
          "queue",
          "status",
          "--redis",
          url,
          ...queueName,
          "--json",
        ]);
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
      const url = redis!.url;
      const queueName = ["--queue", "watch"];
      const selection = [
        "--now",
        NOW,
        "--competition",
        "crypto-24h",
        "--assets",
        "BTC",
        "--miners",
        "top:5",
      ];
      const installed = await runPathlab([
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
      ]);
      expect(installed.stderr).toBe("");
      expect(installed.stdout).toContain(
        "watching: watch.score.crypto-24h.BTC on queue watch every 1 s",
      );
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
        await new Promise((resolve) => setTimeout(resolve, 1500));
        running.child.kill("SIGTERM");
        expect(await running.done).toBe(0);
        const removed = await runPathlab(["queue", "unwatch", "--redis", url, ...queueName]);
        expect(removed.stdout).toBe("unwatched: watch.score.crypto-24h.BTC\n");
        const status = await runPathlab([
          "queue",
          "status",
          "--redis",
          url,
          ...queueName,
          "--json",
        ]);
        expect(JSON.parse(status.stdout).watches).toEqual([]);
      } finally {
        await queue.close();
      }
    }, 120_000);
  },
);
