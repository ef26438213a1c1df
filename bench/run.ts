/**
 * `npm run bench [-- <filter>…]`: makes the shared data once, then runs every suite of
 * bench/suites/*.ts (those whose file name contains a filter, when filters are given) in a
 * fresh Node process of its own, so that no suite's code or imports change how another's kernels
 * are compiled (see bench/NOTES.md, "One process per suite"). Each case's pathlab function, naive
 * JS baseline and numpy peer are timed as warm medians with the same repeat count; the runner prints
 * a table and writes bench/results.json (bench/results.filtered.json when filters are given: a
 * partial run never replaces the figures of a whole one). Without filters, or with the filter `e2e`, the
 * end-to-end suite (`endToEnd.ts`: the built CLI's commands as whole processes) runs after them,
 * and with the filter `units` (or none) the units suite (`queueWorkers.ts`: the day of scoring by
 * `score` on 1 and 2 pool threads and by 1–3 queue workers), and with the filter `serve` (or
 * none) the serve suite (`serveThreads.ts`: `pathlab serve` answering `npm start`'s requests
 * with 0–2 compute threads), and with the filter `replay` (or none) the replay suite
 * (`replay.ts`: `npm start`'s sync replayed from a recording beside `JSON.parse` of its bodies),
 * and with the filter `cold` (or none) the cold rows (`cold.ts`: each case's first calls, in a
 * process of its own).
 *
 * Each suite process starts as plain `node bench/suite.mjs`, which loads the TypeScript the way the
 * `pathlab` command does, and runs with `--trace-protector-invalidation`: a suite whose process
 * loses V8's ArrayBufferDetaching protector (every typed-array loop then carries detach checks,
 * up to 2× slower) is flagged in the table and in results.json.
 *
 * Environment: BENCH_REPEATS (15), BENCH_WARMUP (3 runs at least, and 200 ms), BENCH_COLD_ROUNDS
 * (1: rounds of the cold processes, each case's numpy peer timed after its own),
 * BENCH_TSX_LOADER=1 (start the suite processes under tsx's `--import` loader instead, which
 * invalidates the protector, to measure that penalty).
 */

import { execFileSync, spawn } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  makeBenchData,
  readBenchData,
  runPeer,
  timeWarm,
  type BenchCase,
  type BenchSuite,
  type Timing,
} from "./harness.ts";
import { printCold, runCold, runColdCase, type ColdRow } from "./cold.ts";
import { printEndToEnd, runEndToEnd } from "./endToEnd.ts";
import { printUnits, runUnits } from "./queueWorkers.ts";
import { printReplay, runReplay } from "./replay.ts";
import { printSandbox, runSandbox } from "./serveThreads.ts";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const TSX_LOADER = process.env.BENCH_TSX_LOADER === "1";
/** What V8 prints (with --trace-protector-invalidation) when a suite process loses the protector. */
const DETACHING_INVALIDATED = "Invalidating protector cell ArrayBufferDetaching";
const SUITES = join(import.meta.dirname, "suites");

/** One line of the table and of results.json. */
interface Row {
  readonly suite: string;
  readonly name: string;
  readonly size: string;
  readonly pathlab: Timing;
  readonly naive?: Timing;
  readonly numpy?: Timing;
  readonly targetMs?: number;
  readonly note?: string;
  /** Set when the suite's process lost V8's ArrayBufferDetaching protector. */
  readonly detachChecks?: boolean;
}

/** Child mode: runs one suite file on the data in `directory`, prints its rows as JSON. */
async function runSuite(file: string, directory: string): Promise<void> {
  const module = (await import(pathToFileURL(join(SUITES, file)).href)) as { suite?: BenchSuite };
  if (module.suite === undefined) {
    console.error(`bench/suites/${file} exports no \`suite\`; skipped`);
    console.log("[]");
    return;
  }
  const suite = module.suite;
  const data = readBenchData(directory);
  const cases: BenchCase[] = suite.cases(data);
  const peerCases = new Map<string, string[]>();
  for (const item of cases) {
    if (item.peer) {
      peerCases.set(item.peer.script, [...(peerCases.get(item.peer.script) ?? []), item.peer.case]);
    }
  }
  const peerTimings = new Map<string, Timing>();
  for (const [script, names] of peerCases) {
    for (const timing of runPeer(script, names, directory, REPEATS, WARMUP)) {
      peerTimings.set(`${script}/${timing.case}`, timing);
    }
  }
  const rows: Row[] = [];
  for (const item of cases) {
    process.stderr.write(`  ${suite.name}: ${item.name.trim()} (${item.size})\n`);
    rows.push({
      suite: suite.name,
      name: item.name,
      size: item.size,
      pathlab: await timeWarm(item.pathlab, REPEATS, WARMUP),
      naive: item.naive ? await timeWarm(item.naive, REPEATS, WARMUP) : undefined,
      numpy: item.peer ? peerTimings.get(`${item.peer.script}/${item.peer.case}`) : undefined,
      targetMs: item.targetMs,
      note: item.note,
    });
  }
  console.log(JSON.stringify(rows));
}

function machine(): Record<string, string> {
  let numpy = "unavailable";
  try {
    numpy = execFileSync(
      "python3",
      [
        "-c",
        "import numpy, sys; print('numpy', numpy.__version__, 'python', sys.version.split()[0])",
      ],
      { encoding: "utf8" },
    ).trim();
  } catch {
    // the numpy column stays empty
  }
  return {
    date: new Date().toISOString(),
    nproc: String(cpus().length),
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    numpy,
    "load average at start": loadavg()
      .map((load) => load.toFixed(2))
      .join(" "),
    timing: `median of ${REPEATS} runs after ≥ ${WARMUP} warm-up runs and ≥ 200 ms; one process per suite${TSX_LOADER ? "; suites under tsx's --import loader" : ""}`,
  };
}

