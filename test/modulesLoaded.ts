/**
 * What a fresh `node` process loads: it runs with the preload test/cli/loadRecorder.mjs, which
 * records every module the process loads (ESM and CommonJS) into a file; read by the tests of what
 * `--help` and the light entries load.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const recorder = fileURLToPath(new URL("./cli/loadRecorder.mjs", import.meta.url));

/**
 * Runs `node --import loadRecorder.mjs ...nodeArgs`, recording into `loadsFile`; its exit code,
 * its stderr and every module it loaded (file paths and URLs, one each).
 * @example const { code, loaded } = await modulesLoaded(["-e", "0"], "/tmp/loads.txt");
 */
export async function modulesLoaded(
  nodeArgs: readonly string[],
  loadsFile: string,
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stderr: string; loaded: string[] }> {
  const child = spawn(process.execPath, ["--import", recorder, ...nodeArgs], {
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    env: { ...process.env, ...options.env, PATHLAB_LOADS_FILE: loadsFile },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => (stderr += String(data)));
  const code = await new Promise<number>((resolve) => child.on("close", resolve));
  const loaded = existsSync(loadsFile)
    ? readFileSync(loadsFile, "utf8").split("\n").filter(Boolean)
    : [];
  return { code, stderr, loaded };
}
