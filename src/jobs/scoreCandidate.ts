/**
 * The user's own model for `pathlab score --candidate DIR`: every `*.json` file of the folder is
 * one answer to one prompt, in either layout of `candidateFile.ts` (the spec's prediction-set
 * record plus its prompt, or the miner's response `[start_time, time_increment, [p0 …], …]` whose
 * asset is the file name up to its first `-`), validated with the validator's rules and reasons.
 */

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { candidateFileFromText, type CandidateFile } from "./candidateFile.ts";

export { CANDIDATE_MINER_UID, readCandidateFile, candidateFileFromText } from "./candidateFile.ts";
export type { CandidateFile, CandidateReadOptions } from "./candidateFile.ts";

/**
 * Reads every `*.json` file of `folder` (sorted by name) as a candidate answer (either layout). A
 * file that is not JSON, lacks a prompt field or fails validation is returned with its `reason`;
 * only a folder that cannot be read throws (an Error naming it).
 * @example const files = await readCandidateFolder("./my-model"); files.filter((file) => file.reason)
 */
export async function readCandidateFolder(folder: string): Promise<CandidateFile[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    throw new Error(
      `score: --candidate: cannot read the folder ${JSON.stringify(folder)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return Promise.all(
    names.map(async (name) =>
      candidateFileFromText(name, await readFile(join(folder, name), "utf8")),
    ),
  );
}
