/**
 * `runSync`, the main job (DESIGN.md §3): resolve the service, rank the miners, and for each asset
 * and horizon fetch, recompute, cross-check and store one unit; record the run and its failures.
 */

import { createClient } from "../../client/create-client.ts";
import type { ClientEvent } from "../../client/events.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { createSemaphore } from "../../client/semaphore.ts";
import { prepareLake } from "../../store/lake.ts";
import { isoSeconds } from "../../domain/time.ts";
import { openStore } from "../../store/openStore.ts";
import { finishRun, startRun } from "../../store/runs.ts";
import { withoutSecrets } from "../../store/withoutSecrets.ts";
import { runVenueEdges } from "../../store/venueComparisons.ts";
import {
  DEFAULT_DATABASE,
  DEFAULT_SYNC_CONCURRENCY,
  DEFAULT_UNIT_DEADLINE_MS,
  defaultSyncThreads,
} from "../harness/defaults.ts";
import type { EmbeddedSandbox } from "../../service/embeddedSandbox.ts";
import {
  beginRecording,
  prepareRecordReplay,
  recordReplaySummary,
} from "../../service/recordReplay.ts";
import type { ReplayServer } from "../../service/replay.ts";
import { resolveService, secretsOf } from "../../service/resolveService.ts";
import type { SyncEvent } from "./events.ts";
import { createUnitRankings } from "./ranking.ts";
import { planSyncUnits, syncUnitKey } from "./plan.ts";
import { noForecastStarts, planSyncRange, syncRangeOf } from "./range.ts";
import { totalsOf, type SyncFailure, type SyncSummary } from "./summary.ts";
import { mergeVenueEdges, moveSyncUnitToLake, storedSyncUnitKeys } from "./lake.ts";
import { emptyUnitSummary } from "./unitResults.ts";
import { syncUnit, type SyncUnitContext } from "./syncUnit.ts";
import { dataOf, unitPoolThreads } from "../../service/clientData.ts";
import { syncUnitOnPool } from "./onPool.ts";
import type { TaskClientOptions } from "../../service/threadClients.ts";
import { UnitPool } from "../harness/unitPool.ts";
import { checkSyncOptions, checkSyncThreads, type SyncOptions } from "./options.ts";

/**
 * Runs a sync: checks the options, opens (creating or migrating) the database, starts the embedded
 * sandbox unless `baseUrl` is given, plans the units (each asset and horizon's latest forecast,
 * or with `from`/`to` each forecast start of the range: `planSyncRange`), records a run, fetches
 * each ranking once (`createUnitRankings`), runs the units up to `concurrency` at a time (on the
 * job's thread, `syncUnit`, or with `threads` fetched, checked and recomputed on the unit pool and
 * written here, `syncUnitOnPool`), records how the run
 * ended (`ok`, `partial`, `failed`, or `interrupted` when `signal` cut a unit short; with every
 * failure and its reason, without secrets), then stops the sandbox and closes the client and the
 * database, whatever happened. Resolves with the summary; a unit's failures never reject it.
 * Rejects for bad options (`UsageError`: an asset without path sets, an unknown horizon,
 * options that do not fit together), a database that cannot be opened (a `StoreLockedError` when
 * another process holds it), a sandbox that cannot start and a range whose forecast starts the
 * service does not list.
 * @example
 * const summary = await runSync({ assets: ["BTC"], horizons: ["1h"], database: "/tmp/p.duckdb" });
 * summary.units[0].verdicts.exact // => 1873
 */
