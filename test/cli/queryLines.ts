/**
 * Queries as the command tests read what a command wrote: `pathlab query` run through the program
 * in the test's process (the same command as the built one, without a process and a DuckDB load
 * of its own each time), on a database file or a lake that a child process wrote or writes.
 */

import { setTimeout as delay } from "node:timers/promises";
import { expect } from "vitest";
import { runCli } from "../../src/cli/program.ts";
import type { Finished } from "./runPathlab.ts";

/** What a query run in this process ended with. */
export type Queried = Pick<Finished, "code" | "stdout" | "stderr">;

/**
 * `pathlab query …args` in this process: its exit code and output.
 * @example const { code, stdout } = await runQuery(["--db", database, "--ndjson", "select 1"]);
 */
export async function runQuery(args: readonly string[]): Promise<Queried> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["query", ...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/**
 * `pathlab query …source --ndjson sql` in this process: one line per row, once it has exited 0
 * with nothing on stderr.
 * @example const rows = await queryLines(["--lake", lake], "select * from prompts order by all");
 */
export async function queryLines(source: readonly string[], sql: string): Promise<string[]> {
  const { code, stdout, stderr } = await runQuery([...source, "--ndjson", sql]);
  expect(stderr, sql).toBe("");
  expect(code, sql).toBe(0);
  return stdout.split("\n").filter((line) => line !== "");
}

/**
 * Queries `lake` with `sql` (`query --lake --ndjson`), one query every quarter of a second or so,
 * while `run` (a command writing the lake in a child process) goes on; resolves to the run's
 * result and each query's, marked when it ended after the run had.
 * @example const { run, queries } = await queryLakeWhile(runPathlab(args), lake, "select count(*) n from prompts");
 */
export async function queryLakeWhile(
  run: Promise<Finished>,
  lake: string,
  sql: string,
): Promise<{ run: Finished; queries: (Queried & { afterRun: boolean })[] }> {
  let running = true;
  const finished = run.finally(() => (running = false));
  const queries: (Queried & { afterRun: boolean })[] = [];
  while (running) {
    const query = await runQuery(["--lake", lake, "--ndjson", sql]);
    queries.push({ ...query, afterRun: !running });
    await delay(250);
  }
  return { run: await finished, queries };
}
