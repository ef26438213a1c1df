/** Whether a process recorded by pathlab (a run, an export's staging folder) is still running. */

import { hostname } from "node:os";

/**
 * Whether the process `pid` on `host` may still be running: true for another host (it cannot be
 * checked from here), otherwise whether a process with that id exists on this machine (signal 0
 * checks without sending).
 * @example processAlive(process.pid, hostname()) // => true
 */
export function processAlive(pid: number, host: string = hostname()): boolean {
  if (host !== hostname()) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
