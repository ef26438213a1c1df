/**
 * The baseline job (`pathlab baseline`): a first candidate and a bar to beat. For every prompt of a
 * competition in a time range (the service's validator prompts), it simulates 1,000 paths of a
 * textbook model from the realized price at the start, with the volatility realized over the 24 h
 * before, and writes them as a candidate file that `pathlab validate` and `pathlab score
 * --candidate` read. Plan (`planBaseline`) → units (`writeBaselineFiles`, one file per prompt) →
 * reduce (the summary); the run harness (`runJob`) does the rest.
 */

import { runJob } from "../harness/runJob.ts";
import { checkBaselineOptions, type BaselineOptions } from "./options.ts";
import { planBaseline } from "./plan.ts";
import { summarizeVolatility, type BaselineSummary } from "./summary.ts";
import { writeBaselineFiles } from "./write.ts";

/**
 * Runs `pathlab baseline`: asks the service (by default the embedded sandbox) for the validator's
 * prompts of `competition` in [from, to], for every asset; fetches the realized 1-minute closes
 * from 24 h before the first start to the last; and for each prompt writes
 * `<out>/<ASSET>-<start>-<horizon>.json` with `paths` paths of the model (see
 * `simulateBaselinePaths`): point 0 = the realized price at the start (the last close at or
 * before it), σ per step = the sample deviation of the 1-minute log returns over the 24 h before
 * the start × √(increment / 60); prices rounded with `roundPrice`. The paths of a prompt depend
 * only on `modelSeed`, the asset and the start. Throws `UsageError` for options that cannot
 * work, and for files in `out` it did not write unless `force`; `JobInterruptedError` when
 * `signal` aborts.
 * @param options - the range, competition, model and output folder, and the service, seed and paths
 *   per file when not the defaults.
 * @example
 * const summary = await runBaseline({ from: "2026-11-21T09:00:00Z", to: "2026-11-21T10:00:00Z", competition: "crypto-1h", model: "gbm", out: "./baseline" });
 * summary.files.length // => the number of prompts of the range
 */
export async function runBaseline(options: BaselineOptions): Promise<BaselineSummary> {
  const definition = {
    command: "baseline",
    check: checkBaselineOptions,
    writes: "nothing" as const,
    interruptedMessage: (_job: unknown, why: string) =>
      `baseline: ${why}; the files written until then are whole (in ${options.out})`,
  };
  return runJob(definition, options, async (job) => {
    const plan = await planBaseline(job, options);
    const { files, skipped, notScoredYet } = await writeBaselineFiles(job, plan, options);
    const { competition, model, out } = job.checked;
    return job.redact<BaselineSummary>({
      command: "baseline",
      competition,
      model,
      modelSeed: plan.modelSeed,
      simulations: plan.nPaths,
      from: options.from,
      to: options.to,
      out,
      service: job.service,
      prompts: plan.prompts.length,
      files,
      replaced: plan.replaced,
      notScoredYet,
      skipped,
      volatility: summarizeVolatility(files).sort(
        (a, b) => plan.assets.indexOf(a.asset) - plan.assets.indexOf(b.asset),
      ),
      durationMs: job.durationMs(),
      exitCode: plan.prompts.length > 0 && skipped.length === 0 ? 0 : 1,
    });
  });
}
