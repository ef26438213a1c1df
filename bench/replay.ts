/**
 * The replay suite of `npm run bench` (filter `replay`): what the client itself costs. `npm
 * start`'s sync (every unit, the embedded sandbox at a fixed clock) is recorded once with
 * `--record`, then replayed REPLAY_REPEATS times (3) with `--replay` by the built CLI, each on a
 * fresh database: wall time, CPU time of every thread (the system's share apart too), minor page
 * faults and peak resident memory of the replaying process (`measureProcess.mjs`). The floor is
 * the CPU time of `JSON.parse` of the same bodies, in a fresh process of its own in the same run
 * (`jsonFloor.mjs`, the median of REPLAY_REPEATS). Beside them, two steps of the sync timed alone
 * (`parseAndStore.mjs`, in a fresh process, the median of REPLAY_REPEATS): the path-set bodies
 * read as the sync reads them, and the stored path sets written again, without recomputing,
 * cross-checking or HTTP; with what that step read and wrote (`ParseAndStoreCounts`). Each run
 * also replays once more with a small young generation (`NODE_OPTIONS=--max-semi-space-size=4`,
 * {@link SMALL_YOUNG_GENERATION}), the setting docs/performance.md offers for a lower peak. The
 * targets are the client-speed issue's: CPU ≤ 2 × the floor, wall ≤ 8 s, peak ≤ 600 MB.
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

/**
 * Node's option for a young generation of 4 MB semi-spaces in every thread (16 MB by default):
 * the job's thread then holds less memory between its collections.
 */
export const SMALL_YOUNG_GENERATION = "--max-semi-space-size=4";

/** Medians of the replays with one setting, and each run's peak. */
export interface ReplayRuns {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssBytes: number;
  /** Each run's peak, in run order. */
  readonly runsPeakBytes: readonly number[];
}

/** The replayed sync's medians beside the floor. */
export interface ReplayResult {
  readonly command: string;
  readonly bodies: number;
  readonly bodyBytes: number;
  /** CPU time of `JSON.parse` of the bodies (`jsonFloor.mjs`). */
  readonly floorCpuMs: number;
  /** Its wall time. */
  readonly floorWallMs: number;
  /** CPU time of the path-set bodies read as the sync reads them, alone (`parseAndStore.mjs`). */
  readonly parseCpuMs: number;
  /** CPU time of writing the stored path sets alone, with a job's DuckDB settings. */
  readonly storeCpuMs: number;
  /** The median of the runs' sums of the two. */
  readonly parseAndStoreCpuMs: number;
  /** Why the two were not timed, when they were not (a build before their modules). */
  readonly parseAndStoreSkipped?: string;
  /** What the first timed run of the two read and wrote, when they were timed. */
  readonly parseAndStoreCounts?: ParseAndStoreCounts;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly systemCpuMs: number;
  readonly minorPageFaults: number;
  readonly peakRssBytes: number;
  readonly repeats: number;
  /** Each run's peak, in run order. */
  readonly runsPeakBytes: readonly number[];
  /** The replays with {@link SMALL_YOUNG_GENERATION} in NODE_OPTIONS, one beside each run. */
  readonly smallYoungGeneration: ReplayRuns;
  /** Each run's CPU time of the floor, of parse and store, and of the replay, in run order. */
  readonly runsCpuMs: {
    readonly floor: readonly number[];
    readonly parseAndStore: readonly number[];
    readonly replay: readonly number[];
  };
}

