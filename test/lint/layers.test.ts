import { describe, expect, it } from "vitest";
import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

/** Lints `code` as if it were the file at `filePath` and returns the no-restricted-imports messages. */
async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter(
      (message) =>
        message.ruleId === "no-restricted-imports" || message.ruleId === "pathlab/layers",
    )
    .map((message) => message.message);
}

describe("the layer rule of DESIGN.md §1", () => {
  it("forbids src/reference/ from importing the fast core", async () => {
    const messages = await restrictedImports(
      "src/reference/probe.ts",
      'import { stepQuantiles } from "../core/quantiles.ts";\nexport const probe = stepQuantiles;\n',
    );
    expect(messages).toEqual([expect.stringContaining("src/reference/ may not import src/core/")]);
  });

  it("forbids src/sandbox/ from importing core, insights, scoring and crosscheck", async () => {
    const code = [
      'import { a } from "../core/a.ts";',
      'import { b } from "../insights/b.ts";',
      'import { c } from "../scoring/c.ts";',
      'import { d } from "../crosscheck/d.ts";',
      "export const probe = [a, b, c, d];",
    ].join("\n");
    const messages = await restrictedImports("src/sandbox/probe.ts", code);
    expect(messages).toHaveLength(4);
    for (const layer of ["core", "insights", "scoring", "crosscheck"]) {
      expect(messages.some((message) => message.includes(`import src/${layer}/`))).toBe(true);
    }
  });

  it("lets src/sandbox/ import spec and reference", async () => {
    const code = [
      'import { a } from "../domain/a.ts";',
      'import { b } from "../reference/b.ts";',
      "export const probe = [a, b];",
    ].join("\n");
    expect(await restrictedImports("src/sandbox/probe.ts", code)).toEqual([]);
  });

  it("keeps src/core/ free of every import outside core/", async () => {
    const code = [
      'import { a } from "./a.ts";',
      'import { b } from "../domain/b.ts";',
      'import { cpus } from "node:os";',
      "export const probe = [a, b, cpus];",
    ].join("\n");
    const messages = await restrictedImports("src/core/probe.ts", code);
    expect(messages).toEqual([
      expect.stringContaining("src/core/ may not import src/domain/"),
      expect.stringContaining("src/core/ imports nothing outside itself"),
    ]);
  });

  it("keeps DuckDB in src/store/ and undici in src/client/", async () => {
    const code = 'import "@duckdb/node-api";\nimport "undici";\n';
    expect(await restrictedImports("src/store/probe.ts", code)).toEqual([
      expect.stringContaining("only src/client/ may import undici"),
    ]);
    expect(await restrictedImports("src/client/probe.ts", code)).toEqual([
      expect.stringContaining("only src/store/ may import @duckdb/node-api"),
    ]);
  });

  it("keeps vega in src/plots/, whether imported or loaded with import()", async () => {
    const code = 'export const load = () => import("vega");\nimport "vega-lite";\n';
    expect(await restrictedImports("src/plots/probe.ts", code)).toEqual([]);
    expect(await restrictedImports("src/jobs/probe.ts", code)).toEqual([
      expect.stringContaining("only src/plots/ may import vega (DESIGN.md"),
      expect.stringContaining("only src/plots/ may import vega-lite"),
    ]);
  });

  it("points imports down: src/core/ may not import src/paths/, src/paths/ may import src/core/", async () => {
    expect(
      await restrictedImports(
        "src/paths/probe.ts",
        'import "../core/a.ts";\nimport "apache-arrow";\n',
      ),
    ).toEqual([]);
    expect(await restrictedImports("src/core/probe.ts", 'import "../paths/a.ts";\n')).toEqual([
      expect.stringContaining("src/core/ may not import src/paths/"),
    ]);
  });

  it("resolves relative paths: src/sandbox/insights/ is the sandbox's own, src/insights/ is not", async () => {
    const own = 'import { a } from "../insights/a.ts";\nexport const probe = a;\n';
    expect(await restrictedImports("src/sandbox/server/probe.ts", own)).toEqual([]);
    const fast = 'import { a } from "../../insights/a.ts";\nexport const probe = a;\n';
    expect(await restrictedImports("src/sandbox/server/probe.ts", fast)).toEqual([
      expect.stringContaining("src/sandbox/ may not import src/insights/"),
    ]);
    const dynamic = 'export const probe = () => import("../../../core/a.ts");\n';
    expect(await restrictedImports("src/sandbox/server/deep/probe.ts", dynamic)).toEqual([
      expect.stringContaining("src/sandbox/ may not import src/core/"),
    ]);
  });

  it("keeps every layer away from the public entry src/index.ts", async () => {
    expect(
      await restrictedImports("src/jobs/probe.ts", 'export { x } from "../index.ts";\n'),
    ).toEqual([expect.stringContaining("may not import the public entry")]);
  });
});

/** Lints `code` as if it were the file at `filePath` and returns the messages of `ruleId`. */
async function messagesOf(ruleId: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter((message) => message.ruleId === ruleId)
    .map((message) => message.message);
}

describe("the shape rules of the code", () => {
  it("keeps SQL in src/store/: a statement in a string or template elsewhere is reported", async () => {
    const code = [
      'export const a = "SELECT count(*) FROM runs";',
      "export const b = (t: string) => `WITH x AS (SELECT 1) SELECT * FROM ${t}`;",
      'export const c = "  INSERT INTO runs VALUES (1)";',
      "export const d = (columns: string) => `SELECT ${columns} FROM runs`;",
      'export const e = (columns: string) => "SELECT " + columns;',
      'export const f = "COMMIT";',
    ].join("\n");
    expect(await messagesOf("pathlab/sql-in-store", "src/cli/probe.ts", code)).toHaveLength(6);
    expect(await messagesOf("pathlab/sql-in-store", "src/jobs/sync/probe.ts", code)).toHaveLength(
      6,
    );
    expect(await messagesOf("pathlab/sql-in-store", "src/store/probe.ts", code)).toEqual([]);
  });

  it("lets help text show a query: lower case, after the command", async () => {
    const code = [
      'export const hint = `  npx pathlab query "select * from runs"`;',
      'export const word = "with --lake, each unit is a folder";',
      'export const set = "Set the key with --api-key-file";',
      'export const method = "DELETE";',
      'export const label = "SELECT" + ":";',
    ].join("\n");
    expect(await messagesOf("pathlab/sql-in-store", "src/cli/probe.ts", code)).toEqual([]);
  });

  it("keeps each function of src/jobs/ within 120 lines", async () => {
    const body = (lines: number) =>
      `export function f(): number {\n  let n = 0;\n${"  n += 1;\n".repeat(lines - 4)}  return n;\n}\n`;
    expect(await messagesOf("max-lines-per-function", "src/jobs/probe.ts", body(120))).toEqual([]);
    expect(await messagesOf("max-lines-per-function", "src/jobs/probe.ts", body(121))).toEqual([
      expect.stringContaining("has too many lines (121)"),
    ]);
    expect(await messagesOf("max-lines-per-function", "src/core/probe.ts", body(121))).toEqual([]);
  });
});
