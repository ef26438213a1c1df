/**
 * Helpers of test/package/consumer.test.ts: child processes with a clean environment, the packed
 * tarball, a fresh consumer project that installs it, and `pathlab serve` as a child process.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** A fixture of this folder. */
export const fixture = (name: string): string =>
  fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
/** The repository's TypeScript compiler (the consumer has none of its own). */
export const tscPath = join(repoRoot, "node_modules/typescript/bin/tsc");
/** The repository's Deno (a devDependency). */
export const denoPath = join(repoRoot, "node_modules/.bin/deno");

/** Why the repository's Deno cannot start here, or undefined when it can. */
export function denoUnavailable(): string | undefined {
  try {
    execFileSync(denoPath, ["--version"], { timeout: 20_000, stdio: "pipe", env: consumerEnv() });
    return undefined;
  } catch (error) {
    return `deno cannot start (${(error as Error).message.split("\n")[0]})`;
  }
}

/** What a finished child process left. */
export interface RunResult {
  /** Exit code; null when a signal (or the timeout) ended it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/** Variables of `npm test`, vitest and pathlab that a new user's shell would not have. */
const RUNNER_VARIABLE =
  /^(npm_(package|lifecycle)_|npm_(config_local_prefix|config_call|command|execpath|node_execpath)$|VITEST|PATHLAB_|(NODE_OPTIONS|NODE_ENV|TEST)$)/;

/**
 * The environment of a new user's shell: what `npm test` adds about the repository (its
 * `npm_package_*`, `npm_lifecycle_*`, `npm_config_local_prefix`: npm's own settings such as a
 * registry mirror stay), the test runner's (`VITEST*`, `NODE_OPTIONS` that could load a
 * TypeScript loader) and pathlab's configuration (`PATHLAB_*` would point a sync elsewhere) are
 * left out.
 */
export function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (RUNNER_VARIABLE.test(name)) continue;
    env[name] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs `command args` in `cwd` and resolves with its exit code and output (never rejects on exit). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; env?: Record<string, string> },
): Promise<RunResult> {
  const startMs = performance.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: consumerEnv(options.env),
        timeout: options.timeoutMs,
        killSignal: "SIGKILL",
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const durationMs = performance.now() - startMs;
        if (error === null) return resolve({ code: 0, stdout, stderr, durationMs });
        // a number: the exit code; otherwise it did not start (ENOENT) or a signal ended it
        const code = typeof error.code === "number" ? error.code : null;
        const why = code === null ? `\n[${error.message}; signal ${error.signal}]` : "";
        resolve({ code, stdout, stderr: stderr + why, durationMs });
      },
    );
  });
}

/** `npm pack` of the repository into `destination` (no lifecycle scripts); the tarball's path. */
export async function packTarball(destination: string): Promise<string> {
  const args = ["pack", "--ignore-scripts", "--pack-destination", destination];
  const packed = await run("npm", args, { cwd: repoRoot, timeoutMs: 60_000 });
  if (packed.code !== 0) throw new Error(`npm pack failed (${packed.code}): ${packed.stderr}`);
  const tarballs = readdirSync(destination).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1)
    throw new Error(`npm pack left ${tarballs.join(", ") || "no tarball"}`);
  return join(destination, tarballs[0]);
}

/**
 * A new ESM project in `folder` that installs the tarball (and `@types/node`, at the version the
 * repository develops against) from the registry as a user would; resolves with npm's run.
 */
export async function installConsumer(
  folder: string,
  tarball: string,
  typesNode: string,
): Promise<RunResult> {
  mkdirSync(folder, { recursive: true });
  const manifest = { name: "pathlab-consumer", version: "1.0.0", private: true, type: "module" };
  writeFileSync(join(folder, "package.json"), JSON.stringify(manifest, null, 2));
  const args = [
    "install",
    tarball,
    `@types/node@${typesNode}`,
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
  ];
  return run("npm", args, { cwd: folder, timeoutMs: 230_000 });
}

/** A strict NodeNext tsconfig for `files`, as a user of Node 20 would write it. */
export function writeTsconfig(
  path: string,
  files: readonly string[],
  emit?: { outDir: string; rootDir: string },
) {
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    lib: ["ES2023"],
    types: ["node"],
    ...(emit === undefined ? { noEmit: true } : emit),
  };
  writeFileSync(path, JSON.stringify({ compilerOptions, files }, null, 2));
}

/** A `pathlab serve` started from the consumer's installed bin; close() ends it by its pid. */
export interface ServeProcess {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `node_modules/.bin/pathlab serve args` in `cwd`; resolves once it prints its URL. */
export function startServe(
  cwd: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<ServeProcess> {
  const child = spawn(join(cwd, "node_modules/.bin/pathlab"), ["serve", ...args], {
    cwd,
    env: consumerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`pathlab serve printed no URL within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, close });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`pathlab serve exited (${code}) before listening: ${output}`));
    });
  });
}
