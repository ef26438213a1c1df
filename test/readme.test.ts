/**
 * What README.md and the guides of docs/ claim beyond their examples (scripts/docs.mjs runs those,
 * test/readmeExamples.test.ts): their length and width, their links, that they point at nothing
 * outside the repository, the names docs/library.md gives each entry, and the numbers of two
 * library examples, checked by hand.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
/** The guides (docs/architecture.md is the contributors', written apart). */
const guides = readdirSync(path.join(root, "docs"))
  .filter((name) => name.endsWith(".md") && name !== "architecture.md")
  .map((name) => `docs/${name}`);
const documents = ["README.md", ...guides];
/** A document without its fenced code blocks. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
/** GitHub's anchor of a heading. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");

describe("README", () => {
  it("is read in five minutes: at most 250 lines, none over 120 characters", () => {
    const lines = read("README.md").split("\n");
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(lines.filter((line) => line.length > 120)).toEqual([]);
  });

  it("gives the quick start, the two test tiers and the configuration variables", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
    expect(readme).toContain("npm run test:e2e");
    expect(readme).toContain("PATHLAB_BASE_URL");
    expect(readme).toContain("PATHLAB_API_KEY");
  });

  it("cites no test file and no bench notes, and links every guide", () => {
    const readme = read("README.md");
    expect(readme).not.toMatch(/\btest\/|\.test\.ts|bench\//);
    for (const guide of guides) expect(readme, guide).toContain(`](${guide})`);
  });
});

describe("README and docs/", () => {
  it("show every example of examples/ verbatim (tsc checks them there)", () => {
    const all = documents.map(read).join("\n");
    // the library's examples; examples/models/ holds models for `pathlab backtest`
    const library = readdirSync(path.join(root, "examples")).filter((file) => file.endsWith(".ts"));
    expect(library.length).toBeGreaterThan(3);
    for (const file of library) {
      const body = read(`examples/${file}`).split("\n").slice(1).join("\n"); // minus the note
      expect(all, file).toContain("```ts\n" + body + "```");
    }
  });

  it("point at nothing outside the repository", () => {
    for (const file of documents) {
      const text = read(file);
      for (const outside of [
        "../shared",
        "DOMAIN.md",
        "DESIGN.md",
        "STYLE.md",
        "fixtures/captured",
      ]) {
        expect(text, `${file} names ${outside}`).not.toContain(outside);
      }
      for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue; // a web address
        const [file_, hash] = target.split("#");
        const resolved =
          file_ === "" ? path.join(root, file) : path.resolve(root, path.dirname(file), file_);
        expect(path.relative(root, resolved), `${file}: ${target}`).not.toMatch(/^\.\./);
        expect(existsSync(resolved), `${file}: ${target}`).toBe(true);
        if (hash !== undefined) {
          const headings = [...read(path.relative(root, resolved)).matchAll(/^#+ (.*)$/gm)];
          expect(
            headings.map((heading) => anchor(heading[1])),
            `${file}: ${target}`,
          ).toContain(hash);
        }
      }
    }
  });

  it("keep their prose to lines of 120 characters", () => {
    for (const file of guides) {
      const long = prose(read(file))
        .split("\n")
        .filter((line) => line.length > 120);
      expect(long, file).toEqual([]);
    }
  });
});

describe("docs/library.md", () => {
  it("names, for each entry, only what that entry exports", async () => {
    const library = read("docs/library.md");
    const sections = [...library.matchAll(/^## `pathlab\/(\w+)`\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)];
    expect(sections.map((section) => section[1])).toEqual([
      "domain",
      "client",
      "paths",
      "core",
      "insights",
      "crosscheck",
      "scoring",
      "store",
      "sandbox",
      "service",
      "jobs",
      "plots",
    ]);
    for (const [, layer, text] of sections) {
      const values = Object.keys(await import(/* @vite-ignore */ `pathlab/${layer}`));
      const types = read(`dist/${layer}/index.d.ts`);
      // each list item names exports before its colon: "- `a`, `b`: what they do"
      const named = [...text.matchAll(/^- ((?:`[^`]+`(?:, )?)+):/gm)].flatMap((item) =>
        [...item[1].matchAll(/`([^`]+)`/g)].map((name) => name[1]),
      );
      expect(named.length, layer).toBeGreaterThanOrEqual(3);
      for (const name of named) {
        const exported = values.includes(name) || new RegExp(`\\b${name}\\b`).test(types);
        expect(exported, `pathlab/${layer} exports ${name}`).toBe(true);
      }
    }
  });
});

describe("the library examples' numbers, checked by hand", () => {
  it("examples/core.ts", async () => {
    const { results } = await import("../examples/core.ts");
    // re-based terminal prices: miner 7 → 103, 97, 102; miner 9 (−1) → 103, 98, 95
    // median (R-7, h = 2.5 over 95 97 98 102 103 103) = 98 + 0.5·(102 − 98) = 100
    expect(results.medianAtEnd).toBe(100);
    expect(results.touchDown97).toBeCloseTo(2 / 6, 15); // paths reaching ≤ 97: 2 of 6
    expect(results.touchUp103).toBeCloseTo(2 / 6, 15); // paths reaching ≥ 103: 2 of 6
    expect(results.touchUp103StandardError).toBeCloseTo(Math.sqrt(((1 / 3) * (2 / 3)) / 6), 15);
    expect(results.arrowRows).toBe(3);
  });

  it("examples/candidate.ts shows the validator's verdicts", async () => {
    const { results } = await import("../examples/candidate.ts");
    // path 0 at step 1: 98941.903 · (1 − 3e-5) = 98938.93474291, 13 significant digits
    expect(results.unrounded).toBe("Price format is incorrect: too many digits 98938.93474291");
    expect(results.fixed).toBe("CORRECT");
    expect(results.rule).toBe("current");
    expect(results.era).toMatch(/^since 2026-09-08: crypto-1h, crypto-24h, com-equ-24h × 1\/3; /);
  });
});
