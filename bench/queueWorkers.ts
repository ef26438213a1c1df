/**
 * The units suite of `npm run bench` (filter `units`): the day of crypto-24h scoring (top 10, the
 * end-to-end suite's) as units per second, by `pathlab score` with 1 and 2 pool threads and by 1–3
 * `pathlab worker` processes on a real `redis-server` (Debian's; the suite says so and is skipped
 * without it); and three hours of sync units (BTC and ETH, both horizons), by one
 * `pathlab sync --from --to --lake` with 0–2 pool threads and by 1–3 workers. Each worker runs its units against its own
 * embedded sandbox at the same seed and clock, as `enqueue` without `--base-url` asks. Per case:
 * wall time from the first process started to the last one ended, CPU time of every process and
 * the largest peak resident memory of one process (`measureProcess.mjs`). One run per case
 * (QUEUE_REPEATS for more; medians).
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DAY_OF_SCORING } from "./endToEnd.ts";
import { measuredRun, median } from "./measuredRun.ts";

const REPEATS = Number(process.env.QUEUE_REPEATS ?? 1);
const CLI = join(import.meta.dirname, "..", "dist", "cli", "main.js");
const DAY = ["--now", "2026-11-20T12:00:00Z", ...DAY_OF_SCORING];
/** Three hours of forecasts of two assets at both horizons: the sync units' case. */
const SYNC_HOURS = [
  "--now",
  "2026-11-21T10:00:00Z",
  "--from",
  "2026-11-21T07:00:01Z",
  "--to",
  "2026-11-21T10:00:00Z",
  "--assets",
  "BTC,ETH",
];

/** A case's medians. */
export interface UnitsRow {
  readonly name: string;
  readonly units: number;
  readonly wallMs: number;
  readonly unitsPerSecond: number;
  readonly cpuMs: number;
  /** The largest peak resident memory of one process (a worker, or the `score` process). */
  readonly peakRssBytes: number;
}

/** Runs the CLI in `directory`, measured (see `measuredRun`). */
const cli = (args: readonly string[], directory: string, usageFile: string) =>
  measuredRun(CLI, args, directory, usageFile);

async function startRedis(directory: string) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--dir", directory],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (data: Buffer) => {
      output += String(data);
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`redis-server exited (${code})`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

/** One run of `score --threads N` on a fresh database. */
async function scoreOnce(threads: number) {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-units-"));
  try {
    const started = performance.now();
    const args = ["score", ...DAY, "--threads", String(threads), "--db", "day.duckdb"];
    const run = await cli(args, directory, join(directory, "usage.json"));
    const units = Number(/(\d+) prompts scored/.exec(run.stdout)?.[1] ?? Number.NaN);
    return { units, wallMs: performance.now() - started, cpuMs: run.cpuMs, peak: run.peakRssBytes };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** One run of `sync --threads N` over the three hours, into a fresh lake. */
async function syncOnce(threads: number) {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-units-"));
  try {
    const started = performance.now();
    const args = ["sync", ...SYNC_HOURS, "--threads", String(threads), "--lake", "lake"];
    const run = await cli(args, directory, join(directory, "usage.json"));
    const [, stored, units] = /(\d+)\/(\d+) stored/.exec(run.stdout) ?? [];
    if (stored !== units) throw new Error(`sync stored ${stored} of ${units} units`);
    return {
      units: Number(units),
      wallMs: performance.now() - started,
      cpuMs: run.cpuMs,
      peak: run.peakRssBytes,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * One run of `workers` worker processes over the units `enqueue` (`score` or `sync` and its
 * selection) puts on a fresh Redis.
 */
async function workersOnce(workers: number, enqueue: readonly string[]) {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-units-"));
  const redis = await startRedis(directory);
  try {
    const queue = ["--redis", redis.url];
    const enqueued = await cli(
      ["enqueue", ...enqueue, ...queue],
      directory,
      join(directory, "e.json"),
    );
    const units = Number(/enqueued: (\d+) of/.exec(enqueued.stdout)?.[1]);
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: workers }, (_, index) =>
        cli(
          ["worker", ...queue, "--lake", "lake", "--until-idle"],
          directory,
          join(directory, `worker-${index}.json`),
        ),
      ),
    );
    const stored = runs.reduce(
      (sum, run) => sum + Number(/(\d+) units stored/.exec(run.stdout)?.[1]),
      0,
    );
    if (stored !== units) throw new Error(`${workers} workers stored ${stored} of ${units} units`);
    return {
      units,
      wallMs: performance.now() - started,
      cpuMs: runs.reduce((sum, run) => sum + run.cpuMs, 0),
      peak: Math.max(...runs.map((run) => run.peakRssBytes)),
    };
  } finally {
    redis.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function runCase(name: string, once: () => ReturnType<typeof scoreOnce>): Promise<UnitsRow> {
  const runs = [];
  for (let run = 0; run < REPEATS; run++) {
    process.stderr.write(`  units: ${name} (run ${run + 1}/${REPEATS})\n`);
    runs.push(await once());
  }
  const wallMs = median(runs.map((run) => run.wallMs));
  return {
    name,
    units: runs[0].units,
    wallMs,
    unitsPerSecond: runs[0].units / (wallMs / 1000),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    peakRssBytes: median(runs.map((run) => run.peak)),
  };
}

/**
 * Runs every case; without redis-server, only the single-process ones (and says so).
 * @example printUnits(await runUnits());
 */
export async function runUnits(): Promise<UnitsRow[]> {
  const rows = [
    await runCase("score --threads 1", () => scoreOnce(1)),
    await runCase("score --threads 2", () => scoreOnce(2)),
    await runCase("sync --from --to --lake --threads 0", () => syncOnce(0)),
    await runCase("sync --from --to --lake --threads 1", () => syncOnce(1)),
    await runCase("sync --from --to --lake --threads 2", () => syncOnce(2)),
  ];
  try {
    await startRedis(tmpdir()).then((redis) => redis.stop());
  } catch {
    process.stderr.write("  units: no redis-server: the queue cases are skipped\n");
    return rows;
  }
  const workerCases = async (kind: string, enqueue: readonly string[]) => {
    for (const workers of [1, 2, 3]) {
      const name = `${kind}: ${workers} queue worker${workers > 1 ? "s" : ""}`;
      rows.push(await runCase(name, () => workersOnce(workers, enqueue)));
    }
  };
  await workerCases("score", ["score", ...DAY]);
  await workerCases("sync", ["sync", ...SYNC_HOURS]);
  return rows;
}

/**
 * The rows as a table.
 * @example printUnits(rows);
 */
export function printUnits(rows: readonly UnitsRow[]): void {
  console.log("\nunits: a day of scoring, three hours of syncing (whole processes)");
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(24)} ${String(row.units).padStart(3)} units  wall ${(row.wallMs / 1000).toFixed(1).padStart(6)} s  ` +
        `${row.unitsPerSecond.toFixed(2).padStart(5)} units/s  CPU ${(row.cpuMs / 1000).toFixed(1).padStart(6)} s  ` +
        `peak/process ${Math.round(row.peakRssBytes / 2 ** 20)} MiB`,
    );
  }
}
