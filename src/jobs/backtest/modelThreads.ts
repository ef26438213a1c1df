/**
 * A user's model as an ES module (`pathlab backtest --model ./model.mjs`) on worker threads,
 * through piscina: each thread imports the module and answers one prompt at a time with its
 * `simulate(prompt)`. A copy (`copy()`) is asked as a model process is, so that the backtest treats
 * both forms alike: a call that throws or misses its deadline costs its prompt and ends the copy (a
 * timed-out call's thread is ended with it, and piscina starts another).
 */

import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import { workerEntry } from "../../domain/workerEntry.ts";
import { UsageError } from "../../service/usageError.ts";
import { ModelCallError } from "./modelProcess.ts";
import type { ModelThreadTask } from "./modelThread.ts";

/**
 * The `file:` URL of the ES module `model` names, or `undefined` when `model` is a command: a
 * module is one argument (no space) ending in `.mjs` or `.js` that names an existing file.
 * @param model - the `--model` text.
 * @param cwd - the folder a relative path starts from (the current one by default).
 * @example modelModuleOf("./model.mjs") // => "file:///home/me/model.mjs" (when the file is there)
 * @example modelModuleOf("python3 model.py") // => undefined
 */
export function modelModuleOf(model: string, cwd = process.cwd()): string | undefined {
  const text = model.trim();
  if (/\s/.test(text) || !/\.m?js$/.test(text)) return undefined;
  const path = resolve(cwd, text);
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  return pathToFileURL(path).href;
}

/**
 * The threads of one model module.
 * @example const threads = new ModelThreads(modelModuleOf("./model.mjs")!, 2); await threads.check(); const line = await threads.copy().ask(JSON.stringify(prompt), 60_000); await threads.close();
 */
export class ModelThreads {
  private readonly piscina: Piscina<ModelThreadTask, string>;

  /**
   * Starts `threads` threads, which live until {@link ModelThreads.close}.
   * @param module - the module's `file:` URL ({@link modelModuleOf}).
   * @param threads - how many calls run at once.
   */
  constructor(
    readonly module: string,
    threads: number,
  ) {
    this.piscina = new Piscina<ModelThreadTask, string>({
      filename: fileURLToPath(workerEntry(import.meta.url, "modelThread")),
      // the threads live as long as the pool: a module keeps what it loaded between calls
      minThreads: Math.max(1, threads),
      maxThreads: Math.max(1, threads),
      // a model may await (files, other workers): its thread's event loop runs between calls
      atomics: "disabled",
    });
  }

  /**
   * Loads the module on a thread: throws a {@link UsageError} naming the file when it cannot be
   * imported or exports no `simulate` function.
   */
  async check(): Promise<void> {
    try {
      await this.piscina.run({ module: this.module });
    } catch (error) {
      const path = fileURLToPath(this.module);
      throw new UsageError(
        `backtest: --model ${path}: ${(error as Error).message} (a model that reads prompts on stdin runs as a command: --model "node ${path}")`,
      );
    }
  }

  /** A copy of the model on these threads, asked as a {@link ModelProcess} is. */
  copy(): ModelThreadCopy {
    return new ModelThreadCopy(this.piscina, this.module);
  }

  /** Ends the threads. */
  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

/** One copy of a model module: alive until a call fails. */
class ModelThreadCopy {
  alive = true;

  constructor(
    private readonly piscina: Piscina<ModelThreadTask, string>,
    private readonly module: string,
  ) {}

  /**
   * Calls `simulate` with the prompt `line` on a thread; rejects with a {@link ModelCallError}
   * when it throws, returns what is not an answer, or misses `deadlineMs` (its thread is ended).
   * @param line - the prompt as one line of JSON.
   * @param deadlineMs - how long the call may take.
   * @param signal - stops the call (its thread is ended), and the signal's reason is thrown.
   */
  async ask(line: string, deadlineMs: number, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const call = new AbortController();
    const timer = setTimeout(() => call.abort(), deadlineMs);
    const stop = () => call.abort();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      return await this.piscina.run({ module: this.module, line }, { signal: call.signal });
    } catch (error) {
      this.alive = false;
      if (signal?.aborted === true) throw signal.reason;
      if (call.signal.aborted) {
        throw new ModelCallError(
          `the model did not answer within ${deadlineMs / 1000} s`,
          "timeout",
        );
      }
      throw new ModelCallError(
        `the model's simulate failed: ${(error as Error).message}`,
        "exited",
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
  }

  /** Nothing to end: the threads belong to {@link ModelThreads}. */
  close(): void {}
}
