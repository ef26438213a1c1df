/**
 * The package as a new user installs it: `npm pack` of the repository (dist/ is built by the
 * global setup), `npm install <tarball>` in a fresh ESM project in a temp folder, then the library
 * under plain node and under Deno, a strict TypeScript consumer, the `pathlab` command and the
 * README's examples, each in a child process whose only copy of pathlab is the installed one.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  denoPath,
  denoUnavailable,
  fixture,
  installConsumer,
  packTarball,
  repoRoot,
  run,
  startServe,
  tscPath,
  writeTsconfig,
  type RunResult,
} from "./consumerProject.ts";
import * as contents from "./packageContents.ts";

const NOW = "2026-11-21T10:00:00Z";
const MISSING_EXPORT = 'import { crpsEnsembel } from "pathlab";\nconsole.log(crpsEnsembel);\n';
const missingExportError =
  /SyntaxError: .*'pathlab' does not provide an export named 'crpsEnsembel'/;
const denoProblem = denoUnavailable();
if (denoProblem !== undefined)
  console.warn(`test/package: SKIPPING the Deno checks: ${denoProblem}`);

let temporary: string;
let entries: string[];
let project: string;
let installed: string;

/** Runs plain `node` in the consumer project. */
const node = (args: string[], timeoutMs = 60_000, env?: Record<string, string>) =>
  run(process.execPath, args, { cwd: project, timeoutMs, ...(env && { env }) });
/** Runs the repository's tsc on a tsconfig of the consumer project. */
const tsc = (tsconfig: string, ...extra: string[]) =>
  node([tscPath, "-p", tsconfig, "--pretty", "false", ...extra]);
/** `npx pathlab …` in the consumer project (`--no`: never fetch a `pathlab` from the registry). */
const npx = (args: string[], timeoutMs = 60_000) =>
  run("npx", ["--no", "--", "pathlab", ...args], { cwd: project, timeoutMs });
/** A child's exit and output, for failure messages. */
const shown = (result: RunResult) => `exit ${result.code}\n${result.stdout}\n${result.stderr}`;

beforeAll(async () => {
  temporary = mkdtempSync(join(tmpdir(), "pathlab-package-"));
  const tarball = await packTarball(temporary);
  entries = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n");
  project = join(temporary, "consumer");
  installed = join(project, "node_modules/pathlab");
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
  const install = await installConsumer(project, tarball, manifest.devDependencies["@types/node"]);
  if (install.code !== 0) throw new Error(`npm install of the tarball failed: ${shown(install)}`);
  console.info(
    `test/package: npm install <tarball> took ${(install.durationMs / 1000).toFixed(1)} s`,
  );
}, 240_000);

afterAll(() => {
  if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds package.json, README.md, LICENSE and dist/ only: no sources, tests, shims, build info or stale output", () => {
    const outside = entries.filter((entry) => !entry.startsWith("package/dist/"));
    expect(outside.sort()).toEqual(
      ["LICENSE", "README.md", "package.json"].map((name) => `package/${name}`),
    );
    expect(contents.unwantedEntries(entries)).toEqual([]);
    expect(entries.filter((entry) => entry.endsWith(".js")).length).toBeGreaterThan(100);
    expect(contents.modulesWithoutDeclarations(entries)).toEqual([]);
    expect(contents.modulesWithoutSources(entries, join(repoRoot, "src"))).toEqual([]);
  });

  it("installs every file its manifest names, and no compiled module imports a .ts file", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    const layers = contents.LAYERS.map((layer) => `./${layer}`);
    expect(Object.keys(manifest.exports)).toEqual([".", ...layers, "./package.json"]);
    expect(contents.missingTargets(installed, contents.manifestTargets(manifest))).toEqual([]);
    expect(readFileSync(join(installed, manifest.bin.pathlab), "utf8")).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    );
    expect(contents.compiledTsImports(installed, entries)).toEqual([]);
  });
});

