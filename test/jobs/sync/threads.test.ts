/**
 * Sync units on the unit pool's threads (`threads`), against the sandbox over real HTTP on
 * 127.0.0.1, into real DuckDB files and a real lake: the same rows as on the job's thread, the
 * threads' traffic and retries counted, failures with their reasons and whole units only under
 * faults, an interruption that stores no part of a unit and stops the units its threads run at
 * once, the options refused, and the unit's channel: the job's fetch lane one turn at a time, its
 * ranking, failures and events.
 */

import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";
import type { MessagePort } from "node:worker_threads";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSemaphore, type Semaphore } from "../../../src/client/semaphore.ts";
import { runSync } from "../../../src/jobs/sync/sync.ts";
import type { SyncEvent } from "../../../src/jobs/sync/events.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { serveUnitChannel } from "../../../src/jobs/sync/onPool.ts";
import { unitFailure } from "../../../src/jobs/sync/unitResults.ts";
import type { UnitRanking } from "../../../src/jobs/sync/ranking.ts";
import type { SyncFailure, SyncSummary } from "../../../src/jobs/sync/summary.ts";
import type { ClientEvent } from "../../../src/client/events.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { openLake } from "../../../src/store/lake.ts";
import { syncRows, syncRowsIn } from "../storedRows.ts";
import { FAST_RETRIES, SYNC_SELECTION, syncFixture } from "../syncFixture.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const KEY = "sk-test-sync-threads-8c2e41d7";
/**
 * One unit of each horizon (BTC 24h and 1h), one for each of the two threads: a second asset
 * takes the same path through the code.
 */
const SELECTION = { assets: ["BTC"], horizons: SYNC_SELECTION.horizons };
const UNITS = SELECTION.assets.length * SELECTION.horizons.length;
/**
 * The 1h units of BTC and ETH: two units for two threads, at a fifth of the 24h units' paths,
 * where the horizons' breadth is not the point (lakes, faults).
 */
const HOURLY = { assets: SYNC_SELECTION.assets, horizons: ["1h"] };
const CLIENT = FAST_RETRIES;
const fixture = syncFixture(KEY, SMALL_WORLD);

const service = () => ({ baseUrl: fixture.sandbox.url, apiKey: KEY, client: CLIENT });

/** Units stored per asset and horizon, by their service records. */
async function storedUnits(database: string): Promise<string[]> {
  const store = await openStore(database, { readOnly: true });
  try {
    const { rows } = await queryRows(
      store,
      `select distinct asset || ' ' || horizon from insights where source = 'service' order by 1`,
    );
    return rows.map(([unit]) => String(unit));
  } finally {
    await store.close();
  }
}

/**
 * A service in front of the file's sandbox that passes every request on, but those for path sets,
 * which it never answers: it calls `onHeld` as each arrives.
 */
