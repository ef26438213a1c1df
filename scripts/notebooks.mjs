#!/usr/bin/env node
// `npm run notebooks` (issue 8): executes every notebook of notebooks/ headless against a fresh
// database, and fails on any cell error.
//
// 1. Builds notebooks/.executed/pathlab.duckdb with the real jobs against the embedded sandbox,
//    seed 42: `pathlab sync` at two clocks a day apart (the later one sees how the earlier one's 24h
//    forecasts and daily markets turned out), then, at the later clock, `pathlab score` of the
//    crypto-24h prompts the sandbox's validator has scored (the leaderboard, recomputed and
//    compared), and `pathlab backtest` of half a day of BTC 1h prompts: the top-10 miners (CRPS,
//    calibration) and the Python example model among them (a backtest over time).
//    Then the same with `--base-url` against `pathlab serve` (the same seed, at the later clock, with
//    a key) into notebooks/.executed/service/pathlab.duckdb: a database built against a service,
//    whose notebooks ask that service (kept running while they execute) for what the database lacks.
// 2. Installs the Deno kernel (node_modules/.bin/deno) into notebooks/.executed/jupyter, which
//    Jupyter reads through JUPYTER_PATH: the user's own kernels are left alone.
// 3. Executes each notebook, two at a time (read-only: they share a database), with
//    `jupyter nbconvert --to notebook` and an execute preprocessor
//    (scripts/notebooks_execute.py: nbconvert's own, made to wait for the Deno kernel's late
//    outputs) into notebooks/.executed/ (git-ignored), then exports the executed copy `--to html`,
//    and a reading copy without the code (`--no-input`, `<name>.reading.html`).
//    With `--all` (CI runs it so), every notebook also runs on the service's database (copies in
//    notebooks/.executed/service/), the miners notebook also on a database that `pathlab score`
//    and the backtest alone built, without a sync (notebooks/.executed/score/), and every notebook
//    on a lake that `sync --lake`, `score --lake` and `backtest --lake` wrote with the same jobs
//    and `lake reduce` reduced (notebooks/.executed/lake/; a lake keeps no runs, so the charts that ask the service say so).
//    Those three run the sandbox's small network (`--sandbox-miners 9`): their point is that every
//    notebook reads each kind of store, and the pictures come from the first database alone.
//    Without it, only the first database is built and read: a few minutes instead of a quarter hour.
// 4. Writes the first picture of each section of the notebooks run on the first database to
//    docs/img/ (scripts/notebookPictures.mjs), which docs/notebooks.md shows; commit them when
//    they changed (test/notebooks/pictures.test.ts fails on committed pictures that are stale).
// 5. Exits 1 if any cell raised (the executed copy keeps the error output for reading).
//
// One file of about 430 lines: the steps above, in the order they run, read best together.
//
// Needs Jupyter from Debian: `apt-get install -y jupyter-nbconvert python3-ipykernel fonts-dejavu-core`.
// Options: names of notebooks to run (default all), `--all` for the four databases above,
// `--reuse-database` to keep the sandbox's databases of an earlier run (the service's is built
// again: its runs name the serve's new port).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeNotebookPictures } from "./notebookPictures.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const notebooksDirectory = path.join(root, "notebooks");
const outputDirectory = path.join(notebooksDirectory, ".executed");
const database = path.join(outputDirectory, "pathlab.duckdb");
/** The same notebooks on a database built against a service (`pathlab serve`), in its own folder. */
const serviceDirectory = path.join(outputDirectory, "service");
const serviceDatabase = path.join(serviceDirectory, "pathlab.duckdb");
/** The miners notebook on a database that `pathlab score` alone built (no sync), in its own folder. */
const scoreDirectory = path.join(outputDirectory, "score");
const scoreDatabase = path.join(scoreDirectory, "pathlab.duckdb");
const SCORE_NOTEBOOKS = ["miners.ipynb"];
/** Every notebook on a lake that `sync --lake` and `score --lake` wrote, in its own folder. */
const lakeDirectory = path.join(outputDirectory, "lake");
const lake = path.join(lakeDirectory, "lake");
const SERVICE_KEY = "notebook-service-key";
const jupyterData = path.join(outputDirectory, "jupyter");
/** Where the first picture of each notebook section goes, for docs/notebooks.md. */
const imageDirectory = path.join(root, "docs", "img");
const deno = path.join(root, "node_modules", ".bin", "deno");

