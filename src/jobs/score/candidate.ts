/**
 * The user's own model for `pathlab score --candidate DIR`: every `*.json` file of the folder is
 * one answer to one prompt, in either layout of `candidateFile.ts` (the spec's prediction-set
 * record plus its prompt, or the miner's response `[start_time, time_increment, [p0 …], …]` whose
 * asset is the file name up to its first `-`), validated with the validator's rules and reasons.
 * The folder is read one file at a time. What is kept of each is its prompt and verdict, and the
 * path sets of the first valid files up to {@link KEPT_BYTES} of prices, which their prompts take
 * when they are scored (`takeCandidatePathSet`); a file beyond them is read again then
 * (`loadCandidatePathSet`), so memory stays bounded however many files there are.
 */

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { PathSet } from "../../paths/pathSet.ts";
import { unknownPrompt, type CandidateFile } from "./candidateFile.ts";
import { readCandidateFile } from "./readCandidateFile.ts";

export { CANDIDATE_MINER_UID } from "./candidateFile.ts";
export type { CandidateFile, CandidateReadOptions } from "./candidateFile.ts";
export { readCandidateFile, candidateFileFromText } from "./readCandidateFile.ts";

/** Bytes of prices the folder's reading keeps for scoring, about 110 24h path sets. */
const KEPT_BYTES = 256 * 2 ** 20;

/** The path sets kept for scoring, each taken once. */
const kept = new WeakMap<CandidateFolderFile, PathSet>();

/**
 * A candidate file of a folder: what `readCandidateFile` found, without the path set (`pathSet`
 * is `undefined`; `valid` says whether it has one), and where to read it again.
 * @example const files = await readCandidateFolder("./my-model"); files[0].path // => "my-model/BTC-….json"
 */
export interface CandidateFolderFile extends CandidateFile {
  /** The file's path, to read its path set again when its prompt is scored. */
  readonly path: string;
  /** Whether the file holds a valid path set (the validator accepts it and it can be scored). */
  readonly valid: boolean;
}

/**
 * Reads every `*.json` file of `folder` (sorted by name), one at a time, as a candidate answer
 * (either layout). A file that is not JSON, lacks a prompt field or fails validation is returned
 * with its `reason`; so is an entry that is not a regular file (a folder, a named pipe: skipped,
 * never opened) or cannot be read (a dangling symlink, a symlink loop, no permission). Only a
 * folder that cannot be read throws (an Error naming it).
 * @param folder - the folder of candidate files.
 * @param keptBytes - bytes of prices kept for scoring ({@link takeCandidatePathSet}); 256 MiB by
 *   default.
 * @example const files = await readCandidateFolder("./my-model"); files.filter((file) => file.reason)
 */
export async function readCandidateFolder(
  folder: string,
  keptBytes = KEPT_BYTES,
): Promise<CandidateFolderFile[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    throw new Error(
      `score: --candidate: cannot read the folder ${JSON.stringify(folder)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const files: CandidateFolderFile[] = [];
  let keptSoFar = 0;
  for (const name of names) {
    const path = join(folder, name);
    const unreadable = await notARegularFile(path);
    if (unreadable !== undefined) {
      files.push({ ...unknownPrompt(name, undefined), path, valid: false, reason: unreadable });
      continue;
    }
    const { file, pathSet } = folderFileOf(path, await readCandidateFile(path));
    if (pathSet !== undefined && keptSoFar + pathSet.values.byteLength <= keptBytes) {
      kept.set(file, pathSet);
      keptSoFar += pathSet.values.byteLength;
    }
    files.push(file);
  }
  return files;
}

/**
 * A candidate file as a folder lists it, without its path set, and the path set apart.
 * @param path - where the file was read.
 * @param read - what `readCandidateFile` found there.
 * @example const { file, pathSet } = folderFileOf(path, await readCandidateFile(path));
 */
export function folderFileOf(
  path: string,
  read: CandidateFile,
): { file: CandidateFolderFile; pathSet: PathSet | undefined } {
  const { pathSet, ...rest } = read;
  return { file: { ...rest, pathSet: undefined, path, valid: pathSet !== undefined }, pathSet };
}

/**
 * The path set {@link readCandidateFolder} kept for `file`, taken: a second call gives
 * `undefined`, and so does a file whose path set was not kept.
 * @param file - a file as {@link readCandidateFolder} listed it.
 * @example const pathSet = takeCandidatePathSet(files[0]) ?? (await loadCandidatePathSet(files[0]));
 */
export function takeCandidatePathSet(file: CandidateFolderFile): PathSet | undefined {
  const pathSet = kept.get(file);
  kept.delete(file);
  return pathSet;
}

/**
 * The path set of a folder's candidate file, read again; `undefined` when it is no longer valid.
 * @param file - a file as {@link readCandidateFolder} listed it.
 * @example const pathSet = await loadCandidatePathSet(files[0]);
 */
export async function loadCandidatePathSet(
  file: CandidateFolderFile,
): Promise<PathSet | undefined> {
  if (!file.valid) return undefined;
  return (await readCandidateFile(file.path)).pathSet;
}

/** Why `path` is skipped: not there, a loop, not permitted, or not a regular file. */
async function notARegularFile(path: string): Promise<string | undefined> {
  try {
    const found = await stat(path);
    if (found.isFile()) return undefined;
    const kind = found.isDirectory()
      ? "a folder"
      : found.isFIFO()
        ? "a named pipe"
        : found.isSocket()
          ? "a socket"
          : "a device";
    return `not a regular file (${kind}): skipped`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "ENOENT, a dangling symlink?"
        : code === "ELOOP"
          ? "ELOOP, a symlink loop"
          : code;
    return `cannot read the file: ${why ?? (error as Error).message}`;
  }
}
