/**
 * Cold rows (`npm run bench -- cold`, and in a whole run): each case of every suite in a fresh
 * Node process of its own, its pathlab function timed on its first 10 calls, with no warm-up. A
 * job calls each kernel a few times per unit, before V8 has optimized it, so the warm medians of
 * the suites overstate what a job sees; these rows show the first call and the median of the first
 * 10. The case's setup (its data, the other cases' closures) is built before the first call, as in
 * the warm suites. A case with a numpy peer has it timed right after its cold process, in a
 * process of its own (warm, numpy's kernels being compiled ahead, with {@link PEER_REPEATS}
 * repeats), so that the two run as close together in time as they can: this machine runs a
 * process at one of two speeds (bench/NOTES.md, "Kernels that left their compiled loop at every
 * call"). BENCH_COLD_ROUNDS (1) repeats the whole set of cold processes; the table then gives each
 * figure's median over the rounds, and the median and range of each round's ratio to numpy.
 * results.json holds a row per case and round.
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readBenchData, runPeer, type BenchCase, type BenchSuite, type Timing } from "./harness.ts";
import { median } from "./measuredRun.ts";

/** Calls timed per case. */
const CALLS = 10;

/** Rounds of cold processes (BENCH_COLD_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 1);

/** Timed runs of a cold row's numpy peer, after its warm-up: fewer than the warm suites'. */
const PEER_REPEATS = 5;

/** One cold row: the first call, and the median of the first {@link CALLS}. */
export interface ColdRow {
  readonly suite: string;
  readonly name: string;
  readonly size: string;
  readonly firstMs: number;
  readonly medianOfFirstMs: number;
  /** The round (1 to BENCH_COLD_ROUNDS). */
  readonly round: number;
  /** numpy's warm timing of the same computation, right after this row's process. */
  readonly numpy?: Timing;
}

/** What a cold child prints: the suite's case count, its row and its case's numpy peer. */
interface ColdChildLine {
  readonly count: number;
  readonly row: Omit<ColdRow, "round" | "numpy">;
  readonly peer?: BenchCase["peer"];
}

let sink: unknown;

/** Child mode: times case `index` of suite `file` cold; prints a {@link ColdChildLine} as JSON. */
export async function runColdCase(file: string, index: number, directory: string): Promise<void> {
  const suitesFolder = join(import.meta.dirname, "suites");
  const { suite } = (await import(pathToFileURL(join(suitesFolder, file)).href)) as {
    suite: BenchSuite;
  };
  const cases = suite.cases(readBenchData(directory));
  const item = cases[index];
  const times: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    const start = performance.now();
    sink = item.pathlab();
    if (sink instanceof Promise) sink = await sink;
    times.push(performance.now() - start);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const line: ColdChildLine = {
    count: cases.length,
    row: {
      suite: suite.name,
      name: item.name,
      size: item.size,
      firstMs: times[0],
      medianOfFirstMs: (sorted[CALLS / 2 - 1] + sorted[CALLS / 2]) / 2,
    },
    ...(item.peer !== undefined && { peer: item.peer }),
  };
  console.log(JSON.stringify(line));
  // suites may hold threads open (ScoringThreads): the row is out, the process is done
  process.exit(0);
}

