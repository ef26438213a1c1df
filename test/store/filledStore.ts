/** A store with rows in every table, for the export tests. */
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { finishRun, startRun } from "../../src/store/runs.ts";
import { writeScoredPrompt } from "../../src/store/scoredPrompts.ts";
import { writeAuditFindings } from "../../src/store/auditFindings.ts";
import { writeRankHistory } from "../../src/store/rankHistory.ts";
import { writeSmoothedScores } from "../../src/store/smoothedScoreRows.ts";
import { writeUnit } from "../../src/store/writeUnit.ts";
import { SCORED_PROMPT, SMOOTHED_SCORES } from "./scoringUnits.ts";
import { completeUnit, FORECAST_START } from "./units.ts";

/**
 * A store with two units (BTC on 2026-02-25, ETH on 2026-02-26), a scored prompt (BTC, 2026-02-25),
 * smoothed scores and rank history (2026-02-26) and a finished run: rows in every table.
 */
export async function filledStore(folder: string): Promise<Store> {
  const store = await openStore(join(folder, "pathlab.duckdb"));
  const run = await startRun(store, { command: "sync", args: {}, startedAtUnix: FORECAST_START });
  await writeUnit(store, completeUnit(2, 20, run.id));
  const eth = completeUnit(3, 10, run.id);
  await writeUnit(store, {
    ...eth,
    asset: "ETH",
    forecastStartTimeUnix: FORECAST_START + 3600,
    pathSets: eth.pathSets!.map((entry) => ({
      ...entry,
      pathSet: { ...entry.pathSet, asset: "ETH", startTime: FORECAST_START + 3600 },
    })),
  });
  await writeScoredPrompt(store, SCORED_PROMPT, run.id);
  await writeSmoothedScores(store, "crypto-1h", FORECAST_START + 3600, SMOOTHED_SCORES, run.id);
  await writeRankHistory(
    store,
    "crypto-1h",
    [
      {
        updatedAtUnix: FORECAST_START + 3600,
        source: "network",
        minerUid: 17,
        hotkey: "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX",
        rank: 1,
        of: 2,
        smoothedScore: 12,
        rewardWeight: 0.25,
        windowInRange: true,
      },
      {
        updatedAtUnix: FORECAST_START + 3600,
        source: "candidate",
        minerUid: -1,
        hotkey: null,
        rank: 2,
        of: 2,
        smoothedScore: 14.5,
        rewardWeight: 0.08,
        windowInRange: true,
      },
    ],
    run.id,
  );
  await writeAuditFindings(store, run.id, [
    {
      asset: "BTC",
      forecastStartUnix: FORECAST_START,
      operation: "/insights/option-pricing",
      field: 'call_options["68000"]',
      check: "put-call parity: C − P + K the same at every strike",
      size: 7,
      tolerance: 2,
      detail: "C − P + K = 71217 against 71224 at the other strikes",
    },
  ]);
  await finishRun(store, run, { status: "ok" });
  return store;
}
