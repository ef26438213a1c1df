/**
 * `pathlab enqueue backtest`: the prompts of a backtest's range as units on the queue, one per
 * prompt, for `pathlab worker` processes to answer with the model and score into a lake
 * (`backtest/backtestUnit.ts`). The range and the miners are planned here, once, as
 * `pathlab backtest` plans them; `pathlab lake reduce` then ranks the candidate among the miners.
 */

import { resolve } from "node:path";
import type { Competition } from "../../domain/assets.ts";
import type { ServiceChoice } from "../../service/resolveService.ts";
import { UsageError } from "../../service/usageError.ts";
import { checkModelCommand } from "../backtest/answers.ts";
import type { BacktestUnit } from "../backtest/backtestUnit.ts";
import { modelModuleOf } from "../backtest/modelThreads.ts";
import { enqueuePromptUnits, type EnqueueScoreOptions, type EnqueueSummary } from "./enqueue.ts";

/**
 * Options of {@link runEnqueueBacktest}: the model and range of `pathlab backtest`, and the queue.
 * @example const options: EnqueueBacktestOptions = { model: "python3 /srv/gbm.py", competition: "crypto-1h", from, to, out: "/shared/answers", redis: "redis://127.0.0.1:6379" };
 */
export interface EnqueueBacktestOptions
  extends
    ServiceChoice,
    Pick<EnqueueScoreOptions, "client" | "eraSettings" | "redis" | "queue" | "miners"> {
  /** The model: a command line (run in each worker's working folder), or an ES module file. */
  readonly model: string;
  readonly competition: Competition;
  readonly from: string;
  readonly to: string;
  readonly assets?: readonly string[];
  /** The answers' folder, which every worker must reach (made absolute here). */
  readonly out: string;
  /** Seconds a model call may take (default 60). */
  readonly modelTimeoutSeconds?: number;
  /** Seconds of realized prices in each prompt's `history` (default 86,400). */
  readonly lookbackSeconds?: number;
}

/**
 * Plans the backtest's prompts (as `pathlab backtest` scores them) and enqueues one unit per
 * prompt. Throws `UsageError` for options that cannot work.
 * @param options - the model, the range and competition, the answers' folder, the service, and
 *   the Redis server and queue name.
 * @example const summary = await runEnqueueBacktest({ model: "python3 /srv/gbm.py", competition: "crypto-1h", from, to, out: "/shared/answers", redis: "redis://127.0.0.1:6379" });
 */
export async function runEnqueueBacktest(options: EnqueueBacktestOptions): Promise<EnqueueSummary> {
  checkModelCommand(options.model);
  if (options.out === "") {
    throw new UsageError('enqueue backtest: --out: expected a folder, got ""');
  }
  // a module is named by its absolute path, a folder too: the workers' working folders may differ
  const module = modelModuleOf(options.model);
  const model = module === undefined ? options.model : resolve(options.model.trim());
  const out = resolve(options.out);
  return enqueuePromptUnits(options, (unit): BacktestUnit => ({
    ...unit,
    kind: "backtest",
    model,
    out,
    modelTimeoutMs: (options.modelTimeoutSeconds ?? 60) * 1000,
    lookbackSeconds: options.lookbackSeconds ?? 86400,
  }));
}
