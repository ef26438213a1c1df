/**
 * A user's model as a child process in any language (`pathlab backtest --model "<command>"`): the
 * command runs through the shell, reads one prompt per line on its stdin (JSON), and writes one
 * answer per line on its stdout; its stderr passes through to pathlab's. One question at a time:
 * the next prompt is written only after the answer to the last.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * Why a model call gave no answer: the process exited (or could not start), or the deadline
 * passed (the process is then killed: a late answer would be read as the next prompt's).
 * @example new ModelCallError("the model exited (code 1) before answering", "exited")
 */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly kind: "exited" | "timeout",
  ) {
    super(message);
    this.name = "ModelCallError";
  }
}

/**
 * One running copy of the model's command. `ask` writes a line and resolves with the next line
 * the process prints; it rejects with a {@link ModelCallError} when the process exits first or
 * `deadlineMs` passes. After a rejection the copy is dead (`alive` false): start a new one.
 * @example const model = new ModelProcess("python3 examples/models/gbm.py"); const line = await model.ask(JSON.stringify(prompt), 60_000); model.close();
 */
export class ModelProcess {
  private readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private exit: string | undefined;

  /**
   * Starts `command` through the shell (`sh -c`), in `cwd`.
   * @param command - the command line, e.g. `python3 examples/models/gbm.py`.
   * @param cwd - the folder it runs in (the current one by default).
   */
  constructor(command: string, cwd?: string) {
    // its own process group, so that a kill reaches what the shell started too
    this.child = spawn(command, {
      shell: true,
      cwd,
      detached: true,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const output = createInterface({ input: this.child.stdout!, crlfDelay: Infinity });
    output.on("line", (line) => {
      if (this.waiting !== undefined) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else this.lines.push(line);
    });
    // a model that exits without reading its input must not crash pathlab with EPIPE
    this.child.stdin!.on("error", () => undefined);
    const ended = (why: string) => {
      this.exit ??= why;
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve?.(undefined);
    };
    // The wait ends once the output has ended (an answer printed just before exiting is still
    // read) and the process has exited (its code names the reason), or a second after the output
    // ended for a process that closed it and goes on.
    let exited: string | undefined;
    let outputEnded = false;
    this.child.on("error", (error) => ended(`could not start: ${error.message}`));
    this.child.on("exit", (code, signal) => {
      exited = signal === null ? `exited (code ${code})` : `was killed (${signal})`;
      if (outputEnded) ended(exited);
    });
    output.on("close", () => {
      outputEnded = true;
      if (exited !== undefined) ended(exited);
      else setTimeout(() => ended(exited ?? "closed its output"), 1000).unref();
    });
  }

  /** Whether the copy can still be asked. */
  get alive(): boolean {
    return this.exit === undefined;
  }

  /**
   * Writes `line` (one JSON prompt, without a newline) and waits for the answer line.
   * @param line - the prompt as one line of JSON.
   * @param deadlineMs - how long to wait for the answer.
   * @param signal - stops the wait: the copy is then ended, and the signal's reason is thrown.
   */
  async ask(line: string, deadlineMs: number, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    if (this.exit !== undefined) {
      throw new ModelCallError(`the model ${this.exit} before answering`, "exited");
    }
    this.child.stdin!.write(`${line}\n`);
    const queued = this.lines.shift();
    if (queued !== undefined) return queued;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const answer = await new Promise<string | undefined | "timeout" | "aborted">((resolve) => {
      this.waiting = resolve;
      const give = (why: "timeout" | "aborted") => {
        this.waiting = undefined;
        resolve(why);
      };
      timer = setTimeout(() => give("timeout"), deadlineMs);
      onAbort = () => give("aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
    }).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort!);
    });
    if (answer === "aborted") {
      this.exit = "was stopped";
      this.kill();
      throw signal!.reason;
    }
    if (answer === "timeout") {
      this.exit = `did not answer within ${deadlineMs / 1000} s`;
      this.kill();
      throw new ModelCallError(`the model ${this.exit}`, "timeout");
    }
    if (answer === undefined) {
      throw new ModelCallError(`the model ${this.exit ?? "exited"} before answering`, "exited");
    }
    return answer;
  }

  /**
   * Closes the model's stdin and ends its process group: every answer asked for has been read, and
   * a model left running would outlive pathlab (its group is its own).
   */
  close(): void {
    this.child.stdin!.end();
    this.exit ??= "was closed";
    this.kill();
  }

  /** SIGKILL to the model's process group (the shell and what it started); gone already is fine. */
  private kill(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // the group has exited
    }
  }
}
