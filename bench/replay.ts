/**
 * The replay suite of `npm run bench` (filter `replay`): what the client itself costs. `npm
 * start`'s sync (every unit, the embedded sandbox at a fixed clock) is recorded once with
 * `--record`, then replayed REPLAY_REPEATS times (3) with `--replay` by the built CLI, each on a
 * fresh database: wall time, CPU time of every thread and peak resident memory of the replaying
 * process (`measureProcess.mjs`). The floor is `JSON.parse` of the same bodies, in a fresh process
 * of its own in the same run (`jsonFloor.mjs`, the median of REPLAY_REPEATS). Beside them, what
 * no speed-up of the rest can remove (`parseAndStore.mjs`, in a fresh process, the median of
 * REPLAY_REPEATS): the byte parser over every path-set body and the stored path sets written
 * again, without recomputing, cross-checking or HTTP. The targets are the client-speed issue's:
 * CPU ≤ 2 × the floor, wall ≤ 8 s, peak ≤ 600 MB.
 */

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CLI, runOnce } from "./endToEnd.ts";
import { median } from "./measuredRun.ts";

const REPEATS = Number(process.env.REPLAY_REPEATS ?? 3);
const NOW = "2026-11-20T12:00:00Z";
const TARGET_CPU_RATIO = 2;
const TARGET_WALL_MS = 8_000;
const TARGET_PEAK_BYTES = 600 * 10 ** 6;

/** The replayed sync's medians beside the floor. */
export interface ReplayResult {
  readonly command: string;
  readonly bodies: number;
  readonly bodyBytes: number;
  readonly floorParseMs: number;
  /** CPU time of the byte parser over the path-set bodies alone (`parseAndStore.mjs`). */
  readonly parseCpuMs: number;
  /** CPU time of writing the stored path sets alone, on one DuckDB thread. */
  readonly storeCpuMs: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssBytes: number;
  readonly repeats: number;
}

/**
 * Records `npm start`'s sync, replays it REPLAY_REPEATS times and parses its bodies as often;
 * the medians. Throws when the CLI is not built.
 * @example const result = await runReplay();
 */
export async function runReplay(): Promise<ReplayResult> {
  if (!existsSync(CLI)) throw new Error(`bench replay needs the built CLI (${CLI}): npm run build`);
  const directory = mkdtempSync(join(tmpdir(), "pathlab-bench-replay-"));
  const recording = join(directory, "recording");
  try {
    process.stderr.write("  replay: recording npm start's sync\n");
    const recorded = join(directory, "recorded.duckdb");
    await runOnce(["sync", "--now", NOW, "--record", recording], recorded);
    const runs = [];
    const floors = [];
    const bounds = [];
    for (let run = 0; run < REPEATS; run++) {
      process.stderr.write(`  replay: the replay and the floor (run ${run + 1}/${REPEATS})\n`);
      runs.push(await runOnce(["sync", "--replay", recording]));
      const floor = execFileSync(
        process.execPath,
        [join(import.meta.dirname, "jsonFloor.mjs"), recording],
        { encoding: "utf8", maxBuffer: 2 ** 20 },
      );
      floors.push(JSON.parse(floor) as { bodies: number; bytes: number; parseMs: number });
      bounds.push(parseAndStore(recording, recorded, join(directory, `bound-${run}.duckdb`)));
    }
    return {
      command: "pathlab sync --replay <npm start's sync, recorded>",
      bodies: floors[0].bodies,
      bodyBytes: floors[0].bytes,
      floorParseMs: median(floors.map((floor) => floor.parseMs)),
      parseCpuMs: median(bounds.map((bound) => bound.parseCpuMs)),
      storeCpuMs: median(bounds.map((bound) => bound.storeCpuMs)),
      wallMs: median(runs.map((run) => run.wallMs)),
      cpuMs: median(runs.map((run) => run.cpuMs)),
      peakRssBytes: median(runs.map((run) => run.peakRssBytes)),
      repeats: REPEATS,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** One run of `parseAndStore.mjs` with the built CLI's modules, into a fresh `scratch` database. */
function parseAndStore(recording: string, reference: string, scratch: string) {
  const output = execFileSync(
    process.execPath,
    [
      join(import.meta.dirname, "parseAndStore.mjs"),
      dirname(dirname(CLI)),
      recording,
      reference,
      scratch,
    ],
    { encoding: "utf8", maxBuffer: 2 ** 20 },
  );
  return JSON.parse(output) as { parseCpuMs: number; storeCpuMs: number };
}

/**
 * The result as lines: the floor, parsing and storing alone, the replay, their ratios to the floor
 * and the targets met or missed.
 * @example printReplay(await runReplay());
 */
export function printReplay(result: ReplayResult): void {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  const ratio = result.cpuMs / result.floorParseMs;
  console.log(`\nreplay (${result.command}, medians of ${result.repeats})`);
  console.log(
    `  bodies ${result.bodies}, ${Math.round(result.bodyBytes / 10 ** 6)} MB; JSON.parse of them: ${seconds(result.floorParseMs)} (the floor)`,
  );
  const bound = result.parseCpuMs + result.storeCpuMs;
  console.log(
    `  parse and store alone: ${seconds(bound)} CPU = ${(bound / result.floorParseMs).toFixed(1)} × the floor ` +
      `(the byte parser ${seconds(result.parseCpuMs)}, the stored path sets written ${seconds(result.storeCpuMs)})`,
  );
  console.log(
    `  replay: wall ${seconds(result.wallMs)} (≤ ${seconds(TARGET_WALL_MS)} ${verdict(result.wallMs <= TARGET_WALL_MS)}), ` +
      `CPU ${seconds(result.cpuMs)} = ${ratio.toFixed(1)} × the floor (≤ ${TARGET_CPU_RATIO} × ${verdict(ratio <= TARGET_CPU_RATIO)}), ` +
      `peak ${Math.round(result.peakRssBytes / 10 ** 6)} MB (≤ ${TARGET_PEAK_BYTES / 10 ** 6} MB ${verdict(result.peakRssBytes <= TARGET_PEAK_BYTES)})`,
  );
}