/** What `parseAndStore.mjs` read and wrote. */
export interface ParseAndStoreCounts {
  /** Path-set bodies read. */
  readonly bodies: number;
  /** Their bytes. */
  readonly bytes: number;
  /** Bodies the byte parser did not take (read by JSON.parse, as the sync reads them). */
  readonly refused: number;
  /** Of those, bodies that JSON.parse or the record checks refused (the sync's request fails). */
  readonly undecodable: number;
  /** Sets kept (one per body at most, as the sync keeps them). */
  readonly pathSets: number;
  /** Later copies of a set already read, skipped. */
  readonly duplicates: number;
  /** Sets written, as the reference database stored them. */
  readonly storedSets: number;
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
    const runs: Awaited<ReturnType<typeof runOnce>>[] = [];
    const smallRuns: typeof runs = [];
    const floors = [];
    const steps: ReturnType<typeof parseAndStore>[] = [];
    for (let run = 0; run < REPEATS; run++) {
      process.stderr.write(
        `  replay: the replays, as it is and with ${SMALL_YOUNG_GENERATION}, and the floor (run ${run + 1}/${REPEATS})\n`,
      );
      // the two settings take turns going first
      const replay = (nodeOptions: string) =>
        runOnce(["sync", "--replay", recording], undefined, nodeOptions);
      if (run % 2 === 0) {
        runs.push(await replay(""));
        smallRuns.push(await replay(SMALL_YOUNG_GENERATION));
      } else {
        smallRuns.push(await replay(SMALL_YOUNG_GENERATION));
        runs.push(await replay(""));
      }
      const floor = execFileSync(
        process.execPath,
        [join(import.meta.dirname, "jsonFloor.mjs"), recording],
        { encoding: "utf8", maxBuffer: 2 ** 20 },
      );
      floors.push(
        JSON.parse(floor) as { bodies: number; bytes: number; parseMs: number; parseCpuMs: number },
      );
      const written = join(directory, `steps-${run}.duckdb`);
      steps.push(parseAndStore(recording, recorded, written));
      for (const file of [written, `${written}.wal`]) rmSync(file, { force: true });
    }
    const timed = steps.filter((step) => step.skipped === undefined);
    const ofSteps = (figure: (step: ReturnType<typeof parseAndStore>) => number) =>
      timed.length > 0 ? median(timed.map(figure)) : Number.NaN;
    const ofRuns = (figure: (run: (typeof runs)[number]) => number) => median(runs.map(figure));
    return {
      command: "pathlab sync --replay <npm start's sync, recorded>",
      bodies: floors[0].bodies,
      bodyBytes: floors[0].bytes,
      floorCpuMs: median(floors.map((floor) => floor.parseCpuMs)),
      floorWallMs: median(floors.map((floor) => floor.parseMs)),
      parseCpuMs: ofSteps((step) => step.parseCpuMs),
      storeCpuMs: ofSteps((step) => step.storeCpuMs),
      parseAndStoreCpuMs: ofSteps((step) => step.parseCpuMs + step.storeCpuMs),
      parseAndStoreSkipped: steps.find((step) => step.skipped !== undefined)?.skipped,
      ...(timed.length > 0 && {
        parseAndStoreCounts: {
          bodies: timed[0].bodies,
          bytes: timed[0].bytes,
          refused: timed[0].refused,
          undecodable: timed[0].undecodable,
          pathSets: timed[0].pathSets,
          duplicates: timed[0].duplicates,
          storedSets: timed[0].storedSets,
        },
      }),
      wallMs: ofRuns((run) => run.wallMs),
      cpuMs: ofRuns((run) => run.cpuMs),
      systemCpuMs: ofRuns((run) => run.systemCpuMs),
      minorPageFaults: ofRuns((run) => run.minorPageFaults),
      peakRssBytes: ofRuns((run) => run.peakRssBytes),
      repeats: REPEATS,
      runsPeakBytes: runs.map((run) => run.peakRssBytes),
      smallYoungGeneration: {
        wallMs: median(smallRuns.map((run) => run.wallMs)),
        cpuMs: median(smallRuns.map((run) => run.cpuMs)),
        peakRssBytes: median(smallRuns.map((run) => run.peakRssBytes)),
        runsPeakBytes: smallRuns.map((run) => run.peakRssBytes),
      },
      runsCpuMs: {
        floor: floors.map((floor) => floor.parseCpuMs),
        parseAndStore: timed.map((step) => step.parseCpuMs + step.storeCpuMs),
        replay: runs.map((run) => run.cpuMs),
      },
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * One run of `parseAndStore.mjs` with the built CLI's modules, into a new database `scratch`; its
 * `skipped` says why it timed nothing (a build before the modules it uses).
 */
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
  return JSON.parse(output) as ParseAndStoreCounts & {
    parseCpuMs: number;
    storeCpuMs: number;
    skipped?: string;
  };
}

/**
 * The result as lines: the floor, parsing and storing alone, the replay, their CPU time against
 * the floor's and the targets met or missed.
 * @example printReplay(await runReplay());
 */
export function printReplay(result: ReplayResult): void {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const spread = (runs: readonly number[]) =>
    `runs ${(Math.min(...runs) / 1000).toFixed(1)}–${seconds(Math.max(...runs))}`;
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  const megabytes = (bytes: number) => Math.round(bytes / 10 ** 6);
  const peaks = (runs: readonly number[]) =>
    `runs ${megabytes(Math.min(...runs))}–${megabytes(Math.max(...runs))} MB`;
  const ratio = result.cpuMs / result.floorCpuMs;
  console.log(`\nreplay (${result.command}, medians of ${result.repeats})`);
  console.log(
    `  bodies ${result.bodies}, ${Math.round(result.bodyBytes / 10 ** 6)} MB; JSON.parse of them: ${seconds(result.floorCpuMs)} CPU (the floor; ${spread(result.runsCpuMs.floor)}; wall ${seconds(result.floorWallMs)})`,
  );
  if (result.parseAndStoreSkipped !== undefined) {
    console.log(`  parse and store alone: not timed (${result.parseAndStoreSkipped})`);
  } else {
    console.log(
      `  parse and store alone: ${seconds(result.parseAndStoreCpuMs)} CPU (${spread(result.runsCpuMs.parseAndStore)}) = ${(result.parseAndStoreCpuMs / result.floorCpuMs).toFixed(1)} × the floor ` +
        `(the path-set bodies read as the sync reads them ${seconds(result.parseCpuMs)}, the stored path sets written ${seconds(result.storeCpuMs)})`,
    );
  }
  const counts = result.parseAndStoreCounts;
  if (counts !== undefined) {
    console.log(
      `    read ${counts.bodies} path-set bodies, ${Math.round(counts.bytes / 10 ** 6)} MB (${counts.refused} not taken by the byte parser, ${counts.undecodable} of them undecodable): ` +
        `${counts.pathSets} sets kept, ${counts.duplicates} later copies skipped, ${counts.storedSets} written`,
    );
  }
  console.log(
    `  replay: wall ${seconds(result.wallMs)} (≤ ${seconds(TARGET_WALL_MS)} ${verdict(result.wallMs <= TARGET_WALL_MS)}), ` +
      `CPU ${seconds(result.cpuMs)} (${spread(result.runsCpuMs.replay)}) = ${ratio.toFixed(1)} × the floor (≤ ${TARGET_CPU_RATIO} × ${verdict(ratio <= TARGET_CPU_RATIO)}; ` +
      `system ${seconds(result.systemCpuMs)}, ${Math.round(result.minorPageFaults / 1000)}k minor page faults), ` +
      `peak ${megabytes(result.peakRssBytes)} MB (${peaks(result.runsPeakBytes)}; ≤ ${megabytes(TARGET_PEAK_BYTES)} MB ${verdict(result.peakRssBytes <= TARGET_PEAK_BYTES)})`,
  );
  const small = result.smallYoungGeneration;
  console.log(
    `  replay with NODE_OPTIONS=${SMALL_YOUNG_GENERATION}: wall ${seconds(small.wallMs)}, CPU ${seconds(small.cpuMs)} = ${(small.cpuMs / result.floorCpuMs).toFixed(1)} × the floor, ` +
      `peak ${megabytes(small.peakRssBytes)} MB (${peaks(small.runsPeakBytes)}; ≤ ${megabytes(TARGET_PEAK_BYTES)} MB ${verdict(small.peakRssBytes <= TARGET_PEAK_BYTES)})`,
  );
}
