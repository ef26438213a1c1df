/**
 * The staging folders of `exportParquet`: made inside the export folder, marked with the process
 * that owns them, and removed by a later export once that process is gone (an export that was
 * killed cannot remove its own).
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { processAlive } from "./processAlive.ts";

/** The start of a staging folder's name. */
export const STAGING_PREFIX = ".pathlab-export-";

/** The file in a staging folder naming its process: `{"pid":…,"host":…}`. */
const OWNER_FILE = ".owner.json";

/**
 * Makes a new staging folder in `directory`, marked with this process; returns its path.
 * @example const staging = makeStaging("./export"); // "export/.pathlab-export-Xk2v9a"
 */
export function makeStaging(directory: string): string {
  const staging = mkdtempSync(join(directory, STAGING_PREFIX));
  writeFileSync(join(staging, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() }));
  return staging;
}

/**
 * Removes the staging folders in `directory` that an export left behind: those whose owner file
 * names a process of this machine that is no longer running. A folder without a readable owner
 * file, or whose process runs (or ran on another machine), is left alone. Returns the names removed.
 * @example removeAbandonedStaging("./export") // => [".pathlab-export-Xk2v9a"]
 */
export function removeAbandonedStaging(directory: string): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX)) continue;
    const owner = ownerOf(join(directory, entry.name));
    if (owner === undefined || processAlive(owner.pid, owner.host)) continue;
    rmSync(join(directory, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

function ownerOf(staging: string): { pid: number; host: string } | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(staging, OWNER_FILE), "utf8")) as unknown;
    if (typeof owner !== "object" || owner === null) return undefined;
    const { pid, host } = owner as Record<string, unknown>;
    return Number.isInteger(pid) && typeof host === "string"
      ? { pid: pid as number, host }
      : undefined;
  } catch {
    return undefined;
  }
}