function format(ms: number | undefined): string {
  if (ms === undefined) return "—";
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function ratio(other: Timing | undefined, pathlab: Timing): string {
  return other === undefined ? "—" : `${(other.medianMs / pathlab.medianMs).toFixed(1)}×`;
}

function printTable(rows: readonly Row[]): void {
  const header = [
    "suite",
    "case",
    "size",
    "pathlab ms",
    "naive JS ms",
    "numpy ms",
    "naive/pathlab",
    "numpy/pathlab",
    "target / note",
  ];
  const lines = rows.map((row) => [
    row.suite,
    row.name,
    row.size,
    format(row.pathlab.medianMs),
    format(row.naive?.medianMs),
    format(row.numpy?.medianMs),
    ratio(row.naive, row.pathlab),
    ratio(row.numpy, row.pathlab),
    [
      row.targetMs === undefined
        ? (row.note ?? "")
        : `≤ ${row.targetMs} ms ${row.pathlab.medianMs <= row.targetMs ? "met" : "MISSED"}`,
      row.detachChecks ? "(detach checks on)" : "",
    ]
      .filter((part) => part !== "")
      .join(" "),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column >= 3 && column <= 7 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
      )
      .join("  ");
  console.log(render(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(render(line));
}

/**
 * Runs one suite in a process of its own and returns its rows, each marked when that process lost
 * the ArrayBufferDetaching protector. Its progress lines (stderr) pass through as they come.
 */
async function runSuiteProcess(file: string, directory: string): Promise<Row[]> {
  const entry = TSX_LOADER
    ? [...process.execArgv, import.meta.filename]
    : [join(import.meta.dirname, "suite.mjs")];
  const child = spawn(
    process.execPath,
    ["--trace-protector-invalidation", ...entry, "--suite", file, "--data", directory],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  // V8's traces go to stdout, between the suite's own lines; its rows are the last line.
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => process.stderr.write(chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) throw new Error(`bench suite ${file} exited with code ${code}`);
  const lines = stdout.trim().split("\n");
  const detachChecks = lines.some((line) => line.startsWith(DETACHING_INVALIDATED));
  if (detachChecks) {
    process.stderr.write(
      `  ${file}: its process lost V8's ArrayBufferDetaching protector; its rows carry detach checks\n`,
    );
  }
  const rows = JSON.parse(lines.pop() ?? "[]") as Row[];
  return rows.map((row) => (detachChecks ? { ...row, detachChecks } : row));
}

/** Parent mode: data once, one child process per suite, then the table and results.json. */
async function main(filters: readonly string[]): Promise<void> {
  const info = machine();
  console.log(
    Object.entries(info)
      .map(([key, value]) => `${key}: ${value}`)
      .join("\n"),
  );
  const allFiles = readdirSync(SUITES)
    .filter((name) => name.endsWith(".ts"))
    .sort();
  const files = allFiles.filter(
    (name) => filters.length === 0 || filters.some((filter) => name.includes(filter)),
  );
  // cold rows: in a whole run, or with the filter `cold` (of the filtered suites, else of all)
  const coldFiles =
    filters.length === 0 || filters.includes("cold") ? (files.length > 0 ? files : allFiles) : [];
  const rows: Row[] = [];
  let cold: ColdRow[] | undefined;
  if (files.length > 0 || coldFiles.length > 0) {
    const data = makeBenchData();
    try {
      for (const file of files) rows.push(...(await runSuiteProcess(file, data.directory)));
      if (coldFiles.length > 0) cold = await runCold(coldFiles, data.directory, WARMUP);
    } finally {
      rmSync(data.directory, { recursive: true, force: true });
    }
    console.log();
    if (rows.length > 0) printTable(rows);
    if (cold !== undefined) printCold(cold, rows);
  }
  const endToEnd =
    filters.length === 0 || filters.includes("e2e") ? await runEndToEnd() : undefined;
  if (endToEnd !== undefined) printEndToEnd(endToEnd);
  const units = filters.length === 0 || filters.includes("units") ? await runUnits() : undefined;
  if (units !== undefined) printUnits(units);
  const sandbox =
    filters.length === 0 || filters.includes("serve") ? await runSandbox() : undefined;
  if (sandbox !== undefined) printSandbox(sandbox);
  const replay = filters.length === 0 || filters.includes("replay") ? await runReplay() : undefined;
  if (replay !== undefined) printReplay(replay);
  // Only a whole run replaces the current figures; a filtered one is written beside them.
  const output = join(
    import.meta.dirname,
    filters.length === 0 ? "results.json" : "results.filtered.json",
  );
  const results = {
    machine: info,
    results: rows,
    ...(cold !== undefined && { cold }),
    ...(endToEnd !== undefined && { endToEnd }),
    ...(units !== undefined && { units }),
    ...(sandbox !== undefined && { sandbox }),
    ...(replay !== undefined && { replay }),
  };
  writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${output}`);
}

const suiteIndex = process.argv.indexOf("--suite");
const coldIndex = process.argv.indexOf("--cold");
const dataFolder = () => process.argv[process.argv.indexOf("--data") + 1];
if (coldIndex >= 0) {
  const [file, index] = process.argv.slice(coldIndex + 1, coldIndex + 3);
  await runColdCase(file, Number(index), dataFolder());
} else if (suiteIndex >= 0) {
  await runSuite(process.argv[suiteIndex + 1], process.argv[process.argv.indexOf("--data") + 1]);
} else {
  await main(process.argv.slice(2));
}
