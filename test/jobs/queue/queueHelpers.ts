/**
 * What the queue tests share: a real `redis-server` on a free loopback port (or the reason there
 * is none), worker processes of the built CLI, and a table's rows as lines.
 */

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { hostname } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { runPathlab } from "../../cli/runPathlab.ts";
import { freePort } from "../../freePort.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
export const hasRedis = spawnSync("redis-server", ["--version"]).status === 0;
export const required = process.env.PATHLAB_REQUIRE_REDIS === "1";
export const reason = hasRedis ? undefined : "no redis-server (apt-get install -y redis-server)";
if (reason !== undefined && !required) console.warn(`queue workers: skipped: ${reason}`);

export const NOW = "2026-11-20T12:00:00Z";
export const RANGE = [
  "--now",
  NOW,
  "--from",
  "2026-11-19T00:00:00Z",
  "--to",
  "2026-11-19T12:00:00Z",
  "--competition",
  "crypto-24h",
  "--assets",
  "BTC",
  "--miners",
  "top:5",
];
/** The embedded sandbox's small world (`SMALL_WORLD`), for the commands that start it. */
export const SMALL_SANDBOX = ["--sandbox-miners", String(SMALL_WORLD.miners)];
export const TABLES = [
  "prompts",
  "realized_prices",
  "service_scores",
  "miner_scores",
  "calibration",
];

/** Starts redis-server without persistence; resolves once it accepts connections. */
export async function startRedis(
  directory: string,
): Promise<{ url: string; process: ChildProcess }> {
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

export function startWorker(
  url: string,
  lake: string,
  more: readonly string[] = ["--until-idle"],
  env: Readonly<Record<string, string>> = {},
): { child: ChildProcess; done: Promise<number | null> } {
  const main = join(repoRoot, "dist/cli/main.js");
  const child = spawn(
    process.execPath,
    [main, "worker", "--redis", url, "--lake", lake, "--lock-seconds", "2", ...more],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } },
  );
  child.stderr!.resume();
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, done };
}

/** One line per row of `table` (the run id left out: a unit belongs to no run), sorted. */
export async function rows(source: string[], table: string): Promise<string[]> {
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

/**
 * A `describe` with a redis-server of its own (started before its tests, killed after) and a temp
 * folder; skipped, with the reason in its title, when there is no redis-server and
 * PATHLAB_REQUIRE_REDIS is not set.
 */
export function describeWithRedis(
  title: string,
  body: (context: { readonly directory: string; readonly url: () => string }) => void,
): void {
  const skip = reason !== undefined && !required;
  describe.skipIf(skip)(`${title}${skip ? ` (skipped: ${reason})` : ""}`, () => {
    const directory = mkdtempSync(join(tmpdir(), "pathlab-queue-"));
    let redis: { url: string; process: ChildProcess } | undefined;
    beforeAll(async () => {
      expect(reason, "set by PATHLAB_REQUIRE_REDIS=1 (CI)").toBeUndefined();
      redis = await startRedis(directory);
    });
    afterAll(() => {
      redis?.process.kill("SIGKILL");
      rmSync(directory, { recursive: true, force: true });
    });
    body({ directory, url: () => redis!.url });
  });
}

/**
 * Kills `victim` with SIGKILL within 150 ms of its taking a unit (the unit is then surely
 * unfinished); resolves to that unit's id. Rejects when it takes none within a minute.
 */
export async function killMidUnit(queue: Queue, victim: ChildProcess): Promise<string> {
  const giveUp = Date.now() + 60_000;
  while (Date.now() < giveUp) {
    const active = await queue.getJobs(["active"]);
    const held = active.find(
      (job) =>
        job.processedBy === `${hostname()}:${victim.pid}` &&
        Date.now() - (job.processedOn ?? 0) < 150,
    );
    if (held !== undefined) {
      victim.kill("SIGKILL");
      return String(held.id);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`worker ${victim.pid} took no unit within a minute`);
}

/**
 * Expects every planned unit done: none waiting, running or failed, and the unit killed mid-way
 * (`killMidUnit`) given back when its lock lapsed and finished by another worker.
 */
export async function expectAllDone(
  queue: Queue,
  planned: number,
  killedUnit: string,
  victim: ChildProcess,
): Promise<void> {
  const counts = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
  expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: planned, failed: 0 });
  const recovered = await queue.getJob(killedUnit);
  expect(await recovered!.getState()).toBe("completed");
  expect(recovered!.stalledCounter).toBeGreaterThanOrEqual(1);
  expect(recovered!.processedBy).not.toBe(`${hostname()}:${victim.pid}`);
}
