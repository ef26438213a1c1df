#!/usr/bin/env node
// `npm run notebooks` (issue 8): executes every notebook of notebooks/ headless against a fresh
// database, and fails on any cell error.
//
// 1. Builds notebooks/.executed/pathlab.duckdb with the real jobs against the embedded sandbox,
//    seed 42: `pathlab sync` at two clocks a day apart (the later one sees how the earlier one's 24h
//    forecasts and daily markets turned out), then, at the later clock, `pathlab score` of the
//    crypto-24h prompts the sandbox's validator has scored (the leaderboard, recomputed and
//    compared) and of half a day of BTC 1h prompts of the top-10 miners (CRPS, calibration).
// 2. Installs the Deno kernel (node_modules/.bin/deno) into notebooks/.executed/jupyter, which
//    Jupyter reads through JUPYTER_PATH: the user's own kernels are left alone.
// 3. Executes each notebook with `jupyter nbconvert --to notebook` and an execute preprocessor
//    (scripts/notebooks_execute.py: nbconvert's own, made to wait for the Deno kernel's late
//    outputs) into notebooks/.executed/ (git-ignored), then exports the executed copy `--to html`.
// 4. Exits 1 if any cell raised (the executed copy keeps the error output for reading).
//
// Needs Jupyter from Debian: `apt-get install -y jupyter-nbconvert python3-ipykernel fonts-dejavu-core`.
// Options: names of notebooks to run (default all), `--reuse-database` to keep the database of an
// earlier run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const notebooksDirectory = path.join(root, "notebooks");
const outputDirectory = path.join(notebooksDirectory, ".executed");
const database = path.join(outputDirectory, "pathlab.duckdb");
const jupyterData = path.join(outputDirectory, "jupyter");
const deno = path.join(root, "node_modules", ".bin", "deno");

/** The sandbox the database is synced from: a fixed seed, and two clocks a day apart. */
const SEED = 42;
const CLOCKS = ["2026-11-20T10:00:00Z", "2026-11-21T10:00:00Z"];
/** Assets and horizons synced: enough for every plot, small enough for CI. */
const ASSETS = ["BTC", "ETH", "SOL"];
const HORIZONS = ["24h", "1h"];
/** Seconds one cell may run before nbconvert gives up. */
const CELL_TIMEOUT_SECONDS = 600;

const args = process.argv.slice(2);
const reuseDatabase = args.includes("--reuse-database");
const wanted = args.filter((arg) => !arg.startsWith("--"));

/** Runs a command, streaming its output; throws naming the command when it fails. */
function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { stdio: "inherit", cwd: root, ...options });
  if (result.error !== undefined) {
    throw new Error(`notebooks: cannot run ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new Error(
      `notebooks: \`${[command, ...commandArgs].join(" ")}\` failed with exit code ${result.status ?? result.signal}`,
    );
  }
}

/** Runs `step` and prints how long it took. */
function timed(label, step) {
  const started = performance.now();
  const result = step();
  console.log(`notebooks: ${label} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
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

/** `pathlab <args>` against the embedded sandbox, whatever service the shell is configured for. */
function pathlab(args) {
  const env = { ...process.env };
  delete env.PATHLAB_BASE_URL;
  delete env.PATHLAB_API_KEY;
  run(process.execPath, ["dist/cli/main.js", ...args, "--db", database, "--seed", String(SEED)], {
    env,
  });
}

function buildDatabase() {
  rmSync(database, { force: true });
  rmSync(`${database}.wal`, { force: true });
  for (const now of CLOCKS) {
    pathlab(["sync", "--now", now, "--assets", ASSETS.join(","), "--horizons", HORIZONS.join(",")]);
  }
  const now = CLOCKS.at(-1);
  const at = (hoursBefore) => new Date(Date.parse(now) - hoursBefore * 3_600_000).toISOString();
  // The 24h prompts scored by the sandbox's validator, which began scoring 32 minutes before its
  // clock: those that started 24h to 24h 40min before it.
  pathlab([
    "score",
    "--now",
    now,
    "--competition",
    "crypto-24h",
    "--from",
    at(24 + 2 / 3),
    "--to",
    at(24),
  ]);
  // Half a day of BTC 1h prompts of the top-10 miners, up to the last one the validator scored.
  pathlab([
    "score",
    "--now",
    now,
    "--competition",
    "crypto-1h",
    "--assets",
    "BTC",
    "--miners",
    "top:10",
    "--from",
    at(13),
    "--to",
    at(1),
  ]);
}

function installKernel() {
  run(deno, ["jupyter", "--install", "--force"], {
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

function executeNotebook(name) {
  const source = path.join(notebooksDirectory, name);
  const executed = path.join(outputDirectory, name);
  rmSync(executed, { force: true });
  const env = {
    ...process.env,
    JUPYTER_PATH: [jupyterData, process.env.JUPYTER_PATH].filter(Boolean).join(path.delimiter),
    PYTHONPATH: [path.join(root, "scripts"), process.env.PYTHONPATH]
      .filter(Boolean)
      .join(path.delimiter),
    PATHLAB_NOTEBOOK_DATABASE: database,
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
  };
  // nbconvert --execute, with scripts/notebooks_execute.py's preprocessor in place of the default
  // one: it also collects the outputs that the Deno kernel sends after a cell's idle status.
  run(
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
      outputDirectory,
      source,
    ],
    { env },
  );
  run("jupyter", ["nbconvert", "--to", "html", "--output-dir", outputDirectory, executed], {
    env,
  });
  return errorsOf(executed);
}

function main() {
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
  if (reuseDatabase && existsSync(database)) {
    console.log(`notebooks: reusing ${path.relative(root, database)}`);
  } else {
    timed("building the database", buildDatabase);
  }
  timed("installing the Deno kernel", installKernel);
  const failures = [];
  for (const name of notebooks) {
    const errors = timed(`executing ${name}`, () => executeNotebook(name));
    for (const error of errors) failures.push(`${name}: ${error}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
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
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
