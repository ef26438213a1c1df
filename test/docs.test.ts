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

/** The src/ folder, as TypeScript writes the name of a source file in it. */
const srcFolder = fileURLToPath(new URL("../src/", import.meta.url));

/** One program over every entry, so each declaration is seen once however many entries export it. */
function entriesProgram(files: string[]): ts.Program {
  return ts.createProgram(files, {
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  });
}

/** The exported symbols of `entry`, aliases resolved to what they name. */
function exportedSymbols(program: ts.Program, entry: string): ts.Symbol[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error(`cannot read ${entry}`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${entry} is not a module`);
  return checker
    .getExportsOfModule(module)
    .map((exported) =>
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
    );
}

/** Every symbol `entry` exports, with whether its declaration's TSDoc has an `@example`. */
function exportsWithExamples(entry: string): { name: string; hasExample: boolean }[] {
  return exportedSymbols(entriesProgram([entry]), entry).map((symbol) => ({
    name: symbol.name,
    hasExample: (symbol.declarations ?? []).some((declaration) =>
      ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "example"),
    ),
  }));
}

/** A function or method the documentation shows, with the name the parameter check reports. */
interface Signature {
  name: string;
  declaration: ts.SignatureDeclaration;
}

/**
 * The signatures a reader of the docs sees: of each declared function or method, its overloads
 * when it has some (the implementation's signature is hidden), else its one declaration.
 */
function shownSignatures(
  name: string,
  declarations: readonly ts.SignatureDeclaration[],
): Signature[] {
  const shown =
    declarations.length > 1
      ? declarations.filter((declaration) => !("body" in declaration && declaration.body))
      : declarations;
  return shown.map((declaration) => ({ name, declaration }));
}

/** Whether TypeDoc leaves `node` out of the docs (`@internal`, as `excludeInternal` is set). */
function isInternal(node: ts.Node): boolean {
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === "internal");
}

/**
 * The exported functions, and the constructors and public methods of the exported classes, of
 * every entry; each declaration once.
 */
function publicSignatures(program: ts.Program): Signature[] {
  const declarations = new Set<ts.Declaration>();
  for (const entry of entries) {
    for (const symbol of exportedSymbols(program, entry)) {
      for (const declaration of symbol.declarations ?? []) declarations.add(declaration);
    }
  }
  const signatures: Signature[] = [];
  const functions = new Map<string, ts.FunctionDeclaration[]>();
  for (const declaration of declarations) {
    if (ts.isFunctionDeclaration(declaration) && declaration.name !== undefined) {
      const key = `${declaration.getSourceFile().fileName}:${declaration.name.text}`;
      functions.set(key, [...(functions.get(key) ?? []), declaration]);
    }
    if (ts.isClassDeclaration(declaration) && declaration.name !== undefined) {
      const members = new Map<string, ts.SignatureDeclaration[]>();
      for (const member of declaration.members) {
        if (!ts.isConstructorDeclaration(member) && !ts.isMethodDeclaration(member)) continue;
        const hidden = ts.ModifierFlags.Private | ts.ModifierFlags.Protected;
        if (ts.getCombinedModifierFlags(member) & hidden) continue;
        if (member.name !== undefined && ts.isPrivateIdentifier(member.name)) continue;
        const name = member.name === undefined ? "constructor" : member.name.getText();
        members.set(name, [...(members.get(name) ?? []), member]);
      }
      for (const [name, overloads] of members) {
        signatures.push(...shownSignatures(`${declaration.name.text}.${name}`, overloads));
      }
    }
  }
  for (const overloads of functions.values()) {
    signatures.push(...shownSignatures(overloads[0].name?.text ?? "", overloads));
  }
  return signatures.filter(
    ({ declaration }) => !isInternal(declaration) && !isInternal(declaration.parent),
  );
}

/** The text of a `@param` line, without the TSDoc hyphen. */
function tagText(tag: ts.JSDocParameterTag): string {
  return (ts.getTextOfJSDocComment(tag.comment) ?? "").replace(/^\s*-\s*/, "").trim();
}

/**
 * The `@param` line that documents `parameter`: TypeScript pairs a named parameter with the
 * `@param` of its name, and a destructured one with the `@param` at its position, whose name
 * TypeDoc then shows for it.
 */
function paramTag(parameter: ts.ParameterDeclaration): ts.JSDocParameterTag | undefined {
  return ts.getJSDocParameterTags(parameter)[0];
}

/**
 * Whether `parameter` is an options object: destructured, named `options`, or of a type named
 * `…Options`. Its `@param` line may then say what the whole is, as long as each field says what
 * it is.
 */
function isOptionsObject(checker: ts.TypeChecker, parameter: ts.ParameterDeclaration): boolean {
  if (!ts.isIdentifier(parameter.name) || parameter.name.text === "options") return true;
  const type = checker.getNonNullableType(checker.getTypeAtLocation(parameter));
  return /Options$/.test((type.aliasSymbol ?? type.getSymbol())?.name ?? "");
}

/**
 * The fields, declared in src/, of an options parameter's type that say nothing of themselves:
 * neither their own TSDoc nor a `@param <parameter>.<field>` line (TypeDoc's form for a field of
 * an object literal type).
 */
function undocumentedFields(
  checker: ts.TypeChecker,
  parameter: ts.ParameterDeclaration,
  documentedName: string,
): string[] {
  const fieldLines = new Set(
    ts
      .getJSDocTags(parameter.parent)
      .filter(ts.isJSDocParameterTag)
      .filter((tag) => ts.isQualifiedName(tag.name) && tag.name.left.getText() === documentedName)
      .filter((tag) => tagText(tag) !== "")
      .map((tag) => (tag.name as ts.QualifiedName).right.text),
  );
  const type = checker.getNonNullableType(checker.getTypeAtLocation(parameter));
  return type
    .getProperties()
    .filter((field) =>
      (field.declarations ?? []).some((declaration) =>
        declaration.getSourceFile().fileName.startsWith(srcFolder),
      ),
    )
    .filter((field) => field.getDocumentationComment(checker).length === 0)
    .filter((field) => !fieldLines.has(field.name))
    .map((field) => field.name);
}

/**
 * Every parameter of `signatures` that is not documented, as `file:line name(parameter)`: one
 * without a `@param` line with text, or a field that says nothing of itself of an options object
 * (as `name(parameter.field)`).
 */
function undocumentedParameters(checker: ts.TypeChecker, signatures: Signature[]): string[] {
  const missing: string[] = [];
  for (const { name, declaration } of signatures) {
    const source = declaration.getSourceFile();
    const line = source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1;
    const where = `${source.fileName.slice(srcFolder.length)}:${line} ${name}`;
    for (const parameter of declaration.parameters) {
      const tag = paramTag(parameter);
      const documentedName = tag?.name.getText() ?? parameter.name.getText();
      if (tag === undefined || tagText(tag) === "") missing.push(`${where}(${documentedName})`);
      if (isOptionsObject(checker, parameter)) {
        for (const field of undocumentedFields(checker, parameter, documentedName)) {
          missing.push(`${where}(${documentedName}.${field})`);
        }
      }
    }
  }
  return missing;
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

  describe("parameters", () => {
    const program = entriesProgram(entries);
    const checker = program.getTypeChecker();
    const signatures = publicSignatures(program);

    it("finds the exported functions, constructors and methods", () => {
      expect(signatures.map((signature) => signature.name)).toEqual(
        expect.arrayContaining([
          "runSync",
          "crpsEnsemble",
          "Store.withTransaction",
          "Store.constructor",
        ]),
      );
    });

    it("every parameter of an exported function, constructor or method has a @param with text", () => {
      expect(undocumentedParameters(checker, signatures)).toEqual([]);
    });
  });
});
