/**
 * The end-to-end suite of `npm run bench` (filter `e2e`): the commands users run, as whole
 * processes of the built CLI (`dist/`, as `npm start` runs it) against the embedded sandbox at a
 * fixed seed and clock. Per command: wall time (measured here), CPU time of every thread and peak
 * resident memory (measured in the command's own process by `measureProcess.mjs`), medians of
 * E2E_REPEATS runs (3), each on a fresh database. E2E_ROOT runs another checkout's `dist/` instead
 * (built there), with the same measurements.
 */

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measuredRun, median } from "./measuredRun.ts";

const REPEATS = Number(process.env.E2E_REPEATS ?? 3);
/** The checkout whose built CLI runs: this one, or E2E_ROOT (another checkout, for a before/after). */
const ROOT = process.env.E2E_ROOT ?? join(import.meta.dirname, "..");
/** The built CLI that runs (`runOnce`). */
export const CLI = join(ROOT, "dist", "cli", "main.js");
const NOW = "2026-11-20T12:00:00Z";

/** One command of the suite and the targets for it. */
interface EndToEndCase {
  readonly name: string;
  /**
   * The command's arguments; `RECORDING` stands for the folder of the recorded day of scoring,
   * `SYNC_RECORDING` for that of `npm start`'s sync.
   */
  readonly args: readonly string[];
  readonly targetWallMs?: number;
  readonly targetPeakBytes?: number;
}

/** A command's medians. */
export interface EndToEndRow {
  readonly name: string;
  readonly command: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssBytes: number;
  readonly repeats: number;
  readonly targetWallMs?: number;
  readonly targetPeakBytes?: number;
}

/** The range and selection of the day of scoring (the recording's and its replays', and the units suite's). */
export const DAY_OF_SCORING = [
  "--competition",
  "crypto-24h",
  "--miners",
  "top:10",
  "--from",
  "2026-11-18T12:00:00Z",
  "--to",
  "2026-11-19T12:00:00Z",
];

const CASES: readonly EndToEndCase[] = [
  {
    name: "npm start (sync, every unit)",
    args: ["sync", "--now", NOW],
    targetWallMs: 12_000,
    targetPeakBytes: 800 * 2 ** 20,
  },
  {
    name: "sync of one unit (BTC 24h)",
    args: ["sync", "--assets", "BTC", "--horizons", "24h", "--now", NOW],
    targetWallMs: 2_500,
  },
  {
    name: "score a day of crypto-24h, top 10",
    args: ["score", ...DAY_OF_SCORING, "--now", NOW],
    targetWallMs: 10_000,
  },
  // The same day of scoring replayed from a recording (a server that only sends stored bytes, in
  // the command's own process): what the client side costs, on the main thread or the unit pool.
  {
    name: "the day of scoring, replayed, --threads 0",
    args: ["score", "--replay", "RECORDING", ...DAY_OF_SCORING, "--threads", "0"],
  },
  {
    name: "the day of scoring, replayed, --threads 2",
    args: ["score", "--replay", "RECORDING", ...DAY_OF_SCORING, "--threads", "2"],
  },
  // npm start's sync replayed the same way: its units on the main thread, or fetched, checked
  // and recomputed on a pool thread while the main thread stores (the replay is served from a
  // thread of its own).
  {
    name: "npm start's sync, replayed, --threads 0",
    args: ["sync", "--replay", "SYNC_RECORDING", "--threads", "0"],
  },
  {
    name: "npm start's sync, replayed, --threads 1",
    args: ["sync", "--replay", "SYNC_RECORDING", "--threads", "1"],
  },
];

/**
 * Runs the built CLI once with `args` in a temp folder of its own (removed after), on a fresh
 * database there, or on `database` when given (which the caller keeps), with `nodeOptions` in its
 * NODE_OPTIONS (none by default); its wall time, CPU time of every thread and peak memory.
 * @example const { wallMs, cpuMs } = await runOnce(["sync", "--replay", recording]);
 */
export async function runOnce(args: readonly string[], database?: string, nodeOptions = "") {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-e2e-"));
  const usageFile = join(directory, "usage.json");
  try {
    const started = performance.now();
    const withDatabase = [...args, "--db", database ?? join(directory, "e2e.duckdb")];
    const usage = await measuredRun(CLI, withDatabase, directory, usageFile, nodeOptions);
    const wallMs = performance.now() - started;
    const { cpuMs, systemCpuMs, minorPageFaults, peakRssBytes } = usage;
    return { wallMs, cpuMs, systemCpuMs, minorPageFaults, peakRssBytes };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Runs every case E2E_REPEATS times and returns the medians; throws when the CLI is not built.
 * @example const rows = await runEndToEnd();
 */
export async function runEndToEnd(): Promise<EndToEndRow[]> {
  if (!existsSync(CLI)) throw new Error(`bench e2e needs the built CLI (${CLI}): npm run build`);
  const rows: EndToEndRow[] = [];
  const recordings = {
    RECORDING: mkdtempSync(join(tmpdir(), "pathlab-e2e-recording-")),
    SYNC_RECORDING: mkdtempSync(join(tmpdir(), "pathlab-e2e-sync-recording-")),
  };
  try {
    process.stderr.write("  e2e: recording the day of scoring and npm start's sync\n");
    await runOnce(["score", ...DAY_OF_SCORING, "--now", NOW, "--record", recordings.RECORDING]);
    await runOnce(["sync", "--now", NOW, "--record", recordings.SYNC_RECORDING]);
    for (const item of CASES) rows.push(await runCase(item, recordings));
  } finally {
    for (const folder of Object.values(recordings))
      rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

/** Runs `item` E2E_REPEATS times; its medians. */
async function runCase(
  item: EndToEndCase,
  recordings: Readonly<Record<string, string>>,
): Promise<EndToEndRow> {
  const args = item.args.map((arg) => recordings[arg] ?? arg);
  const runs = [];
  for (let run = 0; run < REPEATS; run++) {
    process.stderr.write(`  e2e: ${item.name} (run ${run + 1}/${REPEATS})\n`);
    runs.push(await runOnce(args));
  }
  return {
    name: item.name,
    command: `pathlab ${item.args.join(" ")}`,
    wallMs: median(runs.map((run) => run.wallMs)),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    peakRssBytes: median(runs.map((run) => run.peakRssBytes)),
    repeats: REPEATS,
    ...(item.targetWallMs !== undefined && { targetWallMs: item.targetWallMs }),
    ...(item.targetPeakBytes !== undefined && { targetPeakBytes: item.targetPeakBytes }),
  };
}

/**
 * The rows as a table: wall, CPU, peak memory and the targets met or missed.
 * @example printEndToEnd(await runEndToEnd());
 */
export function printEndToEnd(rows: readonly EndToEndRow[]): void {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const mebibytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
  console.log("\nend to end (whole processes, medians)");
  for (const row of rows) {
    const targets = [
      row.targetWallMs === undefined
        ? ""
        : `wall ≤ ${seconds(row.targetWallMs)} ${row.wallMs <= row.targetWallMs ? "met" : "MISSED"}`,
      row.targetPeakBytes === undefined
        ? ""
        : `peak ≤ ${mebibytes(row.targetPeakBytes)} ${row.peakRssBytes <= row.targetPeakBytes ? "met" : "MISSED"}`,
    ].filter((part) => part !== "");
    console.log(
      `  ${row.name.padEnd(36)} wall ${seconds(row.wallMs).padStart(7)}  CPU ${seconds(row.cpuMs).padStart(7)}  ` +
        `peak ${mebibytes(row.peakRssBytes).padStart(8)}  ${targets.join(", ")}`,
    );
  }
}
