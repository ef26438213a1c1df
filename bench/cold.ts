/**
 * Cold rows (`npm run bench -- cold`, and in a whole run): each case of every suite in a fresh
 * Node process of its own, its pathlab function timed on its first 10 calls, with no warm-up. A
 * job calls each kernel a few times per unit, before V8 has optimized it, so the warm medians of
 * the suites overstate what a job sees; these rows show the first call and the median of the first
 * 10. The case's setup (its data, the other cases' closures) is built before the first call, as in
 * the warm suites; the numpy column is the warm peer's (numpy's kernels are compiled ahead).
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readBenchData, type BenchSuite } from "./harness.ts";

/** Calls timed per case. */
const CALLS = 10;

/** One cold row: the first call, and the median of the first {@link CALLS}. */
export interface ColdRow {
  readonly suite: string;
  readonly name: string;
  readonly size: string;
  readonly firstMs: number;
  readonly medianOfFirstMs: number;
}

let sink: unknown;

/** Child mode: times case `index` of suite `file` cold; prints `{ count, row }` as JSON. */
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
  const row: ColdRow = {
    suite: suite.name,
    name: item.name,
    size: item.size,
    firstMs: times[0],
    medianOfFirstMs: (sorted[CALLS / 2 - 1] + sorted[CALLS / 2]) / 2,
  };
  console.log(JSON.stringify({ count: cases.length, row }));
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
  return new Promise<{ count: number; row: ColdRow }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`bench cold ${file} #${index} exited with code ${code}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "{}"));
    });
  });
}

/**
 * Every case of the suite files `files`, cold, one process each.
 * @param files - suite file names (bench/suites/*.ts).
 * @param directory - the bench data's folder.
 */
export async function runCold(files: readonly string[], directory: string): Promise<ColdRow[]> {
  const rows: ColdRow[] = [];
  for (const file of files) {
    let count = 1;
    for (let index = 0; index < count; index++) {
      const result = await coldChild(file, index, directory);
      count = result.count;
      process.stderr.write(`  cold ${result.row.suite}: ${result.row.name.trim()}\n`);
      rows.push(result.row);
    }
  }
  return rows;
}

/**
 * Prints the cold rows beside the same run's warm median and numpy (when the run timed them).
 * @param rows - the cold rows.
 * @param warm - the run's warm rows, by suite, name and size.
 */
export function printCold(
  rows: readonly ColdRow[],
  warm: readonly {
    suite: string;
    name: string;
    size: string;
    pathlab: { medianMs: number };
    numpy?: { medianMs: number };
  }[],
): void {
  const key = (row: { suite: string; name: string; size: string }) =>
    `${row.suite}\u0000${row.name}\u0000${row.size}`;
  const warmOf = new Map(warm.map((row) => [key(row), row]));
  const format = (ms: number | undefined) =>
    ms === undefined ? "—" : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
  console.log(
    `\nCold: each case in a fresh process, its first ${CALLS} calls (ms; warm and numpy from this run)`,
  );
  const header = ["suite", "case", "size", "1st call", `median of ${CALLS}`, "warm", "numpy"];
  const lines = rows.map((row) => {
    const found = warmOf.get(key(row));
    return [
      row.suite,
      row.name,
      row.size,
      format(row.firstMs),
      format(row.medianOfFirstMs),
      format(found?.pathlab.medianMs),
      format(found?.numpy?.medianMs),
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
