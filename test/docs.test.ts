import { describe, expect, it } from "vitest";
import ts from "typescript";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));

/** Every symbol `src/index.ts` exports, with whether its declaration's TSDoc has an `@example`. */
function exportsWithExamples(): { name: string; hasExample: boolean }[] {
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
  it("every export of src/index.ts has TSDoc with an @example", () => {
    const all = exportsWithExamples();
    expect(all.map((entry) => entry.name)).toContain("createClient");
    expect(all.filter((entry) => !entry.hasExample).map((entry) => entry.name)).toEqual([]);
  });
});
