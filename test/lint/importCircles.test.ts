/**
 * No import circles in src/: every relative import (type-only and dynamic ones too, as
 * TypeScript's pre-processor lists them) followed from every file never comes back to it.
 */

import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles, srcRoot } from "./sourceFiles.ts";

/** Each file's relative imports, resolved to files of `files`. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .filter(({ fileName }) => fileName.startsWith("."))
        .map(({ fileName }) => resolve(dirname(file), fileName))
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
}

/** The strongly connected components (Tarjan) of more than one file, or a file importing itself. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(srcRoot, member));
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe("imports in src/", () => {
  it("form no circle, type-only imports included", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(circles(importGraph(files))).toEqual([]);
  });

  it("a circle of three files is found, and a type-only import is an edge", () => {
    const a = join(srcRoot, "probe/a.ts");
    const b = join(srcRoot, "probe/b.ts");
    const c = join(srcRoot, "probe/c.ts");
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([["probe/a.ts", "probe/b.ts", "probe/c.ts"]]);
    const typeOnly = ts.preProcessFile('import type { X } from "./b.ts";\n', true, true);
    expect(typeOnly.importedFiles.map((file) => file.fileName)).toEqual(["./b.ts"]);
  });
});
