/**
 * `pathlab export` writes only its own files, as a real child process (`node dist/cli/main.js`) on
 * a real DuckDB file: a user's folder is refused untouched (exit 2, one line naming the folder), an
 * earlier export is replaced only with --overwrite and the user's files beside it stay, and
 * `--out /proc/x` fails at once (it looped forever) with the path named, and the staging folder of
 * an export killed mid-write is removed by the next export, while a look-alike folder of the
 * user's stays. `--overwrite --tables runs` removes only the runs files, and a table folder that
 * is a symbolic link out of `--out` is never followed (test/store/exportLinks.test.ts has every
 * combination of tables and links).
 */

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filledStore } from "../store/filledStore.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

let folder: string;
let remove: () => void;
let database: string;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  const store = await filledStore(folder);
  database = store.path;
  await store.close();
}, 60_000);
afterAll(() => remove?.());

const HINT = "(run 'npx pathlab export --help' for usage)";

describe("pathlab export touches only its own files", () => {
  it("refuses a folder holding the user's files: exit 2, one line, insights/thesis.txt kept", async () => {
    const out = join(folder, "mine");
    mkdirSync(join(out, "insights"), { recursive: true });
    writeFileSync(join(out, "insights", "thesis.txt"), "my thesis");
    for (const extra of [[], ["--overwrite"]]) {
      const finished = await runPathlab(["export", "--out", out, "--db", database, ...extra]);
      expect(finished.code, finished.stderr).toBe(2);
      expect(finished.stdout).toBe("");
      expect(finished.stderr).toBe(
        `pathlab: export: parameter "--out": expected a new or empty folder, or one holding pathlab's own earlier export (with its .pathlab-export.json), got a folder that holds other files (insights) and no pathlab export; choose a new or empty folder\n${HINT}\n`,
      );
    }
    expect(readdirSync(out)).toEqual(["insights"]);
    expect(readdirSync(join(out, "insights"))).toEqual(["thesis.txt"]);
    expect(readFileSync(join(out, "insights", "thesis.txt"), "utf8")).toBe("my thesis");
  }, 30_000);

  it("--out /proc/x fails, naming the path (exit 2; an endless loop there meets the test's timeout)", async () => {
    const finished = await runPathlab(["export", "--out", "/proc/x", "--db", database]);
    expect(finished.code, finished.stderr).toBe(2);
    expect(finished.stderr).toMatch(
      /^pathlab: export: parameter "--out": expected a folder that can be created, got "\/proc\/x" \(ENOENT[^\n]*\)\n/,
    );
  }, 30_000);

  it("replaces its own earlier export only with --overwrite; the user's files beside it stay", async () => {
    const out = join(folder, "export");
    const first = await runPathlab(["export", "--out", out, "--db", database, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(out, "notes.md"), "notes");
    const again = await runPathlab(["export", "--out", out, "--db", database]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /^pathlab: export: parameter "--out": expected a new or empty folder, or --overwrite to replace an earlier export, got a folder holding pathlab's export of \S+; pass --overwrite to replace it \(only the files it lists are removed\)\n/,
    );
    const replaced = await runPathlab([
      "export",
      "--out",
      out,
      "--db",
      database,
      "--overwrite",
      "--json",
    ]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(JSON.parse(replaced.stdout)).toEqual(JSON.parse(first.stdout));
    expect(readFileSync(join(out, "notes.md"), "utf8")).toBe("notes");
    expect(readdirSync(out)).toContain(".pathlab-export.json");
  }, 60_000);

  it("the staging folder of an export killed mid-write goes with the next export; the user's look-alike stays", async () => {
    const out = join(folder, "killed");
    const child = spawn(
      process.execPath,
      ["dist/cli/main.js", "export", "--out", out, "--db", database],
      {
        cwd: new URL("../..", import.meta.url),
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    let staging: string | undefined;
    while (staging === undefined && child.exitCode === null) {
      staging = (existsSync(out) ? readdirSync(out) : []).find((name) =>
        name.startsWith(".pathlab-export-"),
      );
      if (staging === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill("SIGKILL");
    await exited;
    expect(staging, "the export ended before its staging folder was seen").toBeDefined();
    expect(staging).toMatch(new RegExp(`^\\.pathlab-export-${child.pid}@`));
    expect(readdirSync(out)).toContain(staging);
    expect(readdirSync(out)).not.toContain(".pathlab-export.json");
    const next = await runPathlab(["export", "--out", out, "--db", database]);
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(out)).not.toContain(staging);
    expect(readdirSync(out)).toContain(".pathlab-export.json");
    // a folder of the user's named like a staging folder (no owner) is never touched
    const mine = join(folder, "look-alike");
    mkdirSync(join(mine, ".pathlab-export-mine"), { recursive: true });
    writeFileSync(join(mine, ".pathlab-export-mine", "keep.txt"), "mine");
    // and the staging folder of an export still running (this process) is left to it
    const running = `.pathlab-export-${process.pid}@${hostname().replace(/[^A-Za-z0-9.-]/g, "_")}-abc123`;
    mkdirSync(join(mine, running));
    const refused = await runPathlab(["export", "--out", mine, "--db", database]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("holds other files (.pathlab-export-");
    expect(readdirSync(mine).sort()).toEqual([running, ".pathlab-export-mine"].sort());
    expect(readFileSync(join(mine, ".pathlab-export-mine", "keep.txt"), "utf8")).toBe("mine");
  }, 60_000);

  it("--overwrite --tables runs removes only the runs files, and never follows a table folder that links out", async () => {
    const out = join(folder, "tables-runs");
    const exportTo = (...extra: string[]) =>
      runPathlab(["export", "--out", out, "--db", database, ...extra]);
    const manifestOf = () =>
      JSON.parse(readFileSync(join(out, ".pathlab-export.json"), "utf8")) as {
        tables: { table: string; files: string[] }[];
      };
    const first = await exportTo();
    expect(first.code, first.stderr).toBe(0);
    const manifestBefore = manifestOf();
    // the user moves the insights export out of --out and leaves a link in its place
    const moved = join(folder, "moved-insights");
    renameSync(join(out, "insights"), moved);
    symlinkSync(moved, join(out, "insights"));
    const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
    const movedFiles = readdirSync(moved, { recursive: true, encoding: "utf8" }).filter((entry) =>
      entry.endsWith(".parquet"),
    );
    const movedDigests = movedFiles.map((file) => digest(join(moved, file)));
    const replaced = await exportTo("--tables", "runs", "--overwrite");
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(movedFiles.length).toBeGreaterThan(0);
    expect(movedFiles.map((file) => digest(join(moved, file)))).toEqual(movedDigests);
    // every other table's files are where the first export put them, and still listed
    const manifest = manifestOf();
    const others = manifestBefore.tables.filter(
      (entry) => entry.table !== "runs" && entry.table !== "insights",
    );
    expect(others.length).toBeGreaterThan(0);
    for (const entry of others) {
      expect(manifest.tables).toContainEqual(entry);
      for (const file of entry.files) expect(existsSync(join(out, file)), file).toBe(true);
    }
    // with insights among the tables, the link is refused by name, and nothing is removed
    const refused = await exportTo("--overwrite");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^pathlab: export: parameter "--out": expected table folders that are real folders holding only files of pathlab's earlier export, got "insights", a symbolic link; pathlab never follows one/,
    );
    expect(movedFiles.map((file) => digest(join(moved, file)))).toEqual(movedDigests);
    for (const entry of manifest.tables) {
      for (const file of entry.files) expect(existsSync(join(out, file)), file).toBe(true);
    }
  }, 60_000);
});
