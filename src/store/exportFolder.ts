/**
 * The folder `exportParquet` writes to, and what it may touch there: a new or empty folder, or one
 * holding pathlab's own earlier export, which its manifest (`.pathlab-export.json`) describes
 * file by file. Only the files a manifest lists of the tables written now are ever removed, and
 * only through real folders: no symbolic link inside the folder is followed. Anything else is the
 * user's, or the earlier export's and kept.
 *
 * Over 300 lines: every rule on what may be touched in a user's folder (the manifest's checks, the
 * folder's, the removals) stays in this one file, so that they are reviewed together.
 */

import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { dirname, isAbsolute, join, normalize, resolve, sep } from "node:path";

/**
 * The manifest's file name in an export folder.
 * @example join("./export", EXPORT_MANIFEST) // => "export/.pathlab-export.json"
 */
export const EXPORT_MANIFEST = ".pathlab-export.json";

/** The `writer` a manifest of pathlab's carries. */
const WRITER = "pathlab export";

/**
 * What an export wrote, as its manifest records it: per table the Parquet files, relative to the
 * export folder (`insights/asset=BTC/date=2026-02-25/data_0.parquet`).
 * @example const manifest: ExportManifest = { writer: "pathlab export", version: 1, database: "./pathlab.duckdb", writtenAt: "2026-11-26T12:00:00.000Z", tables: [{ table: "runs", files: ["runs/date=2026-11-26/data_0.parquet"] }] };
 */
export interface ExportManifest {
  readonly writer: typeof WRITER;
  readonly version: 1;
  readonly database: string;
  readonly writtenAt: string;
  readonly tables: readonly { readonly table: string; readonly files: readonly string[] }[];
}

/**
 * The export folder cannot be used as asked: it is not empty and holds no export of pathlab's, it
 * holds one and `overwrite` was not given, a table folder holds a file the manifest does not list,
 * or the folder cannot be created. `expected` and `got` say what and why (the CLI prints them as a
 * usage error, exit code 2).
 * @example
 * new ExportFolderError("./export", "a new or empty folder", '"./export", which holds thesis.txt').message
 * // => 'export folder "./export": expected a new or empty folder, got "./export", which holds thesis.txt'
 */
export class ExportFolderError extends Error {
  /** The export folder, as given. */
  readonly directory: string;
  /** What the folder should have been. */
  readonly expected: string;
  /** What it is. */
  readonly got: string;

  /**
   * @param directory - the export folder, as given.
   * @param expected - what the folder should have been, e.g. `a new or empty folder`.
   * @param got - what it is, e.g. `"./export", which holds thesis.txt`.
   * @param options - the error's `cause`, when there is one.
   */
  constructor(directory: string, expected: string, got: string, options?: ErrorOptions) {
    super(`export folder ${JSON.stringify(directory)}: expected ${expected}, got ${got}`, options);
    this.name = "ExportFolderError";
    this.directory = directory;
    this.expected = expected;
    this.got = got;
  }
}

const EXPECTED_FOLDER =
  "a new or empty folder, or one holding pathlab's own earlier export (with its .pathlab-export.json)";

/**
 * Creates `directory` and each missing parent, one level at a time, and fails with an
 * {@link ExportFolderError} that names the level that could not be made. (Node's
 * `mkdirSync(…, { recursive: true })` loops forever where mkdir answers ENOENT under a parent that
 * exists, as in `/proc`.)
 * @example makeFolder("/proc/x") // throws: … expected a folder that can be created, got "/proc/x" (ENOENT …)
 */
export function makeFolder(directory: string): void {
  const missing: string[] = [];
  for (let current = resolve(directory); lstatOrUndefined(current) === undefined;) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (let index = missing.length - 1; index >= 0; index--) {
    try {
      mkdirSync(missing[index]);
    } catch (error) {
      throw new ExportFolderError(
        directory,
        "a folder that can be created",
        `${JSON.stringify(missing[index])} (${(error as Error).message})`,
        { cause: error },
      );
    }
  }
  // a symlink to a folder is followed: the user named that path
  let stats: Stats | undefined;
  try {
    stats = statSync(directory);
  } catch {
    stats = undefined;
  }
  if (stats?.isDirectory() !== true) {
    throw new ExportFolderError(directory, EXPECTED_FOLDER, "a path that is not a folder");
  }
}

