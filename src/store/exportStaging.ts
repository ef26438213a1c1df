/**
 * The staging folders of `exportParquet`: made inside the export folder, named after the process
 * that owns them, and removed by a later export once that process is gone (an export that was
 * killed cannot remove its own).
 */

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { processAlive } from "./processAlive.ts";

/** The start of a staging folder's name: then `<pid>@<host>-` and six random characters. */
export const STAGING_PREFIX = ".pathlab-export-";

const STAGING_NAME = /^\.pathlab-export-(\d+)@([A-Za-z0-9._-]+)-[A-Za-z0-9]{6}$/;

/** This machine's name as a staging folder holds it. */
function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9.-]/g, "_");
}

/**
 * Makes a new staging folder in `directory`, named after this process (made whole by one
 * `mkdtemp`, so a kill cannot leave it unnamed); returns its path.
 * @example const staging = makeStaging("./export"); // "export/.pathlab-export-4711@host-Xk2v9a"
 */
export function makeStaging(directory: string): string {
  return mkdtempSync(join(directory, `${STAGING_PREFIX}${process.pid}@${hostTag()}-`));
}

/**
 * Removes the staging folders in `directory` that an export left behind: folders named as
 * {@link makeStaging} names them, by a process of this machine that is no longer running. Any
 * other entry, and the folder of a running export or of another machine's, is left alone.
 * Returns the names removed.
 * @example removeAbandonedStaging("./export") // => [".pathlab-export-4711@host-Xk2v9a"]
 */
export function removeAbandonedStaging(directory: string): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const owner = STAGING_NAME.exec(entry.name);
    if (!entry.isDirectory() || owner === null) continue;
    if (owner[2] !== hostTag() || processAlive(Number(owner[1]))) continue;
    rmSync(join(directory, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
