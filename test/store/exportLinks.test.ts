/**
 * `exportParquet` with `overwrite` removes only the files of the tables it writes now, and never
 * follows a symbolic link inside the export folder: each choice of tables (every table, a subset,
 * a table the earlier export did not hold) meets each link (a table folder that links outside, a
 * file inside a table folder that links outside, the export folder itself a link), on real files.
 * What is right for each:
 * - a link where a table folder to write should be, or inside one: refused, naming it, and nothing
 *   is removed;
 * - a link in the folder of a table not written now: left alone, like everything of that table;
 * - the export folder itself a link: followed, as the path the user named; nothing below it is.
 * Every file under the links' targets keeps its bytes (SHA-256), and the manifest afterwards lists
 * the earlier export's tables that were kept.
 */

import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_MANIFEST, type ExportManifest } from "../../src/store/exportFolder.ts";
import { exportParquet, type ExportedTableName } from "../../src/store/exportParquet.ts";
import type { Store } from "../../src/store/openStore.ts";
import { filledStore } from "./filledStore.ts";
import { temporaryFolder } from "./helpers.ts";

let folder: string;
let remove: () => void;
let store: Store;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  store = await filledStore(folder);
}, 60_000);
afterAll(async () => {
  await store?.close();
  remove?.();
});

/** Every entry under `directory`, without following links: a file's SHA-256, a link's target. */
function entries(directory: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(directory, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(directory, entry);
    const stats = lstatSync(path);
    found[entry] = stats.isSymbolicLink()
      ? `link to ${readlinkSync(path)}`
      : stats.isDirectory()
        ? "folder"
        : createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return found;
}

function manifestOf(directory: string): ExportManifest {
  return JSON.parse(readFileSync(join(directory, EXPORT_MANIFEST), "utf8")) as ExportManifest;
}

/** The earlier export's tables; every choice below writes over it. */
const EARLIER: ExportedTableName[] = ["insights", "runs"];

const CHOICES: [string, ExportedTableName[] | undefined][] = [
  ["every table", undefined],
  ["a subset (runs)", ["runs"]],
  ["a table the earlier export did not hold (path_sets)", ["path_sets"]],
];

/** A link, made in an export folder `out`; `outside` holds the user's files it points at. */
const LINKS: [string, (out: string, outside: string) => string][] = [
  [
    "the insights folder links outside",
    (out, outside) => {
      rmSync(join(out, "insights"), { recursive: true });
      symlinkSync(outside, join(out, "insights"));
      return "insights";
    },
  ],
  [
    "a file inside the insights folder links outside",
    (out, outside) => {
      const file = readdirSync(join(out, "insights"), { recursive: true, encoding: "utf8" }).find(
        (entry) => entry.endsWith(".parquet"),
      )!;
      rmSync(join(out, "insights", file));
      symlinkSync(join(outside, "precious.parquet"), join(out, "insights", file));
      return `insights/${file}`;
    },
  ],
];

describe("export --overwrite and links", () => {
  let caseNumber = 0;
  /** A fresh export folder holding the earlier export, and a folder of the user's outside it. */
  async function prepare(): Promise<{ out: string; outside: string }> {
    caseNumber++;
    const out = join(folder, `out-${caseNumber}`);
    const outside = join(folder, `outside-${caseNumber}`);
    mkdirSync(join(outside, "deeper"), { recursive: true });
    writeFileSync(join(outside, "precious.parquet"), "the user's data");
    writeFileSync(join(outside, "deeper", "thesis.txt"), "the user's thesis");
    await exportParquet(store, out, EARLIER);
    return { out, outside };
  }

  for (const [choice, tables] of CHOICES) {
    const writesInsights = tables === undefined || tables.includes("insights");
    for (const [link, makeLink] of LINKS) {
      it(`${choice}; ${link}: ${writesInsights ? "refused, naming it, nothing removed" : "the link and its table are left alone"}`, async () => {
        const { out, outside } = await prepare();
        const linkPath = makeLink(out, outside);
        const [outBefore, outsideBefore] = [entries(out), entries(outside)];
        const exported = exportParquet(store, out, tables, { overwrite: true });
        if (writesInsights) {
          await expect(exported).rejects.toThrow(
            `"${linkPath}", a symbolic link; pathlab never follows one in an export folder, so nothing was removed`,
          );
          expect(entries(out)).toEqual(outBefore);
        } else {
          const written = await exported;
          const after = entries(out);
          // the link and every entry of the tables not written now are as they were
          for (const [path, digest] of Object.entries(outBefore)) {
            if (!tables!.some((table) => path.startsWith(table))) {
              if (path !== EXPORT_MANIFEST) expect(after[path], path).toBe(digest);
            }
          }
          const manifest = manifestOf(out);
          // the earlier tables kept, but insights when its folder is a link: none of its files is
          // reached through real folders any more
          const kept = EARLIER.filter((table) => !tables!.includes(table));
          expect(manifest.tables.map((entry) => entry.table)).toEqual([
            ...kept.filter((table) => !(linkPath === "insights" && table === "insights")),
            ...written.map((entry) => entry.table),
          ]);
          // a file behind a link is not the export's any more: the manifest lists none
          for (const entry of manifest.tables) {
            for (const file of entry.files) expect(lstatSync(join(out, file)).isFile()).toBe(true);
            if (entry.table === "insights") expect(entry.files).not.toContain(linkPath);
          }
        }
        expect(entries(outside)).toEqual(outsideBefore);
      });
    }

    it(`${choice}; the export folder itself is a link: followed, the tables not written kept`, async () => {
      const { out, outside } = await prepare();
      const linked = join(folder, `linked-${caseNumber}`);
      symlinkSync(out, linked);
      const outsideBefore = entries(outside);
      const before = manifestOf(out);
      const written = await exportParquet(store, linked, tables, { overwrite: true });
      expect(lstatSync(linked).isSymbolicLink()).toBe(true);
      const manifest = manifestOf(out);
      const rewritten = written.map((entry) => entry.table);
      expect(manifest.tables).toEqual([
        ...before.tables.filter((entry) => !rewritten.includes(entry.table as ExportedTableName)),
        ...written.map(({ table, files }) => ({
          table,
          files: files.map((file) => `${table}/${file}`),
        })),
      ]);
      for (const file of manifest.tables.flatMap((entry) => entry.files)) {
        expect(lstatSync(join(out, file)).isFile()).toBe(true);
      }
      expect(entries(outside)).toEqual(outsideBefore);
    });
  }
});
