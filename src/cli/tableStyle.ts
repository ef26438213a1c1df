/** How the command's tables (cli-table3) look, with colors or without. */

/**
 * cli-table3's style: compact either way; without colors, plain heads and borders (a pipe, a
 * file, `NO_COLOR`).
 * @example new Table({ head: ["asset"], style: tableStyle(io.stdoutColors === true) });
 */
export function tableStyle(colors: boolean): { compact: true; head?: []; border?: [] } {
  return colors ? { compact: true } : { compact: true, head: [], border: [] };
}
