/**
 * `pathlab sync` as a real child process against a hostile server: a proxy on 127.0.0.1 in front
 * of the embedded sandbox that answers prediction sets with an endless body, or drips an insight
 * record one byte at a time. The sync ends on its own with the failure named, its peak memory
 * bounded by the body limits (measured from /proc), and within the unit's deadline.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SyncSummary } from "../../src/jobs/sync/summary.ts";
import { syncFixture } from "../jobs/syncFixture.ts";
import { startHostileProxy, type Hostility } from "./hostileProxy.ts";
import { runPathlab } from "./runPathlab.ts";

const KEY = "sk-test-hostile-41d9e2";
// Two miners: each prediction set the proxy answers is 64 MiB of bytes, and the point is one of them.
const fixture = syncFixture(KEY, { miners: 2 });

async function syncAgainst(hostility: Hostility, database: string, unitDeadline = "60") {
  const proxy = await startHostileProxy(fixture.sandbox.url, hostility);
  try {
    const run = await runPathlab(
      [
        ...["sync", "--base-url", proxy.url, "--assets", "BTC", "--horizons", "1h"],
        ...["--db", database, "--unit-deadline", unitDeadline, "--json"],
      ],
      { env: { PATHLAB_API_KEY: KEY } },
    );
    return { run, summary: JSON.parse(run.stdout) as SyncSummary };
  } finally {
    await proxy.close();
  }
}

describe("sync against a hostile server", () => {
  it("endless prediction sets: each is cut off at its limit, the unit fails naming it, memory stays bounded", async () => {
    const { run, summary } = await syncAgainst(
      "endless prediction sets",
      join(fixture.folder, "endless.duckdb"),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(summary.units.map((unit) => unit.status)).toEqual(["failed"]);
    expect(summary.failures.map((failure) => failure.reason).join("\n")).toMatch(
      /\/v2\/prediction\/historical: HTTP 200: response body over the limit of 64 MiB \(67108864 bytes\) for this operation \(maxBodyBytes\): cut off after \d+ bytes/,
    );
    // Without limits this grew past 4 GiB (the bodies never end); with them, at most one 64 MiB body
    // per prediction set in flight, and the sync's own.
    console.log(`sync against endless bodies: peak RSS ${run.peakRssMb.toFixed(0)} MB`);
    expect(run.peakRssMb, "no /proc to read the child's peak memory from").toBeGreaterThan(0);
    expect(run.peakRssMb).toBeLessThan(1536);
  }, 120_000);

  it("a dripping record: the unit stops at its deadline and says so; the sync ends", async () => {
    const { run, summary } = await syncAgainst(
      "dripping liquidation",
      join(fixture.folder, "drip.duckdb"),
      "3",
    );
    expect(run.code, run.stderr).toBe(1);
    expect(summary.units.map((unit) => unit.status)).toEqual(["failed"]);
    expect(
      summary.failures.map((failure) => failure.reason),
      run.stderr,
    ).toContain("unit not stored: not finished within 3 s (the unit's deadline, --unit-deadline)");
    // The client's own deadline per call is 10 minutes: a sync that waited for it would not end
    // within the test's 3.
  }, 180_000);
});
