import { describe, expect, it } from "vitest";
import ts from "typescript";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The package's entries: the root `src/index.ts` and each layer's `src/<layer>/index.ts`. */
const entries = [
  fileURLToPath(new URL("../src/index.ts", import.meta.url)),
  ...readdirSync(fileURLToPath(new URL("../src", import.meta.url)), { withFileTypes: true })
    .filter((item) => item.isDirectory())
    .map((item) => fileURLToPath(new URL(`../src/${item.name}/index.ts`, import.meta.url)))
    .filter((file) => existsSync(file)),
];

/** Every symbol `entry` exports, with whether its declaration's TSDoc has an `@example`. */
function exportsWithExamples(entry: string): { name: string; hasExample: boolean }[] {
  const program = ts.createProgram([entry], {
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error(`cannot read ${entry}`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${entry} is not a module`);
  return checker.getExportsOfModule(module).map((exported) => {
    const symbol =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    const hasExample = declarations.some((declaration) =>
      ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "example"),
    );
    return { name: exported.name, hasExample };
  });
}

describe("API docs", () => {
  it("finds the root and the layer entries", () => {
    expect(entries.length).toBeGreaterThanOrEqual(12);
  });

  it.each(entries)("every export of %s has TSDoc with an @example", (entry) => {
    const all = exportsWithExamples(entry);
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((exported) => !exported.hasExample).map((exported) => exported.name)).toEqual(
      [],
    );
  });
});
