/**
 * The house rule on long files: a file of src/ over 300 lines says why at its top ("Over 300
 * lines because …" in its first comment), or is split.
 */

import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles, srcRoot } from "./sourceFiles.ts";

/** Whether `text` is over 300 lines and its first comment does not say why. */
function longWithoutWhy(text: string): boolean {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length <= 300) return false;
  const firstComment = /\/\*\*?[\s\S]*?\*\//.exec(text)?.[0] ?? "";
  return !/over 300 lines/i.test(firstComment);
}

describe("long files in src/", () => {
  it("say why at their top", () => {
    const files = sourceFiles();
    const unexplained = files
      .filter((file) => longWithoutWhy(readFileSync(file, "utf8")))
      .map((file) => relative(srcRoot, file));
    expect(unexplained).toEqual([]);
  });

  it("a file of 301 lines is found unless its first comment says why", () => {
    const body = "export const a = 1;\n".repeat(299);
    expect(longWithoutWhy(`/** A module. */\n${body}`)).toBe(false);
    expect(longWithoutWhy(`/** A module. */\n${body}x;\n`)).toBe(true);
    expect(longWithoutWhy(`/** A module. Over 300 lines because … */\n${body}x;\n`)).toBe(false);
  });
});