/**
 * Checks that `directory` (which exists) may receive an export of `tables`, and returns the earlier
 * export's manifest, if any (null for an empty folder). Refuses with an {@link ExportFolderError}:
 * a non-empty folder without a manifest of pathlab's; one with a manifest but without `overwrite`;
 * and, with `overwrite`, a folder of a table to write that is a symbolic link or holds anything the
 * manifest does not list (a user's file, a symbolic link), naming it. The folders of the other
 * tables are not looked at: they are not touched.
 * @example const earlier = checkExportFolder("./export", ["runs"], true); // null when empty
 */
export function checkExportFolder(
  directory: string,
  tables: readonly string[],
  overwrite: boolean,
): ExportManifest | null {
  const entries = readdirSync(directory);
  if (entries.length === 0) return null;
  if (!entries.includes(EXPORT_MANIFEST)) {
    throw new ExportFolderError(
      directory,
      EXPECTED_FOLDER,
      `a folder that holds other files (${listed(entries)}) and no pathlab export; choose a new or empty folder`,
    );
  }
  const manifest = readManifest(directory);
  if (!overwrite) {
    throw new ExportFolderError(
      directory,
      "a new or empty folder, or --overwrite to replace an earlier export",
      `a folder holding pathlab's export of ${manifest.writtenAt}; pass --overwrite to replace it (only the files it lists are removed)`,
    );
  }
  const ours = new Set(manifest.tables.flatMap((table) => table.files));
  for (const table of tables) {
    const foreign = foreignEntry(directory, table, ours);
    if (foreign === undefined) continue;
    if (lstatOrUndefined(join(directory, foreign))?.isSymbolicLink() === true) {
      throw new ExportFolderError(
        directory,
        "table folders that are real folders holding only files of pathlab's earlier export",
        `${JSON.stringify(foreign)}, a symbolic link; pathlab never follows one in an export folder, so nothing was removed: remove the link or move it out of the way first`,
      );
    }
    throw new ExportFolderError(
      directory,
      "table folders that hold only files of pathlab's earlier export",
      `${JSON.stringify(foreign)}, which that export did not write; move it out of the way first`,
    );
  }
  return manifest;
}

/**
 * Removes the files `manifest` lists of `tables` (the tables written now), each only when it is
 * still there as a regular file reached through real folders (no symbolic link on the way, see
 * {@link isOwnFile}), then each folder of theirs left empty, up to the table's folder. The files
 * of the other tables, and everything else, are not touched.
 * @example removeListedFiles("./export", earlier, ["runs"]);
 */
export function removeListedFiles(
  directory: string,
  manifest: ExportManifest,
  tables: readonly string[],
): void {
  const folders = new Set<string>();
  for (const { table, files } of manifest.tables) {
    if (!tables.includes(table)) continue;
    for (const file of files) {
      if (!isOwnFile(directory, file)) continue;
      unlinkSync(join(directory, file));
      for (let parent = dirname(file); parent !== "." && parent !== ""; parent = dirname(parent)) {
        folders.add(parent);
      }
    }
  }
  // deepest first, so that a parent is tried after its children
  const deepestFirst = [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const folder of deepestFirst) {
    try {
      rmdirSync(join(directory, folder)); // only succeeds on an empty folder
    } catch {
      // not empty (a file of the user's stays, and its folder with it) or already gone
    }
  }
}

/**
 * The entries of `manifest` for the tables other than `tables` (those not written now), with the
 * files still there as {@link isOwnFile} checks them: what the new manifest keeps of the earlier
 * export, whose files stay in place.
 * @example const kept = keptTables("./export", earlier, ["runs"]); // the earlier insights, path_sets…
 */
export function keptTables(
  directory: string,
  manifest: ExportManifest,
  tables: readonly string[],
): ExportManifest["tables"] {
  return manifest.tables
    .filter(({ table }) => !tables.includes(table))
    .map(({ table, files }) => ({
      table,
      files: files.filter((file) => isOwnFile(directory, file)),
    }))
    .filter(({ files }) => files.length > 0);
}