/** The sandbox the database is synced from: a fixed seed, and two clocks a day apart. */
const SEED = 42;
const CLOCKS = ["2026-11-20T10:00:00Z", "2026-11-21T10:00:00Z"];
/** Assets and horizons synced: enough for every plot, small enough for CI. */
const ASSETS = ["BTC", "ETH", "SOL"];
const HORIZONS = ["24h", "1h"];
/** The sandbox's network of the databases beyond the first (`--all`): its nine first miners. */
const SMALL_NETWORK = ["--sandbox-miners", "9"];
/** Seconds one cell may run before nbconvert gives up. */
const CELL_TIMEOUT_SECONDS = 600;

const args = process.argv.slice(2);
const reuseDatabase = args.includes("--reuse-database");
const everyDatabase = args.includes("--all");
const wanted = args.filter((arg) => !arg.startsWith("--"));

/**
 * Runs a command, streaming its output; resolves once it exited 0, rejects naming the command when
 * it could not start or failed.
 */
function run(command, commandArgs, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: "inherit", cwd: root, ...options });
    child.on("error", (error) =>
      reject(new Error(`notebooks: cannot run ${command}: ${error.message}`)),
    );
    child.on("close", (code, signal) => {
      if (code === 0) return resolve();
      reject(
        new Error(
          `notebooks: \`${[command, ...commandArgs].join(" ")}\` failed with exit code ${code ?? signal}`,
        ),
      );
    });
  });
}

