/**
 * A newcomer who runs the examples of README.md, docs/ and examples/ in the clone leaves
 * `git status` clean: every folder or file they write (`--out`, `--lake`, `--record`, a shell
 * redirection, `writeFile`) is one that .gitignore ignores.
 */

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The files whose examples a newcomer runs: README.md, docs/*.md and examples/*. */
function exampleFiles(): string[] {
  const files = ["README.md"];
  for (const folder of ["docs", "examples"]) {
    if (!existsSync(join(repoRoot, folder))) continue;
    for (const name of readdirSync(join(repoRoot, folder))) files.push(`${folder}/${name}`);
  }
  return files.filter((file) => /\.(md|ts|mjs)$/.test(file));
}

/**
 * What the commands of `text` write, relative to the clone: folders (with a final `/`) after
 * `--out`, `--lake` and `--record`, files after `>` on a command line and in `writeFile("…")`.
 * Placeholders (`DIR`, `FILE`), absolute paths and variables are not paths of the clone.
 */
function writtenPaths(text: string): string[] {
  const written: string[] = [];
  for (const line of text.split("\n")) {
    const command = /npx pathlab|node |npm /.test(line);
    for (const match of line.matchAll(
      /--(?:out|lake|record)[ =]([^-\s`'"|;&)\]][^\s`'"|;&)\]]*)/g,
    )) {
      written.push(`${match[1].replace(/\/$/, "")}/`);
    }
    if (command) {
      for (const match of line.matchAll(/\s>>?\s*([^\s`'"|;&)]+)/g)) written.push(match[1]);
    }
    for (const match of line.matchAll(/writeFile(?:Sync)?\(\s*["']([^"']+)["']/g)) {
      written.push(match[1]);
    }
  }
  return written
    .map((path) => path.replace(/^\.\//, ""))
    .filter((path) => !/^[A-Z_]+\/?$/.test(path) && !/^[/$~<]|^\/dev\//.test(path));
}

describe("the examples' outputs", () => {
  it("finds what a command writes, and leaves placeholders out", () => {
    expect(
      writtenPaths(
        "$ npx pathlab baseline --out ./my-model --now x\n" +
          "npx pathlab worker --lake DIR\n" +
          "  npx pathlab query -f report.sql --json > report.json\n" +
          'await writeFile("fan.svg", svg);\n' +
          "npx pathlab export --out /tmp/exports\n" +
          "score --lake --candidate DIR",
      ),
    ).toEqual(["my-model/", "report.json", "fan.svg"]);
  });

  it("are ignored by git, so that running them leaves the clone's status clean", () => {
    const written = new Set<string>();
    for (const file of exampleFiles()) {
      for (const path of writtenPaths(readFileSync(join(repoRoot, file), "utf8"))) {
        written.add(path);
      }
    }
    expect([...written]).toEqual(expect.arrayContaining(["my-model/"]));
    const notIgnored = [...written].filter((path) => {
      try {
        execFileSync("git", ["check-ignore", "--quiet", "--no-index", path], { cwd: repoRoot });
        return false;
      } catch {
        return true;
      }
    });
    expect(notIgnored).toEqual([]);
  });
});
