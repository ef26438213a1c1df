/**
 * One run of a CLI as a whole process, measured in that process (`measureProcess.mjs`, preloaded
 * through NODE_OPTIONS): its stdout, CPU time of every thread and peak resident memory. Shared by
 * the end-to-end, units and serve suites, with the median of their runs.
 */

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Runs `node cli …args` in `directory`, with `nodeOptions` in its NODE_OPTIONS (see
 * {@link measuredEnv}); resolves once it exits 0 (else rejects with the end of its stderr), with
 * its stdout and the usage it wrote to `usageFile`.
 * @example const { cpuMs, peakRssBytes } = await measuredRun(CLI, ["sync"], directory, join(directory, "usage.json"));
 */
export async function measuredRun(
  cli: string,
  args: readonly string[],
  directory: string,
  usageFile: string,
  nodeOptions = "",
): Promise<{ stdout: string } & ProcessUsage> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: directory,
    stdio: ["ignore", "pipe", "pipe"],
    env: measuredEnv(usageFile, nodeOptions),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) {
    throw new Error(`pathlab ${args.join(" ")} exited with code ${code}: ${stderr.slice(-2000)}`);
  }
  return { stdout, ...readUsage(usageFile) };
}

/**
 * The environment of a process measured by `measureProcess.mjs`: this one's, with the preload and
 * the file it writes its usage to at exit; `nodeOptions` (none by default) go before the preload
 * in NODE_OPTIONS, as a user's own would.
 * @example spawn(process.execPath, [cli, "serve"], { env: measuredEnv(usageFile) });
 */
export function measuredEnv(usageFile: string, nodeOptions = ""): NodeJS.ProcessEnv {
  const preload = `--import ${pathToFileURL(join(import.meta.dirname, "measureProcess.mjs")).href}`;
  return {
    ...process.env,
    NODE_OPTIONS: nodeOptions === "" ? preload : `${nodeOptions} ${preload}`,
    PATHLAB_BENCH_USAGE: usageFile,
  };
}

/**
 * What a process measured by `measureProcess.mjs` wrote at exit: CPU time of every thread (and
 * the system's share of it), minor page faults, peak resident memory.
 * @example const { cpuMs, peakRssBytes } = readUsage(usageFile);
 */
export function readUsage(usageFile: string): ProcessUsage {
  return JSON.parse(readFileSync(usageFile, "utf8")) as ProcessUsage;
}

/** What `measureProcess.mjs` measures of a process. */
export interface ProcessUsage {
  readonly cpuMs: number;
  readonly systemCpuMs: number;
  readonly minorPageFaults: number;
  readonly peakRssBytes: number;
}

/**
 * The median of some runs' figures.
 * @example median([3, 1, 2]) // => 2
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
