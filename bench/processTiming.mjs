// What the benches that time whole `pathlab` processes share (bench/command.mjs, bench/help.mjs):
// their command line, `[--runs N] [ENTRY…]`, one timed run of `node …`, and the load average.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's folder. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * `--runs N` (default `defaultRuns`) and the entries named after it (default this checkout's
 * compiled `dist/cli/main.js`).
 */
export function commandLine(argv, defaultRuns) {
  const args = [...argv];
  const runsAt = args.indexOf("--runs");
  const runs = runsAt === -1 ? defaultRuns : Number(args.splice(runsAt, 2)[1]);
  const entries = args.length > 0 ? args : [path.join(root, "dist", "cli", "main.js")];
  return { runs, entries };
}

/** Wall-clock milliseconds of `node …words` (no service configured), which must exit 0. */
export function timedNode(words) {
  const started = performance.now();
  const result = spawnSync(process.execPath, words, {
    encoding: "utf8",
    env: { ...process.env, PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "" },
  });
  const milliseconds = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${words.join(" ")}: ${result.stderr}`);
  return milliseconds;
}

/** The load average over 1, 5 and 15 minutes: `1.24 1.50 1.61`. */
export function loadText() {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}
