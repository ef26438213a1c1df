/**
 * The bench harness: seeded data shared by every suite (and written once as raw float64 files for
 * the numpy peers), warm-median timing, and the suite/case shapes that `bench/run.ts` discovers.
 * See bench/README.md for how to add a suite.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transpose } from "../src/core/transpose.ts";
import { createRandom } from "../src/reference/random.ts";

/** Shape of the shared data: 10 miners × 1,000 paths × 289 points (24h at 5 minutes). */
export const MINERS = 10;
export const PATHS_PER_MINER = 1000;
export const POINTS = 289;
export const TIME_INCREMENT = 300;

/**
 * The data every suite gets. Arrays are shared: a case must not write into them (copy first).
 * Each array is also in `directory` as `<name>.f64` (little-endian float64) for the peers.
 */
export interface BenchData {
  /** Where the raw files are (`pooled.f64`, `miner0.f64`, `stepMajor.f64`, `realized.f64`, `prediction.json`). */
  readonly directory: string;
  /** One miner's paths, path-major: PATHS_PER_MINER × POINTS. */
  readonly miner0: Float64Array;
  /** Each miner's paths, path-major, MINERS arrays of PATHS_PER_MINER × POINTS. */
  readonly miners: readonly Float64Array[];
  /** All miners pooled, path-major: (MINERS·PATHS_PER_MINER) × POINTS. */
  readonly pooled: Float64Array;
  /** `pooled` step-major: POINTS × (MINERS·PATHS_PER_MINER). */
  readonly stepMajor: Float64Array;
  /** A realized path of POINTS prices (same start, a different seed). */
  readonly realized: Float64Array;
  /** miner 0 as the JSON body of `/v2/prediction/latest` (prices to 8 significant digits). */
  readonly predictionJson: string;
}

/**
 * One timed computation. `pathlab` is what is measured; `naive` is a plain JS baseline of the same
 * computation (idiomatic, unoptimized: arrays, sort with a comparator); `peer` names a numpy
 * script `bench/peers/<script>.py` and the case it implements there. Each function returns a
 * value (kept alive so the work cannot be optimized away), or a promise of one.
 */
export interface BenchCase {
  /** What is computed, e.g. `stepQuantiles (9 percentiles)`. */
  readonly name: string;
  /** Size label, e.g. `10,000 × 289`. */
  readonly size: string;
  readonly pathlab: () => unknown;
  readonly naive?: () => unknown;
  readonly peer?: { readonly script: string; readonly case: string };
  /** A target from the issue, in ms, shown beside the result. */
  readonly targetMs?: number;
  /** One line of context for the table (e.g. "variant, not used"). */
  readonly note?: string;
}

/** A suite: a name and its cases, built from the shared data. Export it as `suite`. */
export interface BenchSuite {
  readonly name: string;
  readonly cases: (data: BenchData) => BenchCase[];
}

/** Declares a suite (identity; gives the object its type). */
export function defineSuite(suite: BenchSuite): BenchSuite {
  return suite;
}

/** Warm timing of one function: median and minimum over `repeats` runs after `warmup` runs. */
export interface Timing {
  readonly medianMs: number;
  readonly minMs: number;
  readonly repeats: number;
}

let sink: unknown;

/** Warm-up lasts at least this long (and `warmup` runs), so that small cases are measured JIT-compiled. */
export const WARMUP_MS = 200;

/**
 * Runs `fn` at least `warmup` times and for at least {@link WARMUP_MS} (at most 5,000 runs), then
 * times `repeats` runs with performance.now(). The numpy peers warm up by the same rule. A run
 * that returns a promise (work on worker threads) lasts until it settles.
 */
export async function timeWarm(
  fn: () => unknown,
  repeats: number,
  warmup: number,
): Promise<Timing> {
  const warmStart = performance.now();
  for (
    let run = 0;
    run < 5000 && (run < warmup || performance.now() - warmStart < WARMUP_MS);
    run++
  ) {
    sink = fn();
    if (sink instanceof Promise) sink = await sink;
  }
  const times: number[] = [];
  for (let run = 0; run < repeats; run++) {
    const start = performance.now();
    sink = fn();
    if (sink instanceof Promise) sink = await sink;
    times.push(performance.now() - start);
  }
  if (sink === Symbol.for("never")) console.log(sink);
  times.sort((a, b) => a - b);
  return { medianMs: median(times), minMs: times[0], repeats };
}

