/**
 * One run of a CLI as a whole process, measured in that process (`measureProcess.mjs`, preloaded
 * through NODE_OPTIONS): its stdout, CPU time of every thread and peak resident memory. Shared by
 * the end-to-end and units suites.
 */

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Runs `node cli …args` in `directory`; resolves once it exits 0 (else rejects with the end of its
 * stderr), with its stdout and the usage it wrote to `usageFile`.
 * @example const { cpuMs, peakRssBytes } = await measuredRun(CLI, ["sync"], directory, join(directory, "usage.json"));
 */
export async function measuredRun(
  cli: string,
  args: readonly string[],
  directory: string,
  usageFile: string,
): Promise<{ stdout: string; cpuMs: number; peakRssBytes: number }> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: directory,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_OPTIONS: `--import ${pathToFileURL(join(import.meta.dirname, "measureProcess.mjs")).href}`,
      PATHLAB_BENCH_USAGE: usageFile,
    },
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
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as {
    cpuMs: number;
    peakRssBytes: number;
  };
  return { stdout, ...usage };
}
