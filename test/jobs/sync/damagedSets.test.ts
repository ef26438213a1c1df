/**
 * A sync whose prediction sets are damaged on the way: a real HTTP proxy on 127.0.0.1 in front of
 * the embedded sandbox cuts the last point off every path of one ensemble member's set, for its
 * first copies only (damaged on the way) or for every copy (a set the service really holds so).
 * The verdicts of a sync through the proxy are compared with those of a direct sync.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { CONFIRMING_COPIES } from "../../../src/jobs/sync/fetchUnitInputs.ts";
import { runSync } from "../../../src/jobs/sync/sync.ts";
import type { SyncSummary } from "../../../src/jobs/sync/summary.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const KEY = "sk-test-damaged-7c2e91";
const CLIENT = { retryBaseMs: 10, retryMaxMs: 200 };

let sandbox: EmbeddedSandbox;
let folder: string;
let remove: () => void;
/** The direct sync of BTC 1h, and two of its ensemble members at its forecast start. */
let direct: SyncSummary;
let member: { minerUid: number; startIso: string };
let second: number;

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({
    ...SMALL_WORLD,
    seed: 42,
    now: "2026-02-25T23:47:00Z",
    apiKey: KEY,
  });
  ({ folder, remove } = temporaryFolder());
  const database = join(folder, "direct.duckdb");
  direct = await syncThrough(sandbox.url, database);
  const store = await openStore(database, { readOnly: true });
  try {
    const [[minerUid, start], [other]] = (
      await queryRows(
        store,
        "select miner_uid, epoch(start_time)::bigint from path_sets order by miner_uid limit 2",
      )
    ).rows as unknown[][];
    member = {
      minerUid: Number(minerUid),
      startIso: new Date(Number(start) * 1000).toISOString(),
    };
    second = Number(other);
  } finally {
    store.close();
  }
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

function syncThrough(baseUrl: string, database: string): Promise<SyncSummary> {
  return runSync({
    assets: ["BTC"],
    horizons: ["1h"],
    database,
    baseUrl,
    apiKey: KEY,
    client: CLIENT,
  });
}

/**
 * A proxy to the sandbox that sends `member`'s set at its start with every path one point short
 * for the first `damaged` requests of it (and the `second` member's for its first
 * `secondDamaged`), and counts the requests of `member`'s.
 */
async function startDamagingProxy(
  damaged: number,
  secondDamaged = 0,
): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  let secondAsked = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", sandbox.url);
      const upstream = await fetch(new URL(url.pathname + url.search, sandbox.url), {
        headers: { Authorization: String(request.headers.authorization ?? "") },
      });
      let body = await upstream.text();
      const isMember =
        url.pathname === "/v2/prediction/historical" &&
        url.searchParams.get("miner") === String(member.minerUid) &&
        url.searchParams.get("start_time") === member.startIso;
      const isSecond =
        url.pathname === "/v2/prediction/historical" &&
        url.searchParams.get("miner") === String(second) &&
        url.searchParams.get("start_time") === member.startIso;
      if (isSecond && upstream.ok) secondAsked += 1;
      if ((isMember || isSecond) && upstream.ok) {
        if (isMember) asked += 1;
        if ((isMember && asked <= damaged) || (isSecond && secondAsked <= secondDamaged)) {
          const sets = JSON.parse(body) as { predictions: number[][] }[];
          for (const path of sets[0].predictions) path.pop();
          body = JSON.stringify(sets);
        }
      }
      response.writeHead(upstream.status, { "Content-Type": "application/json" });
      response.end(body);
    })().catch((error: unknown) => {
      response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked: () => asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("a prediction set damaged on the way", () => {
  it("the direct sync agrees with the service everywhere", () => {
    expect(direct.units.map((unit) => unit.status)).toEqual(["stored"]);
    expect(direct.units[0].verdicts.mismatch).toBe(0);
    expect(direct.units[0].verdicts.exact).toBeGreaterThan(0);
  });

  it("is asked again when the cross-check disagrees, and the unit ends with the direct verdicts", async () => {
    // The first two copies (the first round's) are damaged: the miner is left out, the
    // cross-check disagrees, and the confirmation's first copy is valid. Another member's first
    // copy is damaged too: its second is used. Both were repaired by fetching them again: counted
    // as refetched, and no failure.
    const proxy = await startDamagingProxy(2, 1);
    try {
      const summary = await syncThrough(proxy.url, join(folder, "damaged-twice.duckdb"));
      expect(summary.units.map((unit) => unit.status)).toEqual(["stored"]);
      expect(summary.units[0].verdicts).toEqual(direct.units[0].verdicts);
      expect(summary.units[0].pathSets).toBe(direct.units[0].pathSets);
      expect(proxy.asked()).toBe(3);
      expect(summary.failures).toEqual([]);
      expect(summary.status).toBe("ok");
      expect(summary.units[0].pathSetsRefetched).toBe(2);
      expect(summary.totals.pathSetsRefetched).toBe(2);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("a set invalid on every copy is left out after the confirmation, and the disagreement is stored", async () => {
    const proxy = await startDamagingProxy(Infinity);
    try {
      const summary = await syncThrough(proxy.url, join(folder, "damaged-always.duckdb"));
      expect(summary.units.map((unit) => unit.status)).toEqual(["stored"]);
      // two copies in the first round, then the confirmation's
      expect(proxy.asked()).toBe(2 + CONFIRMING_COPIES);
      // the ensemble is no longer the service's: values that were exact are now only close
      const { verdicts } = summary.units[0];
      expect(verdicts.exact).toBeLessThan(direct.units[0].verdicts.exact);
      expect(verdicts["within-mc"] + verdicts.mismatch).toBeGreaterThan(0);
      expect(summary.failures.map((failure) => failure.reason)).toEqual([
        expect.stringContaining(
          `miner ${member.minerUid}: path 0: Number of time points is incorrect: expected 61, got 60 (invalid on every copy fetched: left out`,
        ),
      ]);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
