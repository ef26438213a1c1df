/**
 * A thread of a model module (`pathlab backtest --model ./model.mjs`, through piscina): it imports
 * the module once, calls its `simulate` with each prompt, and returns the answer as the line a
 * model command would print, so that both forms keep the same candidate files.
 */

import type { ModelPrompt } from "./modelPrompt.ts";

/** One call: the module (a `file:` URL) and the prompt as its JSON line; none only loads it. */
export interface ModelThreadTask {
  readonly module: string;
  readonly line?: string;
}

type Simulate = (prompt: ModelPrompt) => unknown;

/** Each module's `simulate`, imported once per thread. */
const loaded = new Map<string, Promise<Simulate>>();

function simulateOf(module: string): Promise<Simulate> {
  let found = loaded.get(module);
  if (found === undefined) {
    found = import(module).then((exports: Record<string, unknown>) => {
      if (typeof exports.simulate !== "function") {
        const names = Object.keys(exports);
        throw new TypeError(
          `expected a module that exports a function simulate(prompt), got one that exports ${names.length === 0 ? "nothing" : names.join(", ")}`,
        );
      }
      return exports.simulate as Simulate;
    });
    loaded.set(module, found);
  }
  return found;
}

/**
 * Runs one call of a model module (piscina calls it with each task).
 * @param task - the module and the prompt's line.
 * @example await runModelTask({ module: "file:///home/me/model.mjs", line: JSON.stringify(prompt) }) // => '{"predictions":[[…],…]}'
 */
export default async function runModelTask(task: ModelThreadTask): Promise<string> {
  const simulate = await simulateOf(task.module);
  if (task.line === undefined) return "";
  const prompt = JSON.parse(task.line) as ModelPrompt;
  return answerLine(await simulate(prompt), prompt);
}

/**
 * The answer line of what `simulate` returned: paths (`number[][]`, or one path-major
 * `Float64Array` of `num_simulations` × points) become `{"predictions": …}`; another array (the
 * validator's list format) or object is written as it is, for the validation to judge. Throws for
 * a `Float64Array` of another length, and for anything that is not an array or an object.
 * @param result - what `simulate` returned (awaited).
 * @param prompt - the prompt it answers.
 * @example answerLine(new Float64Array(1000 * 61), prompt) // => '{"predictions":[[0,0,…],…]}'
 */
export function answerLine(result: unknown, prompt: ModelPrompt): string {
  if (result instanceof Float64Array) {
    const points = prompt.time_length / prompt.time_increment + 1;
    const paths = prompt.num_simulations;
    if (result.length !== paths * points) {
      throw new RangeError(
        `simulate returned a Float64Array of ${result.length} prices; expected ${paths} paths × ${points} points = ${paths * points}`,
      );
    }
    const predictions = Array.from({ length: paths }, (_, path) =>
      Array.from(result.subarray(path * points, (path + 1) * points)),
    );
    return JSON.stringify({ predictions });
  }
  if (Array.isArray(result) && Array.isArray(result[0])) {
    return JSON.stringify({ predictions: result });
  }
  if (typeof result === "object" && result !== null) return JSON.stringify(result);
  throw new TypeError(
    `simulate returned ${result === null ? "null" : typeof result}; expected paths (number[][] or one Float64Array) or an answer object`,
  );
}
