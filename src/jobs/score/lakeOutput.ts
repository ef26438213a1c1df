/**
 * `pathlab score --lake`: the run computes into a working store in memory and moves each prompt,
 * once stored, into the lake as that prompt's unit (the files `pathlab worker` writes for it), so
 * that the lake's readers are never locked out and a rerun replaces a prompt's files.
 */

import { emptyTables, prepareLake, writeLakeUnit } from "../../store/lake.ts";
import type { Store } from "../../store/openStore.ts";
import { SCORED_PROMPT_TABLES } from "../../store/scoredPrompts.ts";
import { lakeUnitOf } from "./queueUnit.ts";
import type { PlannedPrompt, RangeCompetition } from "./rangePrompts.ts";

/**
 * The prompt tables with `prompts` last: a prompt counts as stored (`storedPromptKeys`, which a
 * watch skips) only once every other table of it was written.
 */
const PROMPTS_LAST = [...SCORED_PROMPT_TABLES.filter((table) => table !== "prompts"), "prompts"];

/**
 * The `afterStore` of a run into `lake` whose working store is `store`: writes the prompt's rows
 * as its unit's files, then empties the prompt tables of the working store (also when the write
 * failed, so that the next prompt's files hold its rows alone). Checks the lake at once (a folder
 * of other files is refused before any work).
 * @example const afterStore = lakeOutput("./lake", store);
 */
export function lakeOutput(
  lake: string,
  store: Store,
): (competition: RangeCompetition["name"], prompt: PlannedPrompt) => Promise<void> {
  prepareLake(lake);
  return async (competition, prompt) => {
    try {
      const unit = lakeUnitOf({ competition, asset: prompt.asset, startUnix: prompt.startUnix });
      await writeLakeUnit(lake, unit, store, PROMPTS_LAST);
    } finally {
      await emptyTables(store, SCORED_PROMPT_TABLES);
    }
  };
}
