/**
 * Ctrl-C for the long-running commands: the first SIGINT aborts the job's signal (the job stops,
 * rolls back its open unit and records the run as interrupted), a second one quits at once.
 */

import { EXIT_INTERRUPTED } from "./errors.ts";

/**
 * An interruption handler installed for one job.
 * @example const interruption = onInterrupt("sync", io.stderr); try { await runSync({ signal: interruption.signal }); } finally { interruption.dispose(); }
 */
export interface Interruption {
  /** Aborts on the first SIGINT. */
  readonly signal: AbortSignal;
  /** Removes the handler (Node's default, quitting at once, applies again). */
  readonly dispose: () => void;
}

/**
 * Installs the SIGINT handler of the job `command`, which says on `stderr` what happens.
 * @example const { signal, dispose } = onInterrupt("score", io.stderr);
 */
export function onInterrupt(command: string, stderr: (text: string) => void): Interruption {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) {
      stderr(`pathlab ${command}: interrupted again, quitting now\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    stderr(
      `\npathlab ${command}: interrupted; stopping (the unit in progress is rolled back). ` +
        "Ctrl-C again to quit at once.\n",
    );
    controller.abort(new Error(`pathlab ${command}: interrupted (SIGINT)`));
  };
  process.on("SIGINT", handler);
  return {
    signal: controller.signal,
    dispose: () => process.off("SIGINT", handler),
  };
}
