/**
 * `pathlab score --lake`: the run computes into a working store in memory and moves each prompt,
 * once stored, into the lake as that prompt's unit (the folder `pathlab worker` writes for it,
 * published whole), so that the lake's readers are never locked out and a rerun replaces a
 * prompt's folder.
 */

import { emptyTables, prepareLake } from "../../store/lake.ts";
import { writeLakeUnit } from "../../store/lakeWrite.ts";
import type { Store } from "../../store/openStore.ts";
import { SCORED_PROMPT_TABLES } from "../../store/scoredPrompts.ts";
import { lakeUnitOf } from "./queueUnit.ts";
import type { PlannedPrompt, RangeCompetition } from "./rangePrompts.ts";

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
      await writeLakeUnit(lake, unit, store, SCORED_PROMPT_TABLES);
    } finally {
      await emptyTables(store, SCORED_PROMPT_TABLES);
    }
  };
}