describe("the library under plain node", () => {
  it("imports the root and every layer entry, computes a known CRPS and starts both worker pools", async () => {
    copyFileSync(fixture("imports.mjs"), join(project, "imports.mjs"));
    const result = await node(["imports.mjs", "--pools"]);
    expect(result.code, shown(result)).toBe(0);
    contents.expectImportReport(JSON.parse(result.stdout), `node ${process.version}`);
  });

  it("rejects an import of a name the package does not export (the check can fail)", async () => {
    writeFileSync(join(project, "missing.mjs"), MISSING_EXPORT);
    const result = await node(["missing.mjs"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(missingExportError);
  });
});

describe.skipIf(denoProblem !== undefined)("the library under Deno", () => {
  const deno = (file: string, ...args: string[]) =>
    run(denoPath, ["run", "--allow-all", "--node-modules-dir=manual", file, ...args], {
      cwd: project,
      timeoutMs: 60_000,
      env: { DENO_DIR: join(temporary, "deno-cache"), DENO_NO_UPDATE_CHECK: "1" },
    });

  it("runs the same imports from the project's node_modules as main.ts, pools included", async () => {
    copyFileSync(fixture("imports.mjs"), join(project, "main.ts"));
    const result = await deno("main.ts", "--pools");
    expect(result.code, shown(result)).toBe(0);
    contents.expectImportReport(JSON.parse(result.stdout), "deno");
  });

  it("rejects an import of a name the package does not export (the check can fail)", async () => {
    // the name is used, so that the TypeScript transform cannot drop the import as type-only
    writeFileSync(join(project, "missing.ts"), MISSING_EXPORT);
    const result = await deno("missing.ts");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(missingExportError);
  });
});

describe("a strict TypeScript consumer (strict, skipLibCheck false, NodeNext)", () => {
  it("compiles with zero errors against the installed declarations", async () => {
    copyFileSync(fixture("consumer.ts"), join(project, "consumer.ts"));
    writeTsconfig(join(project, "tsconfig.json"), ["consumer.ts"]);
    const result = await tsc("tsconfig.json", "--listFiles");
    expect(result.code, shown(result)).toBe(0);
    const files = result.stdout.trim().split("\n");
    for (const entry of ["", "core/", "store/", "domain/", "client/"]) {
      expect(files).toContain(join(installed, `dist/${entry}index.d.ts`));
    }
    expect(files).toContain(join(project, "node_modules/@types/node/index.d.ts"));
    // nothing from the repository but the compiler's own lib.*.d.ts
    const typescriptLib = join(repoRoot, "node_modules/typescript/lib/");
    const fromRepo = files.filter((file) => file.startsWith(repoRoot));
    expect(fromRepo.filter((file) => !file.startsWith(typescriptLib))).toEqual([]);
  });

  it("reports a deliberate type error and a missing type export (the check can fail)", async () => {
    const consumer = readFileSync(fixture("consumer.ts"), "utf8");
    const broken = [
      'import type { PathSetNotExported } from "pathlab";',
      consumer,
      'export const wrong: number = crpsEnsemble(Float64Array.of(1), "2");',
      "export type Unused = PathSetNotExported;",
    ];
    writeFileSync(join(project, "broken.ts"), broken.join("\n"));
    writeTsconfig(join(project, "tsconfig.broken.json"), ["broken.ts"]);
    const result = await tsc("tsconfig.broken.json");
    expect(result.code).not.toBe(0);
    const errors = result.stdout.trim().split("\n");
    expect(errors, result.stdout).toHaveLength(2);
    expect(errors[0]).toMatch(
      /^broken\.ts\(1,\d+\): error TS2305: .*no exported member 'PathSetNotExported'/,
    );
    expect(errors[1]).toMatch(/^broken\.ts\(\d+,\d+\): error TS2345: Argument of type 'string'/);
  });
});

describe("the pathlab command of the installed package", () => {
  it("npx pathlab --help prints the usage", async () => {
    const result = await npx(["--help"]);
    expect(result.code, shown(result)).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pathlab \[options\] \[command\]/);
    for (const command of ["sync", "score", "query", "export", "operations", "serve"]) {
      expect(result.stdout).toMatch(new RegExp(`\\n  ${command} `));
    }
  });

  it("syncs BTC 1h from the embedded sandbox (a worker thread) into a database, then queries it", async () => {
    const database = join(project, "p.duckdb");
    const args = ["--assets", "BTC", "--horizons", "1h", "--db", database, "--now", NOW];
    const sync = await npx(["sync", ...args], 120_000);
    expect(sync.code, shown(sync)).toBe(0);
    expect(sync.stderr).toContain("pathlab sync: embedded sandbox at http://127.0.0.1:");
    expect(sync.stdout).toMatch(/│ BTC +│ 1h +│ 2026-11-21T10:00:00\+00:00 │ stored/);
    const query = await npx([
      "query",
      "select count(*) as n from insights",
      "--db",
      database,
      "--json",
    ]);
    expect(query.code, shown(query)).toBe(0);
    const rows = JSON.parse(query.stdout) as { n: string }[];
    expect(Number(rows[0].n)).toBeGreaterThan(0);
  }, 180_000);

  it("`pathlab mcp` without the MCP SDK, an optional peer, exits 2 on the line that installs it", async () => {
    const sdk = "@modelcontextprotocol/sdk";
    const range = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
      .peerDependencies[sdk];
    expect(existsSync(join(project, "node_modules", sdk))).toBe(false);
    const result = await npx(["mcp", "--db", join(project, "absent.duckdb")]);
    expect(result.code, shown(result)).toBe(2);
    expect(result.stderr).toContain(
      `mcp: needs the MCP SDK, an optional peer dependency of pathlab: npm install "${sdk}@${range}"`,
    );
    expect(result.stdout).toBe("");
  });
});

describe("the library examples of README.md and docs/, compiled and run against the package", () => {
  let examples: string[];
  let compiled: RunResult;
  beforeAll(async () => {
    mkdirSync(join(project, "examples"));
    // the library's examples (examples/models/ holds models for `pathlab backtest`, not library code)
    examples = readdirSync(join(repoRoot, "examples"))
      .filter((name) => name.endsWith(".ts"))
      .sort();
    for (const name of examples) {
      copyFileSync(join(repoRoot, "examples", name), join(project, "examples", name));
    }
    const files = examples.map((name) => `examples/${name}`);
    const emit = { outDir: "out", rootDir: "examples" };
    writeTsconfig(join(project, "tsconfig.examples.json"), files, emit);
    compiled = await tsc("tsconfig.examples.json");
  }, 60_000);

  it("every example compiles with zero errors (strict, NodeNext)", () => {
    expect(examples).toEqual([
      "candidate.ts",
      "client.ts",
      "core.ts",
      "plots.ts",
      "quickstart.ts",
      "recheck.ts",
    ]);
    expect(compiled.code, shown(compiled)).toBe(0);
    expect(readdirSync(join(project, "out")).sort()).toEqual([
      "candidate.js",
      "client.js",
      "core.js",
      "plots.js",
      "quickstart.js",
      "recheck.js",
    ]);
  });

  it("core.ts computes the numbers docs/library.md shows", async () => {
    const script =
      'import { results } from "./out/core.js";\nconsole.log("RESULTS " + JSON.stringify(results));\n';
    writeFileSync(join(project, "core-results.mjs"), script);
    const result = await node(["core-results.mjs"]);
    expect(result.code, shown(result)).toBe(0);
    const results = JSON.parse(/^RESULTS (.*)$/m.exec(result.stdout)?.[1] ?? "null");
    // as test/readme.test.ts: re-based terminal prices 103, 97, 102 and 103, 98, 95
    expect(results.medianAtEnd).toBe(100);
    expect(results.touchDown97).toBeCloseTo(2 / 6, 15);
    expect(results.touchUp103).toBeCloseTo(2 / 6, 15);
    expect(results.touchUp103StandardError).toBeCloseTo(Math.sqrt(((1 / 3) * (2 / 3)) / 6), 15);
    expect(results.arrowRows).toBe(3);
  });

  it("candidate.ts prints the validator's verdicts", async () => {
    const result = await node(["out/candidate.js"]);
    expect(result.code, shown(result)).toBe(0);
    expect(result.stdout).toContain("Price format is incorrect: too many digits 98938.93474291");
    expect(result.stdout).toContain("fixed: 'CORRECT'");
  });

  it("plots.ts names the chart packages it lacks; once they are installed, it draws a synced database's latest percentile fan to SVG and PNG, without a browser", async () => {
    const database = join(project, "plots.duckdb");
    const sync = await npx(
      ["sync", "--assets", "BTC", "--horizons", "1h", "--db", database, "--now", NOW],
      120_000,
    );
    expect(sync.code, shown(sync)).toBe(0);
    // The chart packages are optional peer dependencies: `npm install pathlab` leaves them out.
    const peers = JSON.parse(
      readFileSync(join(installed, "package.json"), "utf8"),
    ).peerDependencies;
    // in the order the message names them
    const specs = ["vega", "vega-lite", "@resvg/resvg-wasm"].map(
      (name) => `${name}@${peers[name]}`,
    );
    expect(Object.keys(peers).sort()).toEqual([
      "@modelcontextprotocol/sdk",
      "@resvg/resvg-wasm",
      "vega",
      "vega-lite",
    ]);
    for (const name of Object.keys(peers))
      expect(existsSync(join(project, "node_modules", name))).toBe(false);
    const lacking = await node(["out/plots.js", database]);
    expect(lacking.code, shown(lacking)).toBe(1);
    expect(lacking.stderr).toContain(
      `renderSvg: drawing a chart needs the package vega, which is not installed; the chart packages are optional dependencies of pathlab: npm install ${specs.map((spec) => `"${spec}"`).join(" ")}`,
    );
    const install = await run(
      "npm",
      ["install", ...specs, "--no-audit", "--no-fund", "--prefer-offline"],
      {
        cwd: project,
        timeoutMs: 170_000,
      },
    );
    expect(install.code, shown(install)).toBe(0);
    const result = await node(["out/plots.js", database]);
    expect(result.code, shown(result)).toBe(0);
    expect(result.stdout).toBe("BTC: percentiles of the forecast from 2026-11-21T10:00:00Z\n");
    const svg = readFileSync(join(project, "fan.svg"), "utf8");
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain(">BTC price (USD)</text>");
    const png = readFileSync(join(project, "fan.png"));
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    // twice the SVG's width (the IHDR chunk's first field)
    expect(png.readUInt32BE(16)).toBe(2 * Number(/width="(\d+)"/.exec(svg)![1]));
  }, 360_000);

  it("client.ts runs against `pathlab serve --naming live` and ends on the InvalidParamsError", async () => {
    const apiKey = "sk-package-consumer-5b1e";
    const serveArgs = ["--port", "0", "--naming", "live", "--now", NOW, "--api-key", apiKey];
    const serve = await startServe(project, serveArgs, 30_000);
    try {
      const env = { PATHLAB_BASE_URL: serve.url, PATHLAB_API_KEY: apiKey };
      const result = await node(["out/client.js"], 60_000, env);
      expect(result.code, shown(result)).toBe(0);
      const lines = result.stdout.split("\n");
      expect(lines[0]).toMatch(/^(0(\.\d+)?|1)$/); // a liquidation probability
      expect(result.stdout).toMatch(/\[ \d+, 1000 \]/); // a top miner's set of 1,000 paths
      expect(lines).toContain("true"); // the generic request returned the same record
      expect(result.stderr).toMatch(
        /^\/validation\/smoothed-scores: parameter "to": expected a time at most 7 days/,
      );
    } finally {
      await serve.close();
    }
  }, 90_000);
});
