/**
 * Shared pieces of the store tests: temp folders and databases, path sets of arbitrary doubles, counts of every
 * table, and child processes running TypeScript (for the lock and crash tests).
 */

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { createRandom } from "../../src/reference/random.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";

/** A fresh temp folder and a function that removes it. */
export function temporaryFolder(): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), "pathlab-store-"));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * For the tests of one file: a migrated, empty database `name` in a temp folder of its own, made
 * before they run and removed after them. Its `folder` and `path` are set once the tests run.
 */
export function temporaryDatabase(name: string): {
  readonly folder: string;
  readonly path: string;
} {
  const made = { folder: "", path: "" };
  let remove = () => {};
  beforeAll(async () => {
    ({ folder: made.folder, remove } = temporaryFolder());
    made.path = join(made.folder, name);
    await (await openStore(made.path)).close();
  });
  afterAll(() => remove());
  return made;
}

/**
 * A path set of `nPaths × nPoints` prices: a seeded random walk around 68,000 at full double
 * precision (no rounding, so compression cannot rely on few digits).
 */
export function randomPathSet(
  minerUid: number,
  nPaths: number,
  nPoints: number,
  options: { startTime?: number; timeIncrement?: number; asset?: string; seed?: number } = {},
): PathSet {
  const random = createRandom(options.seed ?? 1000 + minerUid);
  const values = new Float64Array(nPaths * nPoints);
  for (let path = 0; path < nPaths; path++) {
    let price = 68000;
    for (let point = 0; point < nPoints; point++) {
      values[path * nPoints + point] = price;
      price *= Math.exp(0.002 * random.normal());
    }
  }
  return {
    asset: options.asset ?? "BTC",
    minerUid,
    startTime: options.startTime ?? 1772063100,
    timeIncrement: options.timeIncrement ?? 300,
    nPaths,
    nPoints,
    values,
  };
}

/** The bytes of a Float64Array, for bit-identical comparisons. */
export function bytesOf(values: Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** The tables of the schema. */
export const TABLES = [
  "runs",
  "path_sets",
  "path_values",
  "insights",
  "insight_values",
  "crosschecks",
  "leaderboard_rows",
  "venue_comparisons",
] as const;

/** Row count of every table of the schema. */
export async function tableCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await queryRows(store, `select count(*) from ${table}`);
    counts[table] = Number(rows[0][0]);
  }
  return counts;
}

/**
 * Starts `test/store/children/<script>.ts` under tsx in a child process and resolves once it has
 * printed `line` (the child's signal that it holds what the test needs).
 */
export async function startChild(
  script: string,
  args: readonly string[],
  line: string,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "children", `${script}.ts`), ...args],
    { stdio: ["ignore", "pipe", "pipe"], cwd: join(import.meta.dirname, "..", "..") },
  );
  let output = "";
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => (errors += String(data)));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      output += String(data);
      if (output.includes(line)) resolve();
    });
    child.on("exit", (code) =>
      reject(new Error(`child ${script} exited (${code}) before "${line}": ${errors}`)),
    );
  });
  return child;
}

/** Kills `child` with `signal` and waits for it to exit. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill(signal);
  await exited;
}
