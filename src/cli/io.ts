/** What the command line's commands write to and report back, apart from the program that runs them. */

/** Streams the program writes to; tests pass their own. */
export interface ProgramIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The terminal stderr is, if it is one: progress bars are drawn on it (else plain lines). */
  readonly stderrTerminal?: NodeJS.WriteStream;
  /**
   * Whether to color stdout (tables get colored heads): when it is a terminal, unless `NO_COLOR`
   * is set; `FORCE_COLOR` (other than `0`) colors it anyway.
   */
  readonly stdoutColors?: boolean;
  /**
   * stdout as a stream, when it is one: commands that print much (`query`) wait for its 'drain'
   * when its buffer is full and stop once it is closed; the text itself still goes through `stdout`.
   */
  readonly stdoutStream?: NodeJS.WriteStream;
}

/**
 * What a command's action reports besides printing: the exit code when it is not 0 although the
 * command ran to its end (a sync with failures in some units exits 1).
 * @example const status: ProgramStatus = { exitCode: 0 };
 */
export interface ProgramStatus {
  exitCode: number;
}