/** Runs one case in a child process (`bench/suite.mjs --cold`) and reads its line. */
function coldChild(file: string, index: number, directory: string) {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, "suite.mjs"), "--cold", file, String(index), "--data", directory],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  return new Promise<ColdChildLine>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`bench cold ${file} #${index} exited with code ${code}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "{}"));
    });
  });
}

/**
 * Every case of the suite files `files`, cold, one process each, in BENCH_COLD_ROUNDS rounds; a
 * case with a numpy peer has it timed right after its process. Throws unless BENCH_COLD_ROUNDS is
 * a whole number ≥ 1.
 * @param files - suite file names (bench/suites/*.ts).
 * @param directory - the bench data's folder.
 * @param warmup - the warm suites' least warm-up runs, for the numpy peers.
 */
export async function runCold(
  files: readonly string[],
  directory: string,
  warmup: number,
): Promise<ColdRow[]> {
  if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1)) {
    throw new RangeError(
      `BENCH_COLD_ROUNDS must be a whole number ≥ 1, got ${process.env.BENCH_COLD_ROUNDS}`,
    );
  }
  const rows: ColdRow[] = [];
  // a peer script that failed once (no python3 or numpy) is not run again; it said why
  const failed = new Set<string>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const file of files) {
      let count = 1;
      for (let index = 0; index < count; index++) {
        const { row, peer, ...line } = await coldChild(file, index, directory);
        count = line.count;
        let numpy: Timing | undefined;
        if (peer !== undefined && !failed.has(peer.script)) {
          const [timed] = runPeer(peer.script, [peer.case], directory, PEER_REPEATS, warmup);
          if (timed === undefined) failed.add(peer.script);
          else numpy = { medianMs: timed.medianMs, minMs: timed.minMs, repeats: timed.repeats };
        }
        const of = ROUNDS > 1 ? ` (round ${round} of ${ROUNDS})` : "";
        process.stderr.write(`  cold ${row.suite}: ${row.name.trim()}${of}\n`);
        rows.push({ ...row, round, ...(numpy !== undefined && { numpy }) });
      }
    }
  }
  return rows;
}

/**
 * Prints the cold rows beside the same run's warm median: each case's first call, median of its
 * first 10 and numpy, as medians over the rounds, and the ratio numpy / median of the first 10
 * (the median of each round's ratio, and their range when there are several rounds).
 * @param rows - the cold rows.
 * @param warm - the run's warm rows, by suite, name and size.
 */
export function printCold(
  rows: readonly ColdRow[],
  warm: readonly { suite: string; name: string; size: string; pathlab: { medianMs: number } }[],
): void {
  const key = (row: { suite: string; name: string; size: string }) =>
    `${row.suite}\u0000${row.name}\u0000${row.size}`;
  const warmOf = new Map(warm.map((row) => [key(row), row]));
  const cases = new Map<string, ColdRow[]>();
  for (const row of rows) cases.set(key(row), [...(cases.get(key(row)) ?? []), row]);
  const format = (ms: number | undefined) =>
    ms === undefined ? "—" : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
  const rounds = Math.max(...rows.map((row) => row.round));
  const over = rounds > 1 ? `, medians of ${rounds} rounds` : "";
  console.log(
    `\nCold: each case in a fresh process, its first ${CALLS} calls; numpy timed after it (ms${over})`,
  );
  const header = ["suite", "case", "size", "1st call", `median of ${CALLS}`, "warm", "numpy"];
  header.push(rounds > 1 ? "numpy / median (range)" : "numpy / median");
  const lines = [...cases.values()].map((runs) => {
    const [first] = runs;
    const paired = runs.flatMap((row) =>
      row.numpy === undefined ? [] : [{ numpyMs: row.numpy.medianMs, ms: row.medianOfFirstMs }],
    );
    const ratios = paired.map((pair) => pair.numpyMs / pair.ms);
    const range =
      rounds > 1 && ratios.length > 0
        ? ` (${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)})`
        : "";
    // a peer that failed in some rounds: the ratio is of the rounds it ran in
    const some = paired.length < runs.length ? ` [${paired.length} of ${runs.length} rounds]` : "";
    return [
      first.suite,
      first.name,
      first.size,
      format(median(runs.map((row) => row.firstMs))),
      format(median(runs.map((row) => row.medianOfFirstMs))),
      format(warmOf.get(key(first))?.pathlab.medianMs),
      paired.length === 0 ? "—" : format(median(paired.map((pair) => pair.numpyMs))),
      ratios.length === 0 ? "—" : `${median(ratios).toFixed(1)}×${range}${some}`,
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  for (const line of [header, ...lines]) {
    console.log(
      line
        .map((cell, column) =>
          (column < 3 ? cell.padEnd : cell.padStart).call(cell, widths[column]),
        )
        .join("  "),
    );
  }
}