async function holdingPathSets(
  onHeld: () => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(fixture.sandbox.url);
  const server = createServer((request, response) => {
    if (request.url?.startsWith("/v2/prediction/")) return onHeld();
    const upstream = forward(
      { host: target.hostname, port: target.port, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A sync of three 1h units (BTC, ETH, SOL) on two threads into `name`.duckdb, which `abortOn`
 * interrupts: when the first unit ends, the second is on a thread and the third not started.
 */
async function interruptedSync(
  name: string,
  abortOn: (event: SyncEvent, abort: () => void) => void,
): Promise<{ summary: SyncSummary; database: string }> {
  const database = join(fixture.folder, `${name}.duckdb`);
  const controller = new AbortController();
  const summary = await runSync({
    assets: ["BTC", "ETH", "SOL"],
    horizons: ["1h"],
    ...service(),
    database,
    threads: 2,
    signal: controller.signal,
    onEvent: (event) => abortOn(event, () => controller.abort()),
  });
  return { summary, database };
}

describe("sync units on two pool threads", () => {
  it("store the same rows as on the job's thread, and count the threads' requests", async () => {
    const onMain = join(fixture.folder, "main.duckdb");
    const onThreads = join(fixture.folder, "threads.duckdb");
    const main = await runSync({ ...SELECTION, ...service(), database: onMain, threads: 0 });
    const threaded = await runSync({ ...SELECTION, ...service(), database: onThreads, threads: 2 });
    expect(main.failures).toEqual([]);
    expect(threaded.failures).toEqual([]);
    expect(threaded.units.map((unit) => unit.status)).toEqual(Array(UNITS).fill("stored"));
    expect(threaded.units.map(({ durationMs: _, ...unit }) => unit)).toEqual(
      main.units.map(({ durationMs: _, ...unit }) => unit),
    );
    const rows = await syncRows(onThreads);
    expect(rows.path_values.length).toBeGreaterThan(0);
    expect(rows).toEqual(await syncRows(onMain));
    // The same requests, made on the threads but the rankings (the job's, fetched once), counted.
    expect(threaded.totals.requests).toBe(main.totals.requests);
    expect(threaded.totals.bytesFetched).toBe(main.totals.bytesFetched);
  }, 180_000);

  it("into a lake: the same rows as into a lake from the job's thread", async () => {
    const lakes = [join(fixture.folder, "lake-main"), join(fixture.folder, "lake-threads")];
    for (const [index, lake] of lakes.entries()) {
      const summary = await runSync({ ...HOURLY, ...service(), lake, threads: index * 2 });
      expect(summary.failures).toEqual([]);
    }
    const [onMain, onThreads] = await Promise.all(
      lakes.map(async (lake) => {
        const store = await openLake(lake);
        try {
          return await syncRowsIn(store);
        } finally {
          await store.close();
        }
      }),
    );
    expect(onThreads.path_values.length).toBeGreaterThan(0);
    expect(onThreads).toEqual(onMain);
  }, 180_000);

  it("retry through transient faults, and count the retries made on the threads", async () => {
    await fixture.sandbox.setFaults("5xx=every:5,429burst=2,retryafter=20ms");
    try {
      const database = join(fixture.folder, "transient.duckdb");
      // Six requests in twenty fail (a 503 every fifth, two 429s every twentieth), and with two
      // threads of eight requests in flight the attempts of one call meet them about at random:
      // with the job's 4 retries, about one call in 400 (0.3⁵) runs out of them, and a sync makes
      // about a hundred. Ten retries (0.3¹¹) see every call through.
      const summary = await runSync({
        ...SELECTION,
        ...service(),
        client: { ...CLIENT, maxRetries: 10 },
        database,
        threads: 2,
      });
      expect(summary.failures).toEqual([]);
      expect(summary.totals.retries).toBeGreaterThan(0);
      expect(await syncRows(database)).toEqual(await syncRows(join(fixture.folder, "main.duckdb")));
    } finally {
      await fixture.sandbox.setFaults("");
    }
  }, 180_000);

  it("under faults: every failure with its reason, whole units only, no key anywhere", async () => {
    await fixture.sandbox.setFaults(
      "5xx=0.2,429burst=3,retryafter=50ms; truncate=0.04,malformed=0.04;" +
        " path=/v2/prediction/*,shortpaths=every:9,nan=every:13",
    );
    try {
      const database = join(fixture.folder, "faults.duckdb");
      const summary = await runSync({ ...HOURLY, ...service(), database, threads: 2 });
      expect(summary.failures.length).toBeGreaterThan(0);
      for (const failure of summary.failures) {
        expect(failure.reason.length, JSON.stringify(failure)).toBeGreaterThan(10);
        expect(failure.unit).toBe(`${failure.asset} ${failure.horizon}`);
      }
      expect(summary.totals.failures).toBe(summary.failures.length);
      const stored = summary.units.filter((unit) => unit.status === "stored");
      expect(await storedUnits(database)).toEqual(
        stored.map((unit) => `${unit.asset} ${unit.horizon}`).sort(),
      );
      expect(JSON.stringify(summary)).not.toContain(KEY);
    } finally {
      await fixture.sandbox.setFaults("");
    }
  }, 180_000);

  it("interrupted: the units cut short are interrupted, and no part of them is stored", async () => {
    // stop once the first unit is stored, while the others are on the threads
    const { summary, database } = await interruptedSync("interrupted", (event, abort) => {
      if (event.type === "unit-end") abort();
    });
    expect(summary.status).toBe("interrupted");
    expect(summary.exitCode).toBe(130);
    expect(summary.failures).toEqual([]);
    const statuses = summary.units.map((unit) => unit.status);
    expect(statuses).toContain("interrupted");
    const stored = summary.units.filter((unit) => unit.status === "stored");
    expect(stored.length).toBeGreaterThan(0);
    expect(await storedUnits(database)).toEqual(
      stored.map((unit) => `${unit.asset} ${unit.horizon}`).sort(),
    );
  }, 180_000);

  // The service never answers for path sets: a sync that waited for its threads' requests after
  // the interruption would not end. It is interrupted once the first request for them arrives.
  it("interrupted while its threads wait for the service: their units stop at once", async () => {
    const controller = new AbortController();
    const service = await holdingPathSets(() => controller.abort());
    try {
      const database = join(fixture.folder, "stopped.duckdb");
      const summary = await runSync({
        ...SELECTION,
        baseUrl: service.url,
        apiKey: KEY,
        client: CLIENT,
        database,
        threads: 2,
        signal: controller.signal,
      });
      expect(controller.signal.aborted).toBe(true);
      expect(summary.status).toBe("interrupted");
      expect(summary.units.map((unit) => unit.status)).toEqual(Array(UNITS).fill("interrupted"));
      expect(await storedUnits(database)).toEqual([]);
    } finally {
      await service.close();
    }
  }, 120_000);
});

describe("sync threads option", () => {
  it("refuses threads with --record, before the recording's folder is made", async () => {
    const record = join(fixture.folder, "recording");
    const attempt = runSync({
      ...service(),
      database: join(fixture.folder, "r.duckdb"),
      record,
      threads: 1,
    });
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow("leave --threads out (or give 0) to record");
    expect(existsSync(record)).toBe(false);
  });

  it("refuses a count of threads that is not a whole number ≥ 0, before any request", async () => {
    for (const threads of [-1, 1.5, Number.NaN]) {
      const attempt = runSync({
        ...service(),
        database: join(fixture.folder, "refused.duckdb"),
        threads,
      });
      await expect(attempt).rejects.toThrow(UsageError);
      await expect(attempt).rejects.toThrow(
        `sync: threads: expected a whole number ≥ 0, got ${threads}`,
      );
    }
  });
});

/** The next message on `port`. */
const next = (port: MessagePort) =>
  new Promise<unknown>((resolve) => port.once("message", resolve));

const ranking: UnitRanking = { operation: "/v2/meta-leaderboard/latest", rows: [] };

/** A unit's channel served with `lane`, a ranking that `rank` gives, and what it receives. */
function served(
  lane: Semaphore | undefined,
  rank: () => Promise<UnitRanking> = async () => ranking,
) {
  const failures: SyncFailure[] = [];
  const events: ClientEvent[] = [];
  const channel = serveUnitChannel({
    ...(lane !== undefined && { lane }),
    ranking: rank,
    onFailure: (failure) => failures.push(failure),
    onClientEvent: (event) => events.push(event),
  });
  return { ...channel, failures, events };
}

describe("a sync unit's channel between its pool thread and the job", () => {
  it("grants one turn of the lane at a time, and a closed task's turn goes to the next", async () => {
    const lane = createSemaphore(1);
    const [first, second, third] = [served(lane), served(lane), served(lane)];
    try {
      first.port.postMessage({ kind: "acquire" });
      expect(await next(first.port)).toEqual({ kind: "granted" });
      second.port.postMessage({ kind: "acquire" });
      third.port.postMessage({ kind: "acquire" });
      // both wait for the lane, which the first holds
      await expect.poll(() => lane.waiting).toBe(2);
      first.port.postMessage({ kind: "release" });
      expect(await next(second.port)).toEqual({ kind: "granted" });
      // the second task's thread stops while it holds its turn: closing gives it back
      second.close();
      expect(await next(third.port)).toEqual({ kind: "granted" });
      third.port.postMessage({ kind: "release" });
      await expect.poll(() => lane.active).toBe(0);
    } finally {
      for (const channel of [first, second, third]) {
        channel.close();
        channel.port.close();
      }
    }
  });

  it("passes a turn that comes after its task ended straight on", async () => {
    const lane = createSemaphore(1);
    let releaseHolder = () => {};
    void lane.run(() => new Promise<void>((resolve) => (releaseHolder = resolve)));
    const gone = served(lane);
    const waiting = served(lane);
    try {
      gone.port.postMessage({ kind: "acquire" });
      waiting.port.postMessage({ kind: "acquire" });
      await expect.poll(() => lane.waiting).toBe(2);
      gone.close(); // its task ended while it waited
      releaseHolder();
      expect(await next(waiting.port)).toEqual({ kind: "granted" });
    } finally {
      gone.port.close();
      waiting.close();
      waiting.port.close();
    }
  });

  it("answers with the job's ranking, or why there is none; passes failures and events on, in order, until done", async () => {
    let calls = 0;
    const channel = served(undefined, async () => {
      calls += 1;
      if (calls === 2) throw new Error("/v2/meta-leaderboard/latest: HTTP 503");
      return ranking;
    });
    try {
      channel.port.postMessage({ kind: "ranking" });
      expect(await next(channel.port)).toEqual({ kind: "ranking", ranking });
      channel.port.postMessage({ kind: "ranking" });
      expect(await next(channel.port)).toEqual({
        kind: "no ranking",
        reason: "/v2/meta-leaderboard/latest: HTTP 503",
      });
      // without a lane, a turn is granted at once
      channel.port.postMessage({ kind: "acquire" });
      expect(await next(channel.port)).toEqual({ kind: "granted" });
      const failure = unitFailure(
        { asset: "BTC", horizon: "24h", competition: "crypto-24h", operations: [] },
        "record",
        "HTTP 500",
      );
      const event: ClientEvent = {
        type: "retry",
        operation: "/insights/liquidation",
        attempt: 1,
        delayMs: 10,
        reason: "ServerError",
        message: "HTTP 500",
      };
      channel.port.postMessage({ kind: "failure", failure });
      channel.port.postMessage({ kind: "event", event });
      channel.port.postMessage({ kind: "done" });
      await channel.done;
      expect(channel.failures).toEqual([failure]);
      expect(channel.events).toEqual([event]);
    } finally {
      channel.close();
      channel.port.close();
    }
  });
});
