/**
 * Stage 6 of the score job for one prompt: every entry of the pool compared with the service's row
 * and stored, with the prompt, its realized path and the service's rows, in one transaction.
 */

import type { Store } from "../../store/openStore.ts";
import { writeScoredPrompt, type MinerScoreEntry } from "../../store/scoredPrompts.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { Agreement } from "./summary.ts";
import { agreementOf, combined, type AgreementTally } from "./agreement.ts";
import type { MinerKeys } from "./minerKeys.ts";
import type { PoolEntry, PromptPool } from "./scorePromptPool.ts";

/**
 * Compares each network entry of `pool` with the service's row (CRPS, unless it is the service's
 * own; prompt score), counts the verdicts in `tally`, stores the prompt, and returns each miner's
 * verdict by uid.
 * @example const verdicts = await storePromptPool(store, pool, { keys, tally, runId, signal });
 */
export async function storePromptPool(
  store: Store,
  pool: PromptPool,
  context: {
    readonly keys: MinerKeys;
    readonly tally: AgreementTally;
    /** The run the rows belong to; null for a queued unit, which belongs to no run. */
    readonly runId: number | null;
    readonly signal: AbortSignal | undefined;
  },
): Promise<Map<number, Agreement>> {
  const { prompt } = pool;
  const where = `${prompt.competition} ${prompt.asset} ${isoSeconds(prompt.startUnix)}`;
  const serviceRow = new Map(prompt.rows.map((row) => [row.miner_uid, row]));
  const verdicts = new Map<number, Agreement>();
  const entries: MinerScoreEntry[] = pool.network.map((entry) => {
    const service = serviceRow.get(entry.minerUid);
    const promptScore = pool.promptScoreOf.get(entry.minerUid) ?? null;
    const crpsVerdict =
      entry.source === "service"
        ? "not compared"
        : agreementOf(entry.crps, service?.crps ?? null, 1e-9);
    const scoreVerdict = agreementOf(promptScore, service?.prompt_score ?? null, 1e-9);
    context.tally.add(crpsVerdict, () => ({
      what: "prompt CRPS",
      where,
      minerUid: entry.minerUid,
      ours: entry.crps,
      service: service?.crps ?? null,
    }));
    context.tally.add(scoreVerdict, () => ({
      what: "prompt score",
      where,
      minerUid: entry.minerUid,
      ours: promptScore,
      service: service?.prompt_score ?? null,
    }));
    const verdict = combined([crpsVerdict, scoreVerdict]);
    verdicts.set(entry.minerUid, verdict);
    return storedEntry(entry, context.keys.minerOf(entry.minerKey).hotkey, {
      promptScore,
      serviceCrps: service?.crps ?? null,
      servicePromptScore: service?.prompt_score ?? null,
      verdict,
    });
  });
  if (pool.candidate !== undefined) {
    entries.push(
      storedEntry(pool.candidate, null, {
        promptScore: pool.candidatePromptScore,
        serviceCrps: null,
        servicePromptScore: null,
        verdict: "not compared",
      }),
    );
  }
  await writeScoredPrompt(
    store,
    {
      asset: prompt.asset,
      timeIncrement: prompt.timeIncrement,
      timeLength: prompt.timeLength,
      startTimeUnix: prompt.startUnix,
      competition: prompt.competition,
      scoreRule: prompt.era.promptScoreRule,
      ...(pool.realized !== undefined && { realizedPrices: pool.realized.real_prices }),
      serviceRows: prompt.rows,
      minerScores: entries,
    },
    context.runId,
    context.signal,
  );
  return verdicts;
}

function storedEntry(
  entry: PoolEntry,
  hotkey: string | null,
  compared: Pick<MinerScoreEntry, "promptScore" | "serviceCrps" | "servicePromptScore" | "verdict">,
): MinerScoreEntry {
  const score = entry.source === "service" ? undefined : entry.score;
  return {
    source: entry.source,
    minerUid: entry.minerUid,
    hotkey,
    crps: entry.crps,
    priceCrps: score?.priceCrps ?? null,
    volatilityCrps: score?.volatilityCrps ?? null,
    intervals: score?.intervals ?? {},
    invalidReason: entry.reason,
    calibration: score?.calibration,
    ...compared,
  };
}