export async function runSync(options: SyncOptions = {}): Promise<SyncSummary> {
  const started = performance.now();
  const startedAtUnix = Date.now() / 1000;
  const latestPlans = planSyncUnits(options.assets, options.horizons);
  const range = syncRangeOf(options.from, options.to);
  const concurrency = options.concurrency ?? DEFAULT_SYNC_CONCURRENCY;
  const secrets = secretsOf(options.apiKey);
  checkSyncThreads(options); // before `record` makes its folder
  // Before the other checks: `replay` with a service is that mistake, not a missing key.
  const prepared = await prepareRecordReplay("sync", options, secrets);
  const { recorder, recording, client: deployment } = prepared;
  checkSyncOptions(options, concurrency);
  const database = options.lake === undefined ? (options.database ?? DEFAULT_DATABASE) : ":memory:";
  if (options.lake !== undefined) prepareLake(options.lake); // a folder of other files: refused now
  const emit = (event: SyncEvent) => options.onEvent?.(withoutSecrets(event, secrets) as SyncEvent);
  const store = await openStore(database);
  let pool: UnitPool | undefined;
  let sandbox: EmbeddedSandbox | undefined;
  let replay: ReplayServer | undefined;
  let client: PathlabClient | undefined;
  try {
    const resolved = await resolveService({ ...options, client: deployment }, secrets, recording);
    ({ sandbox, replay } = resolved);
    const { service, apiKey } = resolved;
    const threads = options.threads ?? defaultSyncThreads(sandbox !== undefined);
    const unitPool = new UnitPool(unitPoolThreads(threads, options.client, recorder !== undefined));
    pool = unitPool;
    const asOfUnix = resolved.clockUnix ?? Math.floor(startedAtUnix / 60) * 60;
    const nowUnix = resolved.clockUnix ?? Date.now() / 1000;
    emit({ type: "service", service });
    await beginRecording(recorder, { service, clockUnix: asOfUnix, ...deployment });
    let bytesFetched = 0;
    let requests = 0;
    let retries = 0;
    const clientDefaults = { maxRetries: 4, concurrency: 8 };
    // the pool threads' clients: the same service and options, but functions
    const taskClient: TaskClientOptions = {
      ...clientDefaults,
      ...dataOf(options.client),
      ...dataOf(deployment),
      baseUrl: service.baseUrl,
      apiKey,
    };
    const onClientEvent = (event: ClientEvent) => {
      if (event.type === "retry") retries += 1;
      if (event.type !== "response") return;
      bytesFetched += event.bytes;
      requests += 1;
      emit({ type: "bytes", bytesFetched, requests });
    };
    client = createClient({
      ...clientDefaults,
      ...options.client,
      ...deployment,
      baseUrl: service.baseUrl,
      apiKey,
      ...(recorder !== undefined && { onExchange: recorder.onExchange }),
      ...(options.signal !== undefined && { signal: options.signal }),
      onEvent: onClientEvent,
    });
    const plans =
      range === undefined ? latestPlans : await planSyncRange(client, latestPlans, range, nowUnix);
    if (range !== undefined && plans.length === 0) {
      throw noForecastStarts("sync", latestPlans, range, nowUnix);
    }
    const run = await startRun(store, {
      command: "sync",
      args: {
        assets: latestPlans
          .map((plan) => plan.asset)
          .filter((asset, index, all) => all.indexOf(asset) === index),
        horizons: [...new Set(latestPlans.map((plan) => plan.horizon))],
        ...(options.from !== undefined && { from: options.from, to: options.to }),
        database,
        ...(options.lake !== undefined && { lake: options.lake }),
        service,
        concurrency,
        ...(options.replay !== undefined && { replay: options.replay }),
      },
      secrets,
      startedAtUnix,
    });
    emit({
      type: "plan",
      units: plans.map(({ asset, horizon }) => ({ asset, horizon })),
      database: options.lake ?? database,
    });
    const activeClient = client;
    const ranking = createUnitRankings(activeClient);
    const failures: SyncFailure[] = [];
    const fetchLane = createSemaphore(1);
    // what a watch's tick leaves out: the units whose forecast start is stored already
    const stored =
      options.skipStored === true ? await storedSyncUnitKeys(store, options.lake) : undefined;
    const lakeEdges: Awaited<ReturnType<typeof runVenueEdges>>[] = [];
    const units = await mapConcurrently(plans, concurrency, async (plan) => {
      if (options.signal?.aborted) return emptyUnitSummary(plan, "interrupted");
      const startTime =
        plan.startUnix === undefined ? {} : { startTime: isoSeconds(plan.startUnix) };
      emit({ type: "unit-start", asset: plan.asset, horizon: plan.horizon, ...startTime });
      // a unit of the past is known by its start before any request
      if (plan.startUnix !== undefined && stored?.has(syncUnitKey(plan, plan.startUnix))) {
        const unit = emptyUnitSummary(plan, "already stored");
        emit({ type: "unit-end", unit, ...startTime });
        return unit;
      }
      // Into a lake, each unit is stored in a store of its own, then moved (syncLake.ts).
      const lake = options.lake;
      const unitStore = lake === undefined ? store : await openStore(":memory:");
      const context: SyncUnitContext = {
        client: activeClient,
        store: unitStore,
        runId: run.id,
        ...(stored !== undefined && {
          isStored: (startUnix: number) => stored.has(syncUnitKey(plan, startUnix)),
        }),
        ...(lake !== undefined && {
          afterWrite: async (startUnix: number) => {
            // read before the move, which clears the run ids; counted once the move succeeded
            const edges = await runVenueEdges(unitStore, run.id, 5);
            await moveSyncUnitToLake(unitStore, lake, plan, startUnix);
            lakeEdges.push(edges);
          },
        }),
        plan,
        ranking,
        asOfUnix,
        fetchLane,
        deadlineMs: options.unitDeadlineMs ?? DEFAULT_UNIT_DEADLINE_MS,
        ...(options.signal !== undefined && { signal: options.signal }),
        onFailure: (failure) => {
          const clean = withoutSecrets(failure, secrets) as SyncFailure;
          failures.push(clean);
          emit({ type: "failure", failure: clean });
        },
      };
      let unit;
      try {
        unit =
          unitPool.threads === 0
            ? await syncUnit(context)
            : await syncUnitOnPool(unitPool, context, {
                client: taskClient,
                ...(stored !== undefined && { storedKeys: stored }),
                onClientEvent,
              });
      } finally {
        if (unitStore !== store) await unitStore.close();
      }
      emit({ type: "unit-end", unit, ...startTime });
      return unit;
    });
    // a unit stored by an earlier run counts as stored here
    const storedUnits = units.filter(
      (unit) => unit.status === "stored" || unit.status === "already stored",
    ).length;
    // Ctrl-C after the last unit was stored cut nothing: the run ended as it would have.
    const interrupted = units.some((unit) => unit.status === "interrupted");
    const status = interrupted
      ? "interrupted"
      : failures.length === 0
        ? "ok"
        : storedUnits === 0
          ? "failed"
          : "partial";
    await finishRun(store, run, { status, failures });
    // the summary lists the five largest live edges
    const venueEdges =
      options.lake === undefined
        ? await runVenueEdges(store, run.id, 5)
        : mergeVenueEdges(lakeEdges, 5);
    return withoutSecrets(
      {
        command: "sync",
        runId: run.id,
        database,
        ...(options.lake !== undefined && { lake: options.lake }),
        ...(range !== undefined && {
          range: { from: isoSeconds(range.fromUnix), to: isoSeconds(range.toUnix) },
        }),
        service,
        startedAt: new Date(startedAtUnix * 1000).toISOString(),
        durationMs: Math.round(performance.now() - started),
        status,
        exitCode: interrupted ? 130 : failures.length === 0 ? 0 : 1,
        units,
        failures,
        totals: totalsOf(units, failures.length, { bytesFetched, requests, retries }),
        venueEdges,
        ...(await recordReplaySummary(recorder, replay)),
      },
      secrets,
    ) as SyncSummary;
  } finally {
    await pool?.close();
    await client?.close();
    await sandbox?.close();
    await replay?.close();
    await recorder?.finish().catch(() => {}); // its failure, if any, was reported above
    await store.close();
  }
}

/** `work` on each item, at most `limit` at a time, results in the items' order. */
async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