/**
 * Whether `file` (relative to `directory`, as a manifest lists it) is a regular file reached
 * through real folders: each folder on the way and the file itself are checked with `lstat`, so a
 * symbolic link anywhere below `directory` makes it not ours.
 */
function isOwnFile(directory: string, file: string): boolean {
  const segments = file.split("/");
  for (let depth = 1; depth < segments.length; depth++) {
    const stats = lstatOrUndefined(join(directory, ...segments.slice(0, depth)));
    if (stats?.isDirectory() !== true) return false;
  }
  return lstatOrUndefined(join(directory, file))?.isFile() === true;
}

/**
 * Writes `manifest` to the folder's manifest file, whole or not at all (written beside it, then
 * renamed over it).
 * @example writeManifest("./export", manifest);
 */
export function writeManifest(directory: string, manifest: ExportManifest): void {
  const path = join(directory, EXPORT_MANIFEST);
  const partial = `${path}.partial`;
  writeFileSync(partial, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(partial, path);
}

/** The folder's manifest, checked: every file under a table's folder, no `..`, no absolute path. */
function readManifest(directory: string): ExportManifest {
  const path = join(directory, EXPORT_MANIFEST);
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ExportFolderError(
      directory,
      EXPECTED_FOLDER,
      `a ${EXPORT_MANIFEST} that pathlab cannot read (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (!isManifest(manifest)) {
    throw new ExportFolderError(
      directory,
      EXPECTED_FOLDER,
      `a ${EXPORT_MANIFEST} that pathlab did not write (or that was edited)`,
    );
  }
  return manifest;
}

function isManifest(value: unknown): value is ExportManifest {
  const manifest = value as Partial<ExportManifest> | null;
  return (
    typeof manifest === "object" &&
    manifest !== null &&
    manifest.writer === WRITER &&
    manifest.version === 1 &&
    typeof manifest.writtenAt === "string" &&
    Array.isArray(manifest.tables) &&
    manifest.tables.every(
      (entry) =>
        typeof entry === "object" &&
        entry !== null &&
        isTableFolderName(entry.table) &&
        Array.isArray(entry.files) &&
        entry.files.every((file: unknown) => isFileOf(entry.table, file)),
    )
  );
}

/**
 * Whether `table` can name a table's folder in an export: one plain path segment of letters,
 * digits, `_` and `-` (not starting with `-`), so that it never reaches outside the folder.
 * @example isTableFolderName("miner_scores") // => true
 * @example isTableFolderName("../notes") // => false
 */
export function isTableFolderName(table: unknown): table is string {
  return typeof table === "string" && /^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(table);
}

/** A Parquet file inside the table's folder, given as a plain relative path. */
function isFileOf(table: string, file: unknown): boolean {
  return (
    typeof file === "string" &&
    !isAbsolute(file) &&
    file.endsWith(".parquet") &&
    file.startsWith(`${table}/`) &&
    normalize(file).split(sep).join("/") === file &&
    !file.split("/").includes("..")
  );
}

/**
 * The first entry under `<directory>/<table>` that is not a file `ours` lists (or a folder on the
 * way to one), relative to `directory`; undefined when there is none. Symlinks are not followed.
 */
function foreignEntry(
  directory: string,
  table: string,
  ours: ReadonlySet<string>,
): string | undefined {
  const pending = [table];
  while (pending.length > 0) {
    const relativePath = pending.pop()!;
    const stats = lstatOrUndefined(join(directory, relativePath));
    if (stats === undefined) continue;
    if (stats.isFile()) {
      if (!ours.has(relativePath)) return relativePath;
    } else if (stats.isDirectory()) {
      for (const entry of readdirSync(join(directory, relativePath))) {
        pending.push(`${relativePath}/${entry}`);
      }
    } else {
      return relativePath;
    }
  }
  return undefined;
}

/** A few names of `entries`, for a message. */
function listed(entries: readonly string[]): string {
  const shown = entries.slice(0, 3).join(", ");
  return entries.length > 3 ? `${shown} and ${entries.length - 3} more` : shown;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
