/**
 * A whole job's deadline (`--deadline`) and its breaker, as a user meets them: the compiled
 * command as a real child process against a proxy (test/cli/hostileProxy.ts) that answers 404 for
 * prediction sets or drips the liquidation record or the prediction sets one byte at a time.
 * Outcomes only
 * (exit code, message, run status, which units were attempted), never durations.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SyncSummary } from "../../src/jobs/sync/summary.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { syncFixture } from "../jobs/syncFixture.ts";
import { startHostileProxy, type Hostility } from "./hostileProxy.ts";
import { runPathlab } from "./runPathlab.ts";
import { SMALL_WORLD } from "../smallWorld.ts";

const KEY = "sk-test-deadline-5c81aa";
const fixture = syncFixture(KEY, SMALL_WORLD);

/** The statuses of the runs a database holds, in their order. */
async function runStatuses(database: string): Promise<unknown[]> {
  const store = await openStore(database, { readOnly: true });
  try {
    return (await queryRows(store, "select status from runs order by id")).rows.map(
      ([status]) => status,
    );
  } finally {
    await store.close();
  }
}

/** `pathlab sync --json …args` against a proxy that is hostile to every asset but BTC. */
async function syncAgainst(hostility: Hostility, args: readonly string[]) {
  const proxy = await startHostileProxy(
    fixture.sandbox.url,
    hostility,
    (url) => url.searchParams.get("asset") === "BTC",
  );
  try {
    const run = await runPathlab(["sync", "--base-url", proxy.url, "--json", ...args], {
      env: { PATHLAB_API_KEY: KEY },
    });
    return { run, summary: JSON.parse(run.stdout) as SyncSummary };
  } finally {
    await proxy.close();
  }
}

describe("a whole job's deadline and its breaker", () => {
  it("sync: three units in a row that fail with the same status stop the job; the unit stored before is kept, the next never starts", async () => {
    const database = join(fixture.folder, "breaker.duckdb");
    const { run, summary } = await syncAgainst("prediction sets not found", [
      ...["--assets", "BTC,ETH,SOL,XAU,SPYX", "--horizons", "1h", "--concurrency", "1"],
      ...["--db", database],
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(summary.units.map((unit) => `${unit.asset} ${unit.status}`)).toEqual([
      "BTC stored",
      "ETH failed",
      "SOL failed",
      "XAU failed",
      "SPYX interrupted",
    ]);
    const line =
      'sync: stopped after 3 units in a row failed the same way: unit not stored: path sets: /v2/prediction/historical: HTTP 404 (the service rejected the request): "{\\"detail\\":\\"not found\\"}"; ' +
      "1 of 5 units stored, 3 failed, 1 not finished (rerun the same command to complete them)";
    expect(summary.stopped).toBe(line);
    expect(run.stderr).toContain(`pathlab ${line}\n`);
    expect(summary.status).toBe("partial");
    expect(await runStatuses(database)).toEqual(["partial"]);
  }, 120_000);

  it("sync: past --deadline, the units in flight stop and none is stored; the run is failed", async () => {
    const database = join(fixture.folder, "deadline.duckdb");
    const { run, summary } = await syncAgainst("dripping liquidation", [
      ...["--assets", "ETH,SOL", "--horizons", "1h", "--unit-deadline", "600", "--deadline", "6"],
      ...["--db", database],
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(summary.units.map((unit) => unit.status)).toEqual(["interrupted", "interrupted"]);
    expect(summary.failures).toEqual([]);
    const line =
      "sync: stopped at its deadline of 6 s (--deadline); 0 of 2 units stored, 0 failed, 2 not finished (rerun the same command to complete them)";
    expect(summary.stopped).toBe(line);
    expect(run.stderr).toContain(`pathlab ${line}\n`);
    expect(await runStatuses(database)).toEqual(["failed"]);
  }, 120_000);

  it("score: past --deadline, exit 1 with one line naming it; the run is failed", async () => {
    const database = join(fixture.folder, "score.duckdb");
    // The miners' path sets drip forever: only the job's deadline ends the score.
    const proxy = await startHostileProxy(fixture.sandbox.url, "dripping prediction sets");
    const run = await runPathlab(
      [
        ...["score", "--base-url", proxy.url, "--no-own-only", "--miners", "top:4"],
        ...["--from", "2026-02-24T20:00:00Z", "--to", "2026-02-24T21:00:00Z"],
        ...["--competition", "crypto-24h", "--assets", "BTC", "--deadline", "8"],
        ...["--db", database],
      ],
      { env: { PATHLAB_API_KEY: KEY } },
    ).finally(() => proxy.close());
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /^pathlab: score: stopped at its deadline of 8 s \(--deadline\); the prompts scored until then are stored \(run 1\)$/m,
    );
    expect(await runStatuses(database)).toEqual(["failed"]);
  }, 120_000);
});
