/**
 * `pathlab --help` and `pathlab <command> --help` answer at once because building the program loads
 * commander and pathlab's own small modules only: each command loads DuckDB, BullMQ, Arrow, Vega,
 * the client… when it runs. Checked on the compiled command with a preload (loadRecorder.mjs) that
 * records every module the process loads, ESM and CommonJS: `node dist/cli/main.js --help`, and
 * one `node` that answers every command's `--help` in turn through the compiled program (what
 * main.js runs), whose packages are those of every answer together. No timing is asserted here;
 * `node bench/help.mjs` times `--help` beside `node -e 0`.
 */

import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../src/cli/program.ts";
import { temporaryDatabase } from "../store/helpers.ts";
import { modulesLoaded } from "../modulesLoaded.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** The packages that make the command slow to start (about a second together on a busy machine). */
const HEAVY = ["@duckdb/node-api", "bullmq", "apache-arrow", "vega", "vega-lite"];

const temporary = temporaryDatabase("help.duckdb");
let runs = 0;

/** The package a loaded file or URL belongs to (`@duckdb/node-api`, `commander`), if any. */
function packageOf(loaded: string): string | undefined {
  const at = loaded.lastIndexOf("node_modules/");
  if (at === -1) return undefined;
  const [first, second] = loaded.slice(at + "node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

/** `node --import loadRecorder.mjs …nodeArgs`: its exit code and the packages it loaded. */
async function packagesLoaded(
  nodeArgs: readonly string[],
): Promise<{ code: number; packages: string[] }> {
  const { code, stderr, loaded } = await modulesLoaded(
    nodeArgs,
    join(temporary.folder, `loads-${++runs}.txt`),
    { cwd: temporary.folder, env: { PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "" } },
  );
  expect(stderr, nodeArgs.join(" ")).toBe("");
  const packages = new Set(loaded.map(packageOf).filter((name) => name !== undefined));
  return { code, packages: [...packages].sort() };
}

/** `dist/cli/main.js …args`, as node's arguments. */
function main(...args: string[]): string[] {
  return [join(repoRoot, "dist/cli/main.js"), ...args];
}

/**
 * A script for `node -e` that runs the compiled program on each of `argvs` in turn and names on
 * stderr each that does not exit 0.
 */
function programRuns(argvs: readonly string[][]): string[] {
  const program = pathToFileURL(join(repoRoot, "dist/cli/program.js")).href;
  return [
    "--input-type=module",
    "-e",
    `const { runCli } = await import(${JSON.stringify(program)});
for (const argv of ${JSON.stringify(argvs)}) {
  const code = await runCli(argv);
  if (code !== 0) console.error(\`\${argv.join(" ")}: exit \${code}\`);
}`,
  ];
}

/** Every command of the program and every subcommand (`enqueue score`, `queue status`…). */
function commandPaths(): string[][] {
  const paths: string[][] = [];
  const visit = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      paths.push([...path, sub.name()]);
      visit(sub, [...path, sub.name()]);
    }
  };
  visit(buildProgram(), []);
  return paths;
}

describe("pathlab --help", () => {
  it("lists every command it checks below, subcommands included", () => {
    const names = commandPaths().map((path) => path.join(" "));
    expect(names).toEqual(
      expect.arrayContaining(["sync", "query", "export", "enqueue score", "queue status", "serve"]),
    );
    expect(names.length).toBeGreaterThanOrEqual(19);
  });

  it("of the program and of every command loads commander and no other package", async () => {
    const helps = commandPaths().map((path) => [...path, "--help"]);
    for (const nodeArgs of [main("--help"), programRuns(helps)]) {
      const { code, packages } = await packagesLoaded(nodeArgs);
      expect(code, nodeArgs.join(" ")).toBe(0);
      expect(
        packages.filter((name) => HEAVY.includes(name)),
        nodeArgs.join(" "),
      ).toEqual([]);
      expect(packages, nodeArgs.join(" ")).toEqual(["commander"]);
    }
  }, 60_000);

  it("the recorder sees the packages a command loads when it runs (this check can fail)", async () => {
    const { code, packages } = await packagesLoaded(
      main("query", "select 1 as n", "--db", temporary.path),
    );
    expect(code).toBe(0);
    expect(packages).toEqual(
      expect.arrayContaining(["@duckdb/node-api", "cli-table3", "commander"]),
    );
  }, 60_000);
});
