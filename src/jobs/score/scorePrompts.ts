/**
 * The prompts of one competition, pooled and scored by the unit runner (on its pool threads or
 * here) and stored one by one in their order, each under its own deadline; a prompt that fails is
 * recorded with its reason and the others go on.
 */

import { isAuthenticationError } from "../../client/errors.ts";
import { isoSeconds } from "../../domain/time.ts";
import { runUnitsInOrder } from "../harness/unitRunner.ts";
import { deadlineMessage, type UnitDeadline } from "../harness/unitDeadline.ts";
import type { JobContext } from "./jobContext.ts";
import type { Agreement } from "./summary.ts";
import type { CompetitionPrompts, PlannedPrompt, RangeCompetition } from "./rangePrompts.ts";
import { scorePromptPool, type PromptPool } from "./scorePromptPool.ts";
import { storePromptPool } from "./storePrompt.ts";
import { takeCandidatePathSet } from "./candidate.ts";

/**
 * Stages 2, 3 and 6 for every prompt: pooled and scored by the unit runner (on its pool, as many
 * prompts at once as it has threads, or here, one by one), then compared and stored one by one
 * in the prompts' order. Each prompt's end is told to the job's breaker, which stops the job
 * (`context.signal`) once prompts fail alike in a row.
 * @example const { pools, verdicts } = await scorePrompts({ ...context, selected }, competition, planned);
 */
export async function scorePrompts(
  context: JobContext & { readonly selected: readonly number[] | undefined },
  competition: RangeCompetition,
  planned: CompetitionPrompts,
): Promise<{ pools: PromptPool[]; verdicts: Map<number, Agreement>[] }> {
  const pools: PromptPool[] = [];
  const verdicts: Map<number, Agreement>[] = [];
  const prompts = planned.prompts;
  const window = context.runner.capacity;
  await runUnitsInOrder(
    prompts,
    window,
    (prompt) => startPrompt(context, competition, prompt, window),
    async (prompt, { scored, deadline }, index) => {
      let storing = false;
      let miners = 0;
      try {
        const pool = await scored;
        deadline.signal.throwIfAborted();
        storing = true;
        const verdict = await storePromptPool(context.store, pool, context);
        await context.afterStore?.(competition.name, prompt);
        verdicts.push(verdict);
        pools.push(pool);
        miners = pool.network.length;
        context.breaker?.succeeded();
      } catch (error) {
        // One prompt that fails (a fault that outlasted the retries, a write that was rolled
        // back) is recorded with its reason; the others go on, and the run ends `partial`. A key
        // the service refuses would fail every prompt alike: it fails the run.
        if (context.signal?.aborted === true || isAuthenticationError(error)) throw error;
        // a write that failed on its own is that failure, even past the deadline
        const reason =
          deadline.passed && !storing
            ? deadline.message
            : error instanceof Error
              ? error.message
              : String(error);
        context.failures.push({
          where: `${competition.name} ${prompt.asset} ${isoSeconds(prompt.startUnix)}`,
          reason,
        });
        context.breaker?.failed(reason);
      }
      context.emit({
        type: "prompt",
        competition: competition.name,
        asset: prompt.asset,
        startTime: isoSeconds(prompt.startUnix),
        done: index + 1,
        of: prompts.length,
        miners,
      });
    },
  );
  return { pools, verdicts };
}

/**
 * Starts pooling and scoring one prompt under its own deadline: on the unit runner's pool when it
 * has threads (the deadline then runs from when a thread starts the prompt), else here with the
 * job's client (its calls stop at the deadline, which runs from now).
 */
function startPrompt(
  context: JobContext & { readonly selected: readonly number[] | undefined },
  competition: RangeCompetition,
  prompt: PlannedPrompt,
  inFlight: number,
): { scored: Promise<PromptPool>; deadline: UnitDeadline; stop: () => void } {
  const { matches, runner } = context;
  const file = matches.fileFor(competition.name, prompt.asset, prompt.startUnix);
  // On the validator's prompts of its assets (the fill where it has no file); elsewhere only
  // where it answered.
  const candidate = {
    takesPart:
      matches.covers(competition.name, prompt.asset) &&
      (prompt.rows.length > 0 || file !== undefined),
    file,
    pathSet: file === undefined ? undefined : takeCandidatePathSet(file),
  };
  const message = deadlineMessage("prompt", context.unitDeadlineMs);
  const deadline = runner.deadline(context.unitDeadlineMs, message, inFlight);
  let scored: Promise<PromptPool>;
  if (runner.onThreads) {
    scored = runner.pool.scorePrompt(
      {
        kind: "score prompt",
        client: context.threadClient,
        keys: context.keys.changes,
        prompt,
        ownOnly: context.ownOnly,
        selected: context.selected,
        eraSettings: context.eraSettings,
        candidate,
        deadlineMs: context.unitDeadlineMs,
        deadlineMessage: message,
      },
      deadline.signal,
    );
  } else {
    deadline.start();
    const client = context.client.withSignal(deadline.signal);
    scored = scorePromptPool({ ...context, client }, prompt, candidate);
  }
  // Read in turn by scorePrompts; a failure before then is not an unhandled one.
  scored.catch(() => {});
  return { scored, deadline, stop: () => deadline.stop() };
}
