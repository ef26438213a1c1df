/**
 * `exportParquet` writes only its own files, on real folders and a real DuckDB file: a user's
 * folder is refused untouched, an earlier export is replaced only with `overwrite` and only file by
 * file as its manifest lists them, a tampered manifest deletes nothing, and a folder that cannot
 * be created (`/proc/x`) fails at once, naming the path.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EXPORT_MANIFEST,
  ExportFolderError,
  isTableFolderName,
  makeFolder,
  type ExportManifest,
} from "../../src/store/exportFolder.ts";
import { exportParquet } from "../../src/store/exportParquet.ts";
import type { Store } from "../../src/store/openStore.ts";
import { filledStore } from "./filledStore.ts";
import { temporaryFolder } from "./helpers.ts";

let folder: string;
let remove: () => void;
let store: Store;
let out: string;

beforeEach(async () => {
  ({ folder, remove } = temporaryFolder());
  store = await filledStore(folder);
  out = join(folder, "export");
});
afterEach(async () => {
  await store.close();
  remove();
});

/** Every file under `directory`, relative, sorted. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();
}

function manifestOf(directory: string): ExportManifest {
  return JSON.parse(readFileSync(join(directory, EXPORT_MANIFEST), "utf8")) as ExportManifest;
}

describe("exportParquet's folder", () => {
  it("a new folder gets the tables and a manifest that lists every file written, and nothing else", async () => {
    const written = await exportParquet(store, out, ["insights", "runs"]);
    const manifest = manifestOf(out);
    expect(manifest.writer).toBe("pathlab export");
    const listed = manifest.tables.flatMap((table) => table.files);
    expect(listed).toEqual(
      written.flatMap((table) => table.files.map((file) => `${table.table}/${file}`)),
    );
    expect(filesUnder(out)).toEqual([EXPORT_MANIFEST, ...listed].sort());
  });

  it("a folder with the user's files and no manifest is refused, and left exactly as it was", async () => {
    mkdirSync(join(out, "insights"), { recursive: true });
    writeFileSync(join(out, "insights", "thesis.txt"), "my thesis");
    writeFileSync(join(out, "notes.md"), "notes");
    for (const overwrite of [false, true]) {
      const refused = await exportParquet(store, out, undefined, { overwrite }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ExportFolderError);
      expect((refused as Error).message).toMatch(
        /holds other files \(insights, notes\.md\) and no pathlab export/,
      );
    }
    expect(filesUnder(out)).toEqual(["insights/thesis.txt", "notes.md"]);
    expect(readFileSync(join(out, "insights", "thesis.txt"), "utf8")).toBe("my thesis");
  });

  it("an earlier export is replaced only with overwrite; the user's files beside it stay", async () => {
    await exportParquet(store, out);
    const first = filesUnder(out);
    await expect(exportParquet(store, out)).rejects.toThrow(/pass --overwrite to replace it/);
    expect(filesUnder(out)).toEqual(first);
    writeFileSync(join(out, "notes.md"), "notes");
    mkdirSync(join(out, "analysis"));
    writeFileSync(join(out, "analysis", "plot.py"), "print(1)");
    await exportParquet(store, out, undefined, { overwrite: true });
    expect(filesUnder(out)).toEqual([...first, "analysis/plot.py", "notes.md"].sort());
  });

  it("with overwrite, a user's file inside a table folder to write is refused and nothing is removed", async () => {
    await exportParquet(store, out);
    writeFileSync(join(out, "insights", "thesis.txt"), "my thesis");
    const before = filesUnder(out);
    const refused = await exportParquet(store, out, undefined, { overwrite: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ExportFolderError);
    expect((refused as Error).message).toContain(
      '"insights/thesis.txt", which that export did not write',
    );
    expect(filesUnder(out)).toEqual(before);
  });

  it("overwrite with fewer tables keeps the earlier export's files of the others, and lists them still", async () => {
    const first = await exportParquet(store, out, ["insights", "runs"]);
    writeFileSync(join(out, "runs", "mine.txt"), "mine");
    const written = await exportParquet(store, out, ["insights"], { overwrite: true });
    const runsFiles = first[1].files.map((file) => `runs/${file}`);
    expect(filesUnder(out)).toEqual(
      [
        EXPORT_MANIFEST,
        "runs/mine.txt",
        ...runsFiles,
        ...written[0].files.map((file) => `insights/${file}`),
      ].sort(),
    );
    expect(manifestOf(out).tables).toEqual([
      { table: "runs", files: runsFiles },
      { table: "insights", files: written[0].files.map((file) => `insights/${file}`) },
    ]);
  });

  it("a manifest naming files outside its table folders deletes nothing", async () => {
    await exportParquet(store, out, ["runs"]);
    writeFileSync(join(folder, "outside.parquet"), "precious");
    const manifest = manifestOf(out);
    for (const files of [
      ["../outside.parquet"],
      ["runs/../../outside.parquet"],
      [join(folder, "outside.parquet")],
    ]) {
      writeFileSync(
        join(out, EXPORT_MANIFEST),
        JSON.stringify({ ...manifest, tables: [{ table: "runs", files }] }),
      );
      await expect(exportParquet(store, out, ["runs"], { overwrite: true })).rejects.toThrow(
        /that pathlab did not write \(or that was edited\)/,
      );
    }
    expect(readFileSync(join(folder, "outside.parquet"), "utf8")).toBe("precious");
    expect(isTableFolderName("../notes")).toBe(false);
    expect(isTableFolderName("miner_scores")).toBe(true);
  });

  it("a folder that cannot be created fails, naming the path (no endless loop under /proc: the test's timeout)", async () => {
    expect(() => makeFolder("/proc/pathlab-export/x")).toThrow(
      /export folder "\/proc\/pathlab-export\/x": expected a folder that can be created, got "\/proc\/pathlab-export" \(ENOENT/,
    );
    await expect(exportParquet(store, "/proc/x")).rejects.toThrow(ExportFolderError);
    writeFileSync(join(folder, "a-file"), "");
    await expect(exportParquet(store, join(folder, "a-file"))).rejects.toThrow(
      /a path that is not a folder/,
    );
    await expect(exportParquet(store, join(folder, "a-file", "x"))).rejects.toThrow(/ENOTDIR/);
    expect(existsSync(join(folder, "a-file"))).toBe(true);
  });

  it("leaves no staging folder behind, after a write or a refusal", async () => {
    await exportParquet(store, out, ["runs"]);
    await expect(exportParquet(store, out, ["runs"])).rejects.toThrow(ExportFolderError);
    await exportParquet(store, out, ["runs"], { overwrite: true });
    expect(readdirSync(out).sort()).toEqual([EXPORT_MANIFEST, "runs"]);
  });
});
