/**
 * A watch (`pathlab score --watch`, `pathlab sync --watch`) as a real child process of the built
 * CLI, stopped with SIGTERM once it printed enough tick lines.
 */

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/**
 * Runs `pathlab args` until its stdout holds `ticks` lines that `isTick` accepts (or it exits),
 * then SIGTERMs it; resolves with its exit code and output.
 */
export async function watchUntil(
  args: readonly string[],
  isTick: (line: string) => boolean,
  ticks: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [main, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.split("\n").filter(isTick).length >= ticks) resolve();
    });
    void exited.then(() => resolve());
  });
  child.kill("SIGTERM");
  return { code: await exited, stdout, stderr };
}
