/**
 * The first step of a backtest: each prompt of the range put to the user's model, as a validator
 * would put it, and the answer kept as a candidate file (`<out>/<ASSET>-<start>-<horizon>.json`)
 * that `pathlab validate` and `pathlab score --candidate` read. A prompt whose file is already
 * there is not asked again, so a rerun asks only for what is missing.
 */

import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { isoSeconds } from "../../domain/time.ts";
import { UsageError } from "../../service/usageError.ts";
import { writeFileAtomically } from "../baseline/file.ts";
import type { MinuteCloses } from "../sync/fetchMinuteCloses.ts";
import { ModelCallError, ModelProcess } from "./modelProcess.ts";
import type { ModelPrompt } from "./modelPrompt.ts";
import type { ModelThreads } from "./modelThreads.ts";

/**
 * A prompt the model gave no answer for, and why (the process exited, or missed its deadline).
 * @example const failure: ModelFailure = { asset: "BTC", startTime: "2026-11-21T09:05:00Z", reason: "the model exited (code 1) before answering" };
 */
export interface ModelFailure {
  readonly asset: string;
  readonly startTime: string;
  readonly reason: string;
}

/** What `askModel` needs. */
export interface AskModelOptions {
  readonly command: string;
  /** The threads of a model module (`--model ./model.mjs`); none: `command` runs as a process. */
  readonly threads?: ModelThreads;
  readonly out: string;
  readonly concurrency: number;
  readonly deadlineMs: number;
  /** Restarts of the model allowed before the run stops. */
  readonly maxRestarts: number;
  readonly lookbackSeconds: number;
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly fileName: (asset: string, startUnix: number) => string;
  readonly signal?: AbortSignal;
  readonly onAnswer?: (prompt: ModelPrompt, file: string) => void;
}

/**
 * How far before a prompt's start the realized closes of its history reach: the look-back, and
 * the minute before the first point (the candle that closes at that point starts then).
 * @param lookbackSeconds - the prompt's look-back.
 * @example historySeconds(86400) // => 86460
 */
export function historySeconds(lookbackSeconds: number): number {
  return lookbackSeconds + 60;
}

/**
 * The model's prompt for a start: the history on the prompt's grid (start − lookback, …, start −
 * increment), each point the close of the 1-minute candle ending then; points without a close are
 * left out.
 * @param asset - the prompt's asset.
 * @param startUnix - its start, Unix seconds.
 * @param closes - the asset's realized 1-minute closes.
 * @param options - the prompt's shape and the look-back.
 * @example modelPrompt("BTC", start, closes, { timeIncrement: 60, timeLength: 3600, lookbackSeconds: 86400 })
 */
export function modelPrompt(
  asset: string,
  startUnix: number,
  closes: MinuteCloses,
  options: Pick<AskModelOptions, "timeIncrement" | "timeLength" | "lookbackSeconds">,
): ModelPrompt {
  const history: [number, number][] = [];
  const first =
    startUnix - Math.floor(options.lookbackSeconds / options.timeIncrement) * options.timeIncrement;
  for (let time = first; time < startUnix; time += options.timeIncrement) {
    // the candle that starts a minute before `time` closes at `time`
    const price = closes.minuteClose(time - 60);
    if (price > 0 && Number.isFinite(price)) history.push([time, price]);
  }
  return {
    asset,
    start_time: isoSeconds(startUnix),
    time_increment: options.timeIncrement,
    time_length: options.timeLength,
    num_simulations: 1000,
    history,
  };
}

/**
 * The text of a candidate file from the model's answer line: `{"predictions": …}` becomes the
 * record layout with the prompt it answers; the validator's list layout and anything else are
 * kept as the model wrote them, for `validate` to judge (an invalid answer then gets the
 * validator's penalty, and its reason in the score's summary). An answer whose only key is
 * `predictions` keeps its text too: the prompt's fields are written in front of it, so its
 * numbers reach the validation as the model wrote them, and the answer is parsed once, when the
 * file is read. An answer that opens with `{"predictions":` and has no other `"` is taken for one
 * without a parse here (the file's reading rejects it if it is not JSON).
 * @param prompt - the prompt the line answers.
 * @param startUnix - its start, Unix seconds.
 * @param line - the model's answer line.
 * @example answerFileText(prompt, 1795244400, '{"predictions": [[1, 2]]}') // => '{"asset":"BTC",…,"start_time":1795244400,"predictions": [[1, 2]]}'
 */