function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Makes the shared data (seeded GBM, 60 % annualized volatility, 8 significant digits as miners
 * round) and writes it to a fresh temp folder.
 */
export function makeBenchData(seed = 20260221): BenchData {
  const random = createRandom(seed);
  const volatilityPerStep = 0.6 * Math.sqrt(5 / 525600);
  const simulate = (paths: number): Float64Array => {
    const values = new Float64Array(paths * POINTS);
    for (let path = 0; path < paths; path++) {
      let price = 68000;
      for (let point = 0; point < POINTS; point++) {
        values[path * POINTS + point] = Number(price.toPrecision(8));
        price *= Math.exp(volatilityPerStep * random.normal() - volatilityPerStep ** 2 / 2);
      }
    }
    return values;
  };
  const miners = Array.from({ length: MINERS }, () => simulate(PATHS_PER_MINER));
  const pooled = new Float64Array(MINERS * PATHS_PER_MINER * POINTS);
  miners.forEach((miner, index) => pooled.set(miner, index * miner.length));
  const stepMajor = transpose(pooled, MINERS * PATHS_PER_MINER, POINTS);
  const realized = simulate(1);
  const predictions = Array.from({ length: PATHS_PER_MINER }, (_, path) =>
    Array.from(miners[0].subarray(path * POINTS, (path + 1) * POINTS)),
  );
  const predictionJson = JSON.stringify([{ miner_uid: 17, start_time: 1772063100, predictions }]);
  const directory = mkdtempSync(join(tmpdir(), "pathlab-bench-"));
  const write = (name: string, values: Float64Array) =>
    writeFileSync(
      join(directory, `${name}.f64`),
      new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    );
  write("pooled", pooled);
  write("miner0", miners[0]);
  write("stepMajor", stepMajor);
  write("realized", realized);
  writeFileSync(join(directory, "prediction.json"), predictionJson);
  writeFileSync(
    join(directory, "shape.json"),
    JSON.stringify({ miners: MINERS, pathsPerMiner: PATHS_PER_MINER, points: POINTS }),
  );
  return { directory, miner0: miners[0], miners, pooled, stepMajor, realized, predictionJson };
}

/**
 * The data {@link makeBenchData} wrote to `directory`, read back (the runner makes the data once
 * and runs each suite in its own process on these files).
 */
export function readBenchData(directory: string): BenchData {
  const read = (name: string): Float64Array => {
    const bytes = readFileSync(join(directory, `${name}.f64`));
    const values = new Float64Array(bytes.byteLength / 8);
    new Uint8Array(values.buffer).set(bytes);
    return values;
  };
  const pooled = read("pooled");
  const minerLength = PATHS_PER_MINER * POINTS;
  const miners = Array.from({ length: MINERS }, (_, index) =>
    pooled.slice(index * minerLength, (index + 1) * minerLength),
  );
  return {
    directory,
    miner0: miners[0],
    miners,
    pooled,
    stepMajor: read("stepMajor"),
    realized: read("realized"),
    predictionJson: readFileSync(join(directory, "prediction.json"), "utf8"),
  };
}

/** One peer timing as printed by a peer script. */
export interface PeerTiming extends Timing {
  readonly case: string;
}

/**
 * Runs `bench/peers/<script>.py` once for all its cases; it prints a JSON array of
 * {case, medianMs, minMs, repeats}. Returns an empty list (and says why) when python3/numpy fail.
 */
export function runPeer(
  script: string,
  cases: readonly string[],
  directory: string,
  repeats: number,
  warmup: number,
): PeerTiming[] {
  const path = join(import.meta.dirname, "peers", `${script}.py`);
  try {
    const stdout = execFileSync(
      "python3",
      [
        path,
        "--data",
        directory,
        "--cases",
        cases.join(","),
        "--repeats",
        String(repeats),
        "--warmup",
        String(warmup),
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 20 },
    );
    return JSON.parse(stdout) as PeerTiming[];
  } catch (error) {
    console.warn(
      `peer ${script}.py failed, numpy column left empty: ${(error as Error).message.split("\n")[0]}`,
    );
    return [];
  }
}
