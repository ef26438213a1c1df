/**
 * The backtest unit: one prompt of a backtest, as `pathlab enqueue backtest` puts it on a queue
 * and `pathlab worker` runs it. The worker asks the model for the prompt (unless the answers'
 * folder already holds its answer) and keeps the answer there as `pathlab backtest` does; then it
 * scores the prompt with that answer as the candidate, into the lake: the files of the prompt's
 * score unit with one more miner (key −1), which `pathlab lake reduce` ranks among the network's
 * miners. A model call that fails costs the prompt the validator's penalty, and the unit is stored
 * with the reason.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { baselineFileName } from "../baseline/file.ts";
import type { PromptCandidate } from "../score/scorePromptPool.ts";
import { folderFileOf, readCandidateFile } from "../score/candidate.ts";
import { fitsShape } from "../score/candidateMatch.ts";
import {
  runScoreUnitIntoLake,
  scoreUnitKey,
  type MinerKeysCache,
  type ScoreUnit,
} from "../score/queueUnit.ts";
import { fetchMinuteCloses } from "../sync/fetchMinuteCloses.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { answered, askModel, historySeconds } from "./answers.ts";
import { modelModuleOf, ModelThreads } from "./modelThreads.ts";

/**
 * One prompt of a backtest on the queue (see the module comment): the score unit of the prompt,
 * the model and the folder of its answers.
 * @example const key = backtestUnitKey(unit); // "backtest.1a2b3c4d.crypto-1h.BTC.20261121T090000Z"
 */
export interface BacktestUnit extends Omit<ScoreUnit, "kind"> {
  readonly kind: "backtest";
  /**
   * The model, as `--model` takes it: a command line, run through the shell in the worker's
   * working folder, or the absolute path of an ES module that exports `simulate(prompt)`.
   */
  readonly model: string;
  /** The folder of the answers: an absolute path that every worker reaches. */
  readonly out: string;
  /** Milliseconds the model's call may take. */
  readonly modelTimeoutMs: number;
  /** Seconds of realized prices before the start in the prompt's `history`. */
  readonly lookbackSeconds: number;
}

/**
 * The unit's natural key, its job id on the queue: the prompt's, under the answers' folder (two
 * backtests of one range into two folders are two sets of units). Its rows go into the lake under
 * the prompt's score unit key, so that they replace a plain score unit's rows of the prompt.
 * @example backtestUnitKey(unit) // => "backtest.1a2b3c4d.crypto-1h.BTC.20261121T090000Z"
 */
export function backtestUnitKey(
  unit: Pick<BacktestUnit, "out" | "competition" | "asset" | "startUnix">,
): string {
  const folder = createHash("sha256").update(unit.out).digest("hex").slice(0, 8);
  return `backtest.${folder}.${scoreUnitKey(unit).slice("score.".length)}`;
}

/**
 * Runs one backtest unit (see the module comment). Resolves to the rows written, and why the
 * model gave no answer, when the prompt took the penalty for it.
 * @param unit - the unit.
 * @param context - the service's client, the cache of uid holders, the lake, and a signal that
 *   stops the model's call.
 * @example const { rows, penalized } = await runBacktestUnitIntoLake(unit, { client, keys, lake: "./lake" });
 */
export async function runBacktestUnitIntoLake(
  unit: BacktestUnit,
  context: {
    readonly client: PathlabClient;
    readonly keys: MinerKeysCache;
    readonly lake: string;
    readonly signal?: AbortSignal;
  },
): Promise<{ rows: number; penalized: string[] }> {
  const { asset, startUnix, timeIncrement, timeLength } = unit;
  const fileName = () => baselineFileName(asset, startUnix, timeLength);
  const path = join(unit.out, fileName());
  const penalized: string[] = [];
  if (!answered(path)) {
    const from = startUnix - historySeconds(unit.lookbackSeconds);
    const closes = await fetchMinuteCloses(context.client, asset, from, startUnix);
    const module = modelModuleOf(unit.model);
    const threads = module === undefined ? undefined : new ModelThreads(module, 1);
    try {
      await threads?.check();
      const asked = await askModel([{ asset, startUnix }], new Map([[asset, closes]]), {
        command: unit.model,
        ...(threads !== undefined && { threads }),
        out: unit.out,
        concurrency: 1,
        deadlineMs: unit.modelTimeoutMs,
        maxRestarts: 0,
        lookbackSeconds: unit.lookbackSeconds,
        timeIncrement,
        timeLength,
        fileName,
        ...(context.signal !== undefined && { signal: context.signal }),
      });
      for (const failure of asked.failures) penalized.push(failure.reason);
    } finally {
      await threads?.close();
    }
  }
  const { file, pathSet } = folderFileOf(path, await readCandidateFile(path));
  // an answer to another prompt (the list layout names its own start) answers not this one
  const answers = file.asset === asset && file.startTimeUnix === startUnix && fitsShape(file, unit);
  // as `score --candidate` places it: on a prompt the service scored, or one it answers
  const candidate: PromptCandidate = {
    takesPart: unit.rows.length > 0 || answers,
    file: answers ? file : undefined,
    pathSet: answers ? pathSet : undefined,
  };
  const { rows } = await runScoreUnitIntoLake(unit, { ...context, candidate });
  return { rows, penalized };
}
