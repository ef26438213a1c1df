/**
 * `sync --from --to`: the forecasts of the past, against the embedded sandbox over real HTTP,
 * into real DuckDB files. The units are the sandbox world's own prompt starts; each unit asks for
 * the historical data of its start and is ranked as the service ranked it (the meta-leaderboard
 * history at its start, the latest where the service's validator had not begun scoring): its path
 * sets are the miners of the world's own ensemble at that start and ranking, and every value the
 * unit recomputes from them equals the service's. A rerun
 * with `skipStored` fetches nothing of a stored unit; a start the service has no forecast of is a
 * failure that names both starts; bad ranges are refused by name.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../../src/client/create-client.ts";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { runQueuedSyncUnit } from "../../../src/jobs/sync/queueUnit.ts";
import { runSync } from "../../../src/jobs/sync/sync.ts";
import { syncRangeOf } from "../../../src/jobs/sync/range.ts";
import type { SyncSummary } from "../../../src/jobs/sync/summary.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { createWorld } from "../../../src/sandbox/world/world.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const NOW = "2026-11-21T10:00:00Z";
const NOW_UNIX = parseIsoTimeMs(NOW) / 1000;
const unix = (time: string) => parseIsoTimeMs(time) / 1000;
/** The sandbox's ground truth: its world (the validator began scoring 32 minutes before NOW). */
const world = createWorld({ ...SMALL_WORLD, seed: 42, nowUnix: NOW_UNIX });

let sandbox: EmbeddedSandbox;
let folder: string;
let remove: () => void;
beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW });
  ({ folder, remove } = temporaryFolder());
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

async function syncRange(from: string, to: string, database: string, more = {}) {
  return runSync({
    assets: ["BTC", "ETH"],
    horizons: ["1h", "24h"],
    from,
    to,
    database,
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    ...more,
  });
}

async function rowsOf(database: string, sql: string): Promise<unknown[][]> {
  const store = await openStore(database, { readOnly: true });
  try {
    return (await queryRows(store, sql)).rows as unknown[][];
  } finally {
    await store.close();
  }
}

/** Every unit of the world's prompt starts in the range, as `asset horizon start`, by start. */
function expectedUnits(from: string, to: string): string[] {
  const units: [number, string][] = [];
  for (const asset of ["BTC", "ETH"]) {
    for (const horizon of ["1h", "24h"] as const) {
      for (const start of world.promptStarts(asset, horizon, unix(from), unix(to))) {
        units.push([start, `${asset} ${horizon} ${new Date(start * 1000).toISOString()}`]);
      }
    }
  }
  return units.sort((a, b) => a[0] - b[0]).map(([, unit]) => unit);
}

const syncs = new Map<string, Promise<SyncSummary>>();

/**
 * The sync of the range from `from` to `to` into `<name>.duckdb`, made on first use and shared by
 * the tests that read it.
 */
function syncedRange(name: string, from: string, to: string): Promise<SyncSummary> {
  let summary = syncs.get(name);
  if (summary === undefined) {
    summary = syncRange(from, to, `${folder}/${name}.duckdb`);
    syncs.set(name, summary);
  }
  return summary;
}

function unitsOf(summary: SyncSummary): string[] {
  return summary.units.map(
    (unit) =>
      `${unit.asset} ${unit.horizon} ${new Date(parseIsoTimeMs(unit.forecastStartTime!)).toISOString()}`,
  );
}