/** Awaits `step` and prints how long it took. */
async function timed(label, step) {
  const started = performance.now();
  const result = await step();
  console.log(`notebooks: ${label} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Runs every task (a function that returns a promise), `lanes` at a time, in the order given;
 * resolves to their results in that order, or rejects with the first failure, after which no
 * lane starts another task.
 */
async function inLanes(tasks, lanes) {
  const results = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      try {
        results[index] = await tasks[index]();
      } catch (error) {
        next = tasks.length; // a failure starts no further task in either lane
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

function checkJupyter() {
  const result = spawnSync("jupyter", ["nbconvert", "--version"], { encoding: "utf8" });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(
      "notebooks: `jupyter nbconvert` is not available; install Jupyter from Debian: apt-get install -y jupyter-nbconvert python3-ipykernel fonts-dejavu-core",
    );
  }
  console.log(`notebooks: jupyter nbconvert ${result.stdout.trim()}`);
}

/**
 * `pathlab <args>` into `target`: against the embedded sandbox (seed 42) whatever service the
 * shell is configured for, or against `service` (`--base-url`, its key in PATHLAB_API_KEY).
 */
async function pathlab(args, target, service) {
  const env = { ...process.env };
  delete env.PATHLAB_BASE_URL;
  delete env.PATHLAB_API_KEY;
  if (service !== undefined) env.PATHLAB_API_KEY = SERVICE_KEY;
  const sandbox = target === database ? [] : SMALL_NETWORK;
  const where =
    service === undefined ? ["--seed", String(SEED), ...sandbox] : ["--base-url", service];
  const into = target === lake ? ["--lake", target] : ["--db", target];
  await run(process.execPath, ["dist/cli/main.js", ...args, ...into, ...where], { env });
}

/**
 * Syncs (at each clock, or once against a service, whose clock is its own; not with `sync: false`)
 * and scores into `target` (a DuckDB file, or the lake): the crypto-24h prompts scored by the
 * clock, and half a day of BTC 1h prompts.
 */
async function buildDatabase(target, service, { sync = true } = {}) {
  // the lake is a folder of pathlab's own, made by the previous run of this script
  rmSync(target, { force: true, recursive: target === lake });
  rmSync(`${target}.wal`, { force: true });
  const syncAt = !sync ? [] : service === undefined ? CLOCKS : [undefined];
  for (const now of syncAt) {
    const clock = now === undefined ? [] : ["--now", now];
    const scope = ["--assets", ASSETS.join(","), "--horizons", HORIZONS.join(",")];
    await pathlab(["sync", ...clock, ...scope], target, service);
  }
  const now = CLOCKS.at(-1);
  const clock = service === undefined ? ["--now", now] : [];
  const at = (hoursBefore) => new Date(Date.parse(now) - hoursBefore * 3_600_000).toISOString();
  // The 24h prompts scored by the sandbox's validator, which began scoring 32 minutes before its
  // clock: those that started 24h to 24h 40min before it.
  const day = ["--competition", "crypto-24h", "--from", at(24 + 2 / 3), "--to", at(24)];
  await pathlab(["score", ...clock, ...day], target, service);
  // Half a day of BTC 1h prompts of the top-10 miners, up to the last one the validator scored,
  // with the Python example model answering them as a miner would: a backtest, scored among them.
  const hours = ["--competition", "crypto-1h", "--assets", "BTC", "--miners", "top:10"];
  const answers = path.join(path.dirname(target), "backtest");
  rmSync(answers, { force: true, recursive: true });
  const model = ["--model", "python3 examples/models/gbm.py", "--out", answers];
  await pathlab(
    ["backtest", ...model, ...clock, ...hours, "--from", at(13), "--to", at(1)],
    target,
    service,
  );
  // a lake's rank history comes from its reduce step, over every prompt it holds
  if (target === lake) await pathlab(["lake", "reduce", ...clock], target, service);
}

/** `pathlab serve` at the later clock, as the service of the second database; its URL and stop. */
async function startService() {
  const child = spawn(
    process.execPath,
    [
      "dist/cli/main.js",
      "serve",
      "--port",
      "0",
      "--seed",
      String(SEED),
      "--now",
      CLOCKS.at(-1),
      "--api-key",
      SERVICE_KEY,
      ...SMALL_NETWORK,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise((resolve, reject) => {
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found !== null) resolve(found[1]);
    });
    child.on("exit", (code) =>
      reject(new Error(`notebooks: pathlab serve exited (${code}): ${output}`)),
    );
    child.on("error", (error) =>
      reject(new Error(`notebooks: cannot start pathlab serve: ${error.message}`)),
    );
  });
  child.stdout.resume();
  return { url, stop: () => child.kill("SIGTERM") };
}

function installKernel() {
  return run(deno, ["jupyter", "--install", "--force"], {
    env: { ...process.env, XDG_DATA_HOME: outputDirectory, NO_COLOR: "1" },
  });
}

/** The error outputs of an executed notebook, one line each. */
function errorsOf(executedFile) {
  const notebook = JSON.parse(readFileSync(executedFile, "utf8"));
  const errors = [];
  notebook.cells.forEach((cell, index) => {
    for (const output of cell.outputs ?? []) {
      if (output.output_type !== "error") continue;
      const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      errors.push(
        `cell ${index + 1} (${source.split("\n")[0]}): ${output.ename}: ${output.evalue}`,
      );
    }
  });
  return errors;
}

async function executeNotebook(name, target, directory, service) {
  const source = path.join(notebooksDirectory, name);
  const executed = path.join(directory, name);
  rmSync(executed, { force: true });
  const env = {
    ...process.env,
    JUPYTER_PATH: [jupyterData, process.env.JUPYTER_PATH].filter(Boolean).join(path.delimiter),
    PYTHONPATH: [path.join(root, "scripts"), process.env.PYTHONPATH]
      .filter(Boolean)
      .join(path.delimiter),
    PATHLAB_NOTEBOOK_DATABASE: target,
    PATHLAB_API_KEY: service === undefined ? "" : SERVICE_KEY,
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
  };
  // nbconvert --execute, with scripts/notebooks_execute.py's preprocessor in place of the default
  // one: it also collects the outputs that the Deno kernel sends after a cell's idle status.
  await run(
    "jupyter",
    [
      "nbconvert",
      "--to",
      "notebook",
      '--NotebookExporter.preprocessors=["notebooks_execute.DenoExecutePreprocessor"]',
      "--DenoExecutePreprocessor.allow_errors=True",
      "--DenoExecutePreprocessor.kernel_name=deno",
      `--DenoExecutePreprocessor.timeout=${CELL_TIMEOUT_SECONDS}`,
      "--output-dir",
      directory,
      source,
    ],
    { env },
  );
  await run("jupyter", ["nbconvert", "--to", "html", "--output-dir", directory, executed], {
    env,
  });
  // The reading copy: the same page without the code, for readers who want the pictures.
  const reading = `${name.replace(/\.ipynb$/, "")}.reading`;
  await run(
    "jupyter",
    [
      "nbconvert",
      "--to",
      "html",
      "--no-input",
      "--output",
      reading,
      "--output-dir",
      directory,
      executed,
    ],
    { env },
  );
  return errorsOf(executed);
}

async function main() {
  const started = performance.now();
  checkJupyter();
  mkdirSync(outputDirectory, { recursive: true });
  const notebooks = readdirSync(notebooksDirectory)
    .filter((name) => name.endsWith(".ipynb"))
    .filter((name) => wanted.length === 0 || wanted.includes(name.replace(/\.ipynb$/, "")))
    .sort();
  if (notebooks.length === 0) {
    throw new Error(`notebooks: no notebook matches ${JSON.stringify(wanted)} in notebooks/`);
  }
  const kept = everyDatabase ? [database, scoreDatabase, lake] : [database];
  const reused = reuseDatabase && kept.every((file) => existsSync(file));
  if (reused) {
    console.log(`notebooks: reusing ${kept.map((file) => path.relative(root, file)).join(", ")}`);
  }
  if (!everyDatabase) {
    if (!reused) await timed("building the database", () => buildDatabase(database));
    return executeAll(notebooks, undefined, started);
  }
  mkdirSync(serviceDirectory, { recursive: true });
  mkdirSync(scoreDirectory, { recursive: true });
  mkdirSync(lakeDirectory, { recursive: true });
  const service = await startService();
  try {
    // Two builds at a time: each waits on its sandbox's threads, the Python model and DuckDB's
    // writes long enough that a second one fills the machine. The service's database is always
    // built again: its runs name the service's URL, and this serve's port is new.
    const builds = [
      ...(reused ? [] : [["the database", () => buildDatabase(database)]]),
      [`the database of ${service.url}`, () => buildDatabase(serviceDatabase, service.url)],
      ...(reused
        ? []
        : [
            ["the lake", () => buildDatabase(lake)],
            [
              "the database of score alone",
              () => buildDatabase(scoreDatabase, undefined, { sync: false }),
            ],
          ]),
    ];
    await inLanes(
      builds.map(
        ([name, build]) =>
          () =>
            timed(`building ${name}`, build),
      ),
      2,
    );
    return await executeAll(notebooks, service.url, started);
  } finally {
    service.stop();
  }
}

/**
 * Executes every notebook on the database, and with a service's URL (`--all`) on the other three
 * too, two at a time (each is mostly one kernel's single thread, and Jupyter's start); sets the
 * exit code when a cell failed.
 */
async function executeAll(notebooks, serviceUrl, started) {
  await timed("installing the Deno kernel", installKernel);
  const runs = [];
  for (const name of notebooks) {
    runs.push({ name, label: name, target: database, directory: outputDirectory });
    if (serviceUrl === undefined) continue;
    runs.push(
      {
        name,
        label: `${name} on the database of ${serviceUrl}`,
        failure: "service database",
        target: serviceDatabase,
        directory: serviceDirectory,
        serviceUrl,
      },
      {
        name,
        label: `${name} on the lake`,
        failure: "lake",
        target: lake,
        directory: lakeDirectory,
      },
    );
    if (SCORE_NOTEBOOKS.includes(name)) {
      runs.push({
        name,
        label: `${name} on the database of score alone`,
        failure: "score-only database",
        target: scoreDatabase,
        directory: scoreDirectory,
      });
    }
  }
  const errors = await inLanes(
    runs.map(
      (notebook) => () =>
        timed(`executing ${notebook.label}`, () =>
          executeNotebook(notebook.name, notebook.target, notebook.directory, notebook.serviceUrl),
        ),
    ),
    2,
  );
  const failures = runs.flatMap((notebook, index) =>
    errors[index].map(
      (error) =>
        `${notebook.name}${notebook.failure === undefined ? "" : ` (${notebook.failure})`}: ${error}`,
    ),
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const pictures = writeNotebookPictures(notebooks, outputDirectory, imageDirectory);
  console.log(`notebooks: ${pictures.length} pictures in ${path.relative(root, imageDirectory)}/`);
  if (failures.length > 0) {
    console.error(`notebooks: ${failures.length} cell error(s):\n  ${failures.join("\n  ")}`);
    console.error(`notebooks: the executed copies are in ${path.relative(root, outputDirectory)}/`);
    process.exitCode = 1;
    return;
  }
  console.log(
    `notebooks: ${notebooks.length} notebook(s) executed without errors in ${seconds} s; copies and HTML in ${path.relative(root, outputDirectory)}/`,
  );
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
