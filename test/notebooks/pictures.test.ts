/**
 * The notebooks' pictures in docs/: docs/notebooks.md shows every picture of docs/img/, and each
 * exists; and the committed pictures are what the executed notebooks drew (the first picture of
 * each section, `scripts/notebookPictures.mjs`), byte for byte: the same seed and clocks draw the
 * same pictures. The second check reads the pictures committed at HEAD, since `npm run notebooks`
 * writes new ones into docs/img/; it is skipped, and says why, without executed copies or git
 * (PATHLAB_REQUIRE_NOTEBOOKS=1, as in CI, makes that a failure).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { notebookPictures } from "../../scripts/notebookPictures.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const imageDirectory = path.join(root, "docs", "img");
const executedDirectory = path.join(root, "notebooks", ".executed");
const names = readdirSync(path.join(root, "notebooks"))
  .filter((name) => name.endsWith(".ipynb"))
  .sort();
const required = process.env.PATHLAB_REQUIRE_NOTEBOOKS === "1";

/** The bytes of `file` as committed at HEAD, or undefined outside a git checkout. */
function committed(file: string): Buffer | undefined {
  try {
    return execFileSync("git", ["show", `HEAD:${file}`], { cwd: root, maxBuffer: 1 << 26 });
  } catch {
    return undefined;
  }
}

describe("docs/notebooks.md's pictures", () => {
  it("shows every picture of docs/img/, and each picture it shows exists", () => {
    const page = readFileSync(path.join(root, "docs", "notebooks.md"), "utf8");
    const shown = [...page.matchAll(/!\[[^\]]+\]\(img\/([^)]+)\)/g)].map((match) => match[1]);
    const files = readdirSync(imageDirectory).filter((file) => file.endsWith(".png"));
    expect(files.length).toBeGreaterThanOrEqual(names.length);
    expect([...shown].sort()).toEqual([...files].sort());
  });
});

const missing = names.filter((name) => !existsSync(path.join(executedDirectory, name)));
const noGit = committed("package.json") === undefined;
const reason =
  missing.length > 0
    ? `no executed copy of ${missing.join(", ")}: run \`npm run notebooks\``
    : noGit
      ? "not a git checkout: the committed pictures cannot be read"
      : undefined;
if (reason !== undefined && !required) console.warn(`notebooks: skipping the pictures: ${reason}`);

describe.skipIf(reason !== undefined && !required)(
  `the committed pictures${reason !== undefined && !required ? ` (skipped: ${reason})` : ""}`,
  () => {
    it.each(names)("of %s are what its executed copy drew", (name) => {
      const drawn = notebookPictures(path.join(executedDirectory, name));
      expect(drawn.length).toBeGreaterThan(0);
      for (const picture of drawn) {
        const stored = committed(`docs/img/${picture.file}`);
        expect(stored, `docs/img/${picture.file} is not committed`).toBeDefined();
        // compared as a flag, not as bytes: a difference would print two images' worth of bytes
        expect(
          Buffer.compare(stored ?? Buffer.alloc(0), picture.png) === 0,
          `docs/img/${picture.file} (${picture.title}) is stale: commit what \`npm run notebooks\` wrote`,
        ).toBe(true);
      }
    });
  },
);
