/**
 * Runs the `pathlab` command as a real child process (`node dist/cli/main.js`, what `npm start`
 * and the package's `bin` run) and collects its output, exit code and peak memory.
 */

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The child's peak resident memory (VmHWM) in MB, last read before it exited; NaN without /proc. */
  readonly peakRssMb: number;
  readonly elapsedMs: number;
}

/**
 * `node dist/cli/main.js …args`, with `stdin` piped in when given (else none), the environment
 * plus `env`, in `cwd` (default the repository); its stdout is not read for the first `pauseMs` (a reader that lags), and its peak
 * RSS is sampled from /proc every 20 ms.
 */
export function runPathlab(
  args: readonly string[],
  options: { stdin?: string; env?: Record<string, string>; pauseMs?: number; cwd?: string } = {},
): Promise<Finished> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(repoRoot, "dist/cli/main.js"), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...environment(), ...options.env },
    stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  let peakKb = Number.NaN;
  const sample = () => {
    try {
      // an exited child (a zombie until reaped) has no VmHWM line: keep the last reading
      const peak = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (peak !== null) peakKb = Number(peak[1]);
    } catch {
      // the child has exited, or there is no /proc
    }
  };
  const sampler = setInterval(sample, 20);
  const stdout: Buffer[] = [];
  let stderr = "";
  child.stdout?.on("data", (data: Buffer) => stdout.push(data));
  child.stderr?.on("data", (data: Buffer) => (stderr += String(data)));
  if ((options.pauseMs ?? 0) > 0) {
    child.stdout?.pause();
    setTimeout(() => child.stdout?.resume(), options.pauseMs);
  }
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearInterval(sampler);
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr,
        peakRssMb: peakKb / 1024,
        elapsedMs: performance.now() - started,
      });
    }),
  );
}

/** This process's environment without the service and the color settings (a test sets its own). */
function environment(): Record<string, string | undefined> {
  const colors = new Set(["NO_COLOR", "FORCE_COLOR"]);
  const kept = Object.entries(process.env).filter(([name]) => !colors.has(name));
  return { ...Object.fromEntries(kept), PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "" };
}
