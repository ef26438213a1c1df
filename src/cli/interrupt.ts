/**
 * Ctrl-C (SIGINT) and SIGTERM for the long-running commands: the first one aborts the job's
 * signal (the job stops, rolls back its open unit and records the run as interrupted), a second
 * one quits at once.
 */

import { EXIT_INTERRUPTED } from "./errors.ts";

/**
 * An interruption handler installed for one job.
 * @example const interruption = onInterrupt("sync", io.stderr); try { await runSync({ signal: interruption.signal }); } finally { interruption.dispose(); }
 */
export interface Interruption {
  /** Aborts on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Removes the handler (Node's default, quitting at once, applies again). */
  readonly dispose: () => void;
}

/**
 * Installs the SIGINT and SIGTERM handlers of the job `command`, which say on `stderr` what
 * happens.
 * @example const { signal, dispose } = onInterrupt("score", io.stderr);
 */
export function onInterrupt(command: string, stderr: (text: string) => void): Interruption {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      stderr(`pathlab ${command}: interrupted again, quitting now\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    stderr(
      `\npathlab ${command}: interrupted (${signal}); stopping (the unit in progress is rolled back). ` +
        "Ctrl-C again to quit at once.\n",
    );
    controller.abort(new Error(`pathlab ${command}: interrupted (${signal})`));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
