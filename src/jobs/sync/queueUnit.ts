/**
 * The sync unit on the queue: one forecast of one asset and horizon (asset × horizon × forecast
 * start), that `pathlab enqueue sync` puts on a queue and `pathlab worker` runs into a lake. It is
 * plain data (it crosses Redis as JSON): the worker rebuilds the unit's plan from the asset and
 * horizon, asks the service for the historical data of its start (`SyncUnitPlan.startUnix`), and
 * runs the same `syncUnit` as `pathlab sync --from --to --lake`, so that the lake holds the same
 * rows either way.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { Horizon } from "../../domain/assets.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { openStore } from "../../store/openStore.ts";
import { DEFAULT_UNIT_DEADLINE_MS } from "../harness/defaults.ts";
import { moveSyncUnitToLake } from "./lake.ts";
import { planSyncUnits, syncUnitKey, type SyncUnitPlan } from "./plan.ts";
import { planSyncRange, type SyncRange } from "./range.ts";
import { createUnitRankings, type UnitRanking } from "./ranking.ts";
import { syncUnit } from "./syncUnit.ts";
import type { UnitService } from "../score/queueUnit.ts";

/**
 * One forecast to sync (see the module comment).
 * @example const key = queuedSyncUnitKey(unit); // "sync.BTC.1h.20261121T100000Z"
 */
export interface QueuedSyncUnit {
  readonly kind: "sync";
  /** The symbol the prediction operations take (`SPYX` for `SPY`). */
  readonly asset: string;
  readonly horizon: Horizon;
  /** The forecast start, Unix seconds. */
  readonly startUnix: number;
  readonly service: UnitService;
}

/**
 * The unit's natural key, as `sync --lake` names its files: the queue's job id.
 * @example queuedSyncUnitKey(unit) // => "sync.BTC.1h.20261121T100000Z"
 */
export function queuedSyncUnitKey(unit: QueuedSyncUnit): string {
  return syncUnitKey(unit, unit.startUnix);
}

/**
 * The units of `assets` × `horizons` over `range`, as `pathlab sync --from --to` plans them
 * (`planSyncRange`). Throws `UsageError` for an asset or horizon the sync does not know.
 * @example const units = await planQueuedSyncUnits(client, { assets: ["BTC"], horizons: ["1h"], range, nowUnix, service });
 */
export async function planQueuedSyncUnits(
  client: PathlabClient,
  selection: {
    readonly assets: readonly string[] | undefined;
    readonly horizons: readonly string[] | undefined;
    readonly range: SyncRange;
    readonly nowUnix: number;
    readonly service: UnitService;
  },
): Promise<QueuedSyncUnit[]> {
  const plans = planSyncUnits(selection.assets, selection.horizons);
  const units = await planSyncRange(client, plans, selection.range, selection.nowUnix);
  return units.map((plan) => ({
    kind: "sync",
    asset: plan.asset,
    horizon: plan.horizon,
    startUnix: plan.startUnix!,
    service: selection.service,
  }));
}

/**
 * The rankings of each service's client, kept while the client is (`createUnitRankings`).
 * @example const ranking = rankingsOf(client);
 */
const rankings = new WeakMap<PathlabClient, (plan: SyncUnitPlan) => Promise<UnitRanking>>();

function rankingsOf(client: PathlabClient): (plan: SyncUnitPlan) => Promise<UnitRanking> {
  let ranking = rankings.get(client);
  if (ranking === undefined) {
    ranking = createUnitRankings(client);
    rankings.set(client, ranking);
  }
  return ranking;
}

/**
 * Runs one unit into the lake: the unit synced into a store of its own in memory, then moved into
 * the lake (`moveSyncUnitToLake`). Resolves to the rows written and the reasons of the unit's
 * failures that left the rest stored (a record or a path set the service got wrong); rejects,
 * with every reason, when nothing of the unit was stored, so that the queue tries it again.
 * @example const { rows, failures } = await runQueuedSyncUnit(unit, { client, lake: "./lake" });
 */
export async function runQueuedSyncUnit(
  unit: QueuedSyncUnit,
  context: { readonly client: PathlabClient; readonly lake: string },
): Promise<{ rows: number; failures: string[] }> {
  const [latest] = planSyncUnits([unit.asset], [unit.horizon]);
  const plan: SyncUnitPlan = { ...latest, startUnix: unit.startUnix };
  const store = await openStore(":memory:");
  const failures: string[] = [];
  let rows = 0;
  try {
    const summary = await syncUnit({
      client: context.client,
      store,
      runId: null,
      plan,
      ranking: rankingsOf(context.client),
      // the time a latest ranking without `updated_at` is stored for, as `sync` has it
      asOfUnix:
        unit.service.kind === "sandbox"
          ? parseIsoTimeMs(unit.service.now) / 1000
          : Math.floor(Date.now() / 60_000) * 60,
      deadlineMs: DEFAULT_UNIT_DEADLINE_MS,
      onFailure: (failure) =>
        failures.push(
          failure.operation ? `${failure.operation}: ${failure.reason}` : failure.reason,
        ),
      afterWrite: async (startUnix) => {
        rows = await moveSyncUnitToLake(store, context.lake, plan, startUnix);
      },
    });
    if (summary.status !== "stored") {
      throw new Error(`${queuedSyncUnitKey(unit)}: ${failures.join("; ")}`);
    }
    return { rows, failures };
  } finally {
    await store.close();
  }
}
