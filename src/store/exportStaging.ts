/**
 * Staging folders (of `exportParquet`, and of the lake's writers): made inside the folder they
 * publish into, named after the process that owns them, and removed by a later writer once that
 * process is gone (a writer that was killed cannot remove its own).
 */

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { processAlive } from "./processAlive.ts";

/**
 * The start of an export's staging folder's name: then `<pid>@<host>-` and six random characters.
 * @example STAGING_PREFIX // => ".pathlab-export-"
 */
export const STAGING_PREFIX = ".pathlab-export-";

/** The name {@link makeStaging} gives with `prefix` (letters and `.-` only): owner and host. */
function stagingName(prefix: string): RegExp {
  return new RegExp(`^${prefix.replaceAll(".", "\\.")}(\\d+)@([A-Za-z0-9._-]+)-[A-Za-z0-9]{6}$`);
}

/** This machine's name as a staging folder holds it. */
function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9.-]/g, "_");
}

/**
 * Makes a new staging folder in `directory`, named `prefix` and after this process (made whole by
 * one `mkdtemp`, so a kill cannot leave it unnamed); returns its path.
 * @param directory - the folder to make it in.
 * @param prefix - the start of its name (letters and `.-` only); an export's by default.
 * @example const staging = makeStaging("./export"); // "export/.pathlab-export-4711@host-Xk2v9a"
 */
export function makeStaging(directory: string, prefix: string = STAGING_PREFIX): string {
  return mkdtempSync(join(directory, `${prefix}${process.pid}@${hostTag()}-`));
}

/**
 * Removes the staging folders in `directory` that a writer left behind: folders named as
 * {@link makeStaging} names them with `prefix`, by a process of this machine that is no longer
 * running. Any other entry, and the folder of a running writer or of another machine's, is left
 * alone. Returns the names removed.
 * @param directory - the folder the staging folders were made in.
 * @param prefix - the start of their names, as given to {@link makeStaging}; an export's by default.
 * @example removeAbandonedStaging("./export") // => [".pathlab-export-4711@host-Xk2v9a"]
 */
export function removeAbandonedStaging(
  directory: string,
  prefix: string = STAGING_PREFIX,
): string[] {
  const name = stagingName(prefix);
  const removed: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const owner = name.exec(entry.name);
    if (!entry.isDirectory() || owner === null) continue;
    if (owner[2] !== hostTag() || processAlive(Number(owner[1]))) continue;
    rmSync(join(directory, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
