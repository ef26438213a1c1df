import { configDefaults, defineConfig } from "vitest/config";

/**
 * The second tier (`npm run test:e2e`): the tests whose point is the whole run, end to end. CI runs
 * them after `npm test`; every other test is in the first tier (`npm test`), which has the same
 * jobs, stores and checks in the test's own process.
 */
const E2E = [
  // the package built from nothing by `prepack`, the packed tarball in a fresh project, and the
  // examples of the README and docs/ as a reader runs them
  "test/package/consumer.test.ts",
  "test/cli/executable.test.ts",
  "test/readmeExamples.test.ts",
  // processes killed mid-unit, watches stopped with signals, long queue runs on a real Redis
  "test/jobs/queue/workers.test.ts",
  "test/jobs/queue/sync.test.ts",
  "test/jobs/queue/watch.test.ts",
  "test/jobs/queue/backtest.test.ts",
  "test/jobs/queue/rate.test.ts",
  "test/cli/interrupt.test.ts",
  "test/cli/syncLakeKill.test.ts",
  "test/cli/scoreWatch.test.ts",
  "test/cli/syncWatch.test.ts",
  // the compiled command's jobs as child processes, each a whole sync, score, backtest, audit,
  // query or export, judged by its exit code, output and files (the first tier runs the same jobs
  // in its own process, and the command's parsing and usage errors)
  "test/cli/liveNaming.test.ts",
  "test/cli/backtest.test.ts",
  "test/cli/backtestModule.test.ts",
  "test/cli/baseline.test.ts",
  "test/cli/sync.test.ts",
  "test/cli/syncRange.test.ts",
  "test/cli/jobDeadline.test.ts",
  "test/cli/hostileServer.test.ts",
  "test/cli/apiKey.test.ts",
  "test/cli/recordReplay.test.ts",
  "test/service/replayInput.test.ts",
  "test/cli/scoreLake.test.ts",
  "test/cli/lakeReduce.test.ts",
  "test/cli/audit.test.ts",
  "test/cli/mcp.test.ts",
  "test/cli/query.test.ts",
  "test/cli/queryWrites.test.ts",
  "test/cli/export.test.ts",
  "test/cli/exportSafety.test.ts",
  "test/cli/queryReadOnly.test.ts",
  "test/cli/queryValues.test.ts",
  "test/cli/queueCli.test.ts",
  "test/cli/syncLake.test.ts",
  "test/cli/unixTool.test.ts",
];

/**
 * The tests of pure computation and of the client on scripted servers: no store, sandbox, child
 * process or thread pool, nothing left behind in the process. They share their forks' module
 * cache (`isolate: false`): each fork imports the core, domain and reference modules once, not
 * once per file, which was a fifth of the whole tier's time.
 */
const SHARED_MODULES = [
  "test/core/**/*.test.ts",
  "test/domain/**/*.test.ts",
  "test/reference/**/*.test.ts",
  "test/paths/**/*.test.ts",
  "test/insights/**/*.test.ts",
  "test/scoring/**/*.test.ts",
  "test/plots/**/*.test.ts",
  "test/client/**/*.test.ts",
  "test/sandbox/world/**/*.test.ts",
];
/** Of those folders, the tests that start threads: they keep a process of their own. */
const OWN_PROCESS = ["test/**/*Threads.test.ts", "test/scoring/kernelScratch.test.ts"];

/**
 * Every tier's settings. The jobs' worker threads, started from the sources, run the compiled
 * modules of dist/ that the global setup has just built (src/domain/devWorker.mjs), not their
 * TypeScript through a loader of their own in each thread.
 */
const tier = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  env: { PATHLAB_WORKERS_COMPILED: "1" },
};

export default defineConfig({
  test: {
    // Once per run, before any project's tests: the compiled dist/ that the command's tests run.
    globalSetup: ["test/buildPackage.ts"],
    // Forks (a process per test file): the jobs' worker threads, DuckDB and child processes stay
    // apart. Two at a time: most slow files wait on child processes, sandbox threads and sockets
    // half the time, so a second file fills a 2-core machine (vitest's default there is one).
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...tier,
          name: "main",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...E2E, ...SHARED_MODULES, ...OWN_PROCESS],
        },
      },
      {
        test: {
          ...tier,
          name: "unit",
          include: SHARED_MODULES,
          exclude: [...configDefaults.exclude, ...OWN_PROCESS],
          isolate: false,
        },
      },
      {
        test: { ...tier, name: "threads", include: OWN_PROCESS },
      },
      { test: { ...tier, name: "e2e", include: E2E } },
    ],
  },
});