describe("sync --from --to", () => {
  for (const [title, from, to, ranking] of [
    ["within the validator's scoring", "2026-11-21T09:35:00Z", NOW, "historical"],
    // three units: BTC 1h 08:20, ETH 1h 08:24, BTC 24h 08:30
    ["before it", "2026-11-21T08:15:00Z", "2026-11-21T08:35:00Z", "latest"],
  ] as const) {
    it(`stores each forecast start of the range, every value exact (${title})`, async () => {
      const database = `${folder}/${ranking}.duckdb`;
      const summary = await syncedRange(ranking, from, to);
      expect(summary.status, JSON.stringify(summary.failures)).toBe("ok");
      const expected = expectedUnits(from, to);
      expect(expected.length).toBeGreaterThanOrEqual(3);
      expect(unitsOf(summary)).toEqual(expected);
      expect(summary.units.every((unit) => unit.status === "stored")).toBe(true);
      expect(summary.range).toEqual({ from, to });
      // the ranking the service pooled from: its history at the start, when it has one
      const hasHistory = world.metaLeaderboard("crypto-1h", 14, unix(from)).length > 0;
      expect(hasHistory).toBe(ranking === "historical");
      const operations = await rowsOf(
        database,
        "select distinct operation from leaderboard_rows order by all",
      );
      expect(operations).toEqual([[`/v2/meta-leaderboard/${ranking}`]]);
      // each unit's path sets are the world's ensemble at its start, ranked when the service ranked it
      const rankingAt = (start: number) =>
        world.metaLeaderboard("crypto-1h", 14, start).length > 0 ? start : NOW_UNIX; // every competition began scoring together
      for (const unit of summary.units) {
        const start = parseIsoTimeMs(unit.forecastStartTime!) / 1000;
        const miners = await rowsOf(
          database,
          `select miner_uid from path_sets where asset = '${unit.asset}'
           and epoch(start_time) = ${start} and time_length = ${unit.horizon === "1h" ? 3600 : 86400}
           order by miner_uid`,
        );
        const ensemble = world.ensemble(unit.asset, unit.horizon, start, rankingAt(start));
        expect(
          miners.map(([uid]) => uid),
          `${unit.asset} ${unit.horizon} ${start}`,
        ).toEqual([...ensemble.minerUids].sort((a, b) => a - b));
      }
      // every recomputed value equals the service's
      const verdicts = await rowsOf(database, "select distinct verdict from crosschecks");
      expect(verdicts).toEqual([["exact"]]);
      const starts = await rowsOf(
        database,
        `select count(distinct (asset, horizon, forecast_start_time))::INTEGER from insights`,
      );
      expect(starts).toEqual([[expected.length]]);
    }, 120_000);
  }

  it("with skipStored, fetches nothing of the units stored already", async () => {
    const database = `${folder}/historical.duckdb`;
    const first = await syncedRange("historical", "2026-11-21T09:35:00Z", NOW);
    expect(first.status, JSON.stringify(first.failures)).toBe("ok");
    const summary = await syncRange("2026-11-21T09:35:00Z", NOW, database, { skipStored: true });
    expect(summary.units.map((unit) => unit.status)).toEqual(
      summary.units.map(() => "already stored"),
    );
    // one list of prompt starts per asset and horizon, nothing else
    expect(summary.totals.requests).toBe(4);
  }, 60_000);

  it("a start the service has no forecast of is a failure naming both starts", async () => {
    const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    try {
      const unit = {
        kind: "sync",
        asset: "BTC",
        horizon: "1h",
        startUnix: unix("2026-11-21T09:50:00Z"),
        service: { kind: "sandbox", seed: 42, now: NOW },
      } as const;
      await expect(runQueuedSyncUnit(unit, { client, lake: `${folder}/lake` })).rejects.toThrow(
        /^sync\.BTC\.1h\.20261121T095000Z: unit not stored: asked for the forecast of 2026-11-21T09:50:00Z \(start_time\), the service answered with the one of 2026-11-21T09:40:00/,
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a range in which the service lists no forecast start is refused, naming it", async () => {
    const empty = syncRange(
      "2026-11-21T09:41:00Z",
      "2026-11-21T09:43:00Z",
      `${folder}/empty.duckdb`,
      {
        assets: ["BTC"],
        horizons: ["1h"],
      },
    );
    await expect(empty).rejects.toThrow(
      new UsageError(
        "sync: --from/--to: the service lists no forecast start of BTC 1h from 2026-11-21T09:41:00Z to 2026-11-21T09:43:00Z",
      ),
    );
  }, 60_000);

  it("refuses a range that cannot be synced, by name", () => {
    expect(() => syncRangeOf("2026-11-21T09:00:00Z", undefined)).toThrow(
      new UsageError(
        "sync: --from and --to go together (the forecasts of a range); got only --from",
      ),
    );
    expect(() => syncRangeOf("2026-06-22T23:00:00Z", "2026-06-23T01:00:00Z")).toThrow(
      new UsageError(
        "sync: --from: expected a time from 2026-06-23T00:00:00Z on (before it the service's ensembles came from the competitions low and high, which sync units do not model), got 2026-06-22T23:00:00Z",
      ),
    );
    // a reduce of score units knows the eras: no such limit
    expect(
      syncRangeOf("2026-06-22T23:00:00Z", "2026-06-23T01:00:00Z", "lake reduce", "prompts"),
    ).toEqual({ fromUnix: unix("2026-06-22T23:00:00Z"), toUnix: unix("2026-06-23T01:00:00Z") });
    expect(() => syncRangeOf("yesterday", "2026-11-21T09:00:00Z")).toThrow(
      /sync: --from: expected an ISO 8601 time .* got "yesterday"/,
    );
    expect(() => syncRangeOf("2026-11-21T09:00:00Z", "2026-11-21T08:00:00Z")).toThrow(
      /sync: --to: expected a time at or after --from/,
    );
    expect(() => syncRangeOf("2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z")).toThrow(
      /at most 31 days/,
    );
    expect(syncRangeOf(undefined, undefined)).toBeUndefined();
  });
});
