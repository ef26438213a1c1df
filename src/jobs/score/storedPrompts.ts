/**
 * Prompts already stored, left out of a run that asks so (`pathlab score --watch`): each tick
 * scores the new prompts of its window, and a restarted watch picks up where the store ends.
 */

import { readStoreOrLake } from "../../store/lake.ts";
import type { Store } from "../../store/openStore.ts";
import { storedPromptStarts } from "../../store/scoredPrompts.ts";
import { scoreUnitKey } from "./queueUnit.ts";
import type { CompetitionPrompts, RangeCompetition } from "./rangePrompts.ts";

/**
 * The natural keys (`scoreUnitKey`) of the prompts in `store`'s prompts table, or in the lake at
 * `lake` (none when it is not a lake yet).
 * @example const stored = await storedPromptKeys(store); stored.has("score.crypto-24h.BTC.20261119T120000Z")
 */
export async function storedPromptKeys(store: Store, lake?: string): Promise<Set<string>> {
  const prompts = await readStoreOrLake(store, lake, ["prompts"], storedPromptStarts);
  return new Set((prompts ?? []).map(scoreUnitKey));
}

/**
 * `planned` without the prompts whose keys are in `stored` (counted in each competition's
 * `skipped` as "already stored"; a competition left without a prompt is dropped), and how many
 * were left out.
 * @example const { fresh, alreadyStored } = withoutStored(planned, await storedPromptKeys(store));
 */
export function withoutStored<
  T extends { competition: RangeCompetition; prompts: CompetitionPrompts },
>(planned: readonly T[], stored: ReadonlySet<string>): { fresh: T[]; alreadyStored: number } {
  let alreadyStored = 0;
  const fresh = planned.flatMap((entry) => {
    const prompts = entry.prompts.prompts.filter((prompt) => !stored.has(scoreUnitKey(prompt)));
    const already = entry.prompts.prompts.length - prompts.length;
    alreadyStored += already;
    if (prompts.length === 0) return [];
    const skipped = { ...entry.prompts.skipped };
    if (already > 0) skipped["already stored"] = already;
    return [{ ...entry, prompts: { ...entry.prompts, prompts, skipped } }];
  });
  return { fresh, alreadyStored };
}