export function answerFileText(prompt: ModelPrompt, startUnix: number, line: string): string {
  const head = JSON.stringify({
    asset: prompt.asset,
    time_increment: prompt.time_increment,
    time_length: prompt.time_length,
    start_time: startUnix,
  });
  const opening = ONLY_PREDICTIONS.exec(line.slice(0, 64));
  // No other quote after the key: no other key (and no string), so no parse is needed to see
  // that `predictions` is the only key; the file's reading checks the rest.
  if (opening !== null && !line.includes('"', opening[0].length)) {
    return `${head.slice(0, -1)},${line.trimStart().slice(1)}`;
  }
  let answer: unknown;
  try {
    answer = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return line;
  if (!("predictions" in answer)) return line;
  const keys = Object.keys(answer);
  if (keys.length === 1) return `${head.slice(0, -1)},${line.trimStart().slice(1)}`;
  const predictions = (answer as { predictions: unknown }).predictions;
  return `${head.slice(0, -1)},"predictions":${JSON.stringify(predictions)}}`;
}

/** The opening of an answer `{"predictions": …` (JSON's whitespace allowed around it). */
const ONLY_PREDICTIONS = /^[ \t\n\r]*\{[ \t\n\r]*"predictions"[ \t\n\r]*:/;

/**
 * Asks the model for every prompt of `prompts` whose file `out` lacks, `concurrency` copies at a
 * time, one prompt per copy at a time (a copy is a process of the command, or a call at a time on
 * the module's threads); writes each answer's file. A copy that exits or misses its
 * deadline costs its prompt (a {@link ModelFailure}, and a file the validator rejects, so that the
 * prompt takes its penalty and a rerun asks again) and is started again; after `maxRestarts`
 * restarts in all, the run stops with an error naming the last failure.
 * @param prompts - the prompts, by start then asset.
 * @param closes - each asset's realized closes.
 * @param options - the command, the folder, the deadlines and the prompt's shape.
 * @example const { asked, failures } = await askModel(prompts, closes, options);
 */
export async function askModel(
  prompts: readonly { asset: string; startUnix: number }[],
  closes: ReadonlyMap<string, MinuteCloses>,
  options: AskModelOptions,
): Promise<{ asked: number; kept: number; failures: ModelFailure[] }> {
  await mkdir(options.out, { recursive: true });
  const todo = prompts.filter(
    (prompt) => !answered(join(options.out, options.fileName(prompt.asset, prompt.startUnix))),
  );
  const failures: ModelFailure[] = [];
  let restarts = 0;
  let next = 0;
  const copy = async () => {
    let model: Pick<ModelProcess, "alive" | "ask" | "close"> | undefined;
    try {
      while (next < todo.length && options.signal?.aborted !== true) {
        const { asset, startUnix } = todo[next++];
        const prompt = modelPrompt(asset, startUnix, closes.get(asset)!, options);
        if (model !== undefined && !model.alive) {
          restarts += 1;
          if (restarts > options.maxRestarts) {
            const last = failures.at(-1)?.reason ?? "it stopped";
            throw new Error(
              `backtest: the model was restarted ${options.maxRestarts} times and failed again (${last}); the answers until then are kept in ${options.out}`,
            );
          }
          model = undefined;
        }
        model ??= options.threads?.copy() ?? new ModelProcess(options.command);
        try {
          const line = await model.ask(JSON.stringify(prompt), options.deadlineMs, options.signal);
          const file = join(options.out, options.fileName(asset, startUnix));
          await writeFileAtomically(file, answerFileText(prompt, startUnix, line));
          options.onAnswer?.(prompt, file);
        } catch (error) {
          if (!(error instanceof ModelCallError)) throw error;
          failures.push({ asset, startTime: prompt.start_time, reason: error.message });
          // the prompt with no path: the validator rejects it, so the prompt is scored with its
          // penalty; a rerun asks again
          const file = join(options.out, options.fileName(asset, startUnix));
          const noAnswer = JSON.parse(answerFileText(prompt, startUnix, '{"predictions":[]}'));
          const text = JSON.stringify({ [FAILURE_KEY]: error.message, ...noAnswer });
          await writeFileAtomically(file, `${text}\n`);
        }
      }
    } finally {
      model?.close();
    }
  };
  const copies = Math.max(1, Math.min(options.concurrency, todo.length));
  await Promise.all(Array.from({ length: copies }, copy));
  if (options.signal?.aborted === true) throw options.signal.reason;
  return { asked: todo.length, kept: prompts.length - todo.length, failures };
}

/** The one key of the file that stands for a prompt the model gave no answer to. */
const FAILURE_KEY = "backtest_no_answer";

/**
 * Whether `file` holds an answer: it exists and is not the file of a failed call (which is asked
 * again).
 * @param file - the answer's path in the answers' folder.
 * @example answered("./backtest/BTC-20261121T090000Z-1h.json") // => true once the model answered
 */
export function answered(file: string): boolean {
  if (!existsSync(file)) return false;
  const descriptor = openSync(file, "r");
  try {
    const head = Buffer.alloc(FAILURE_KEY.length + 2);
    readSync(descriptor, head, 0, head.length, 0);
    return head.toString("utf8") !== `{"${FAILURE_KEY}`;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Throws a {@link UsageError} for a model command that is empty.
 * @param command - the `--model` text.
 * @example checkModelCommand("python3 model.py")
 */
export function checkModelCommand(command: string): void {
  if (command.trim() === "") {
    throw new UsageError(
      'backtest: --model: expected a command such as "python3 model.py", got ""',
    );
  }
}
