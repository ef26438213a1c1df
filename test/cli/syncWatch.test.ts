/**
 * `pathlab sync --watch` as real child processes: a watch stores each asset and horizon's latest
 * forecast once (its second tick finds it stored and fetches no path set), a watch restarted at a
 * later clock of the sandbox stores the new forecast starts beside the old, one restarted at the
 * same clock stores nothing new, and each exits 0 on SIGTERM. Into a lake the same (the ticks read
 * the lake's units).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPathlab } from "./runPathlab.ts";
import { watchUntil } from "./watchChild.ts";

/** Two 1h units of the embedded sandbox's small world (`SMALL_WORLD`). */
const SELECTION = ["--assets", "BTC,ETH", "--horizons", "1h", "--sandbox-miners", "9"];

/** A tick's line: `watch: <its start>: …`. */
const TICK = /^watch: \d{4}-\d\d-\d\dT/;

/** Runs a sync watch at `now` until it printed `ticks` tick lines, then SIGTERMs it. */
function watchFor(now: string, target: string[], ticks: number) {
  const args = ["sync", "--watch", "--every", "1", "--now", now, ...SELECTION, ...target];
  return watchUntil(args, (line) => TICK.test(line), ticks);
}

const tickLines = (stdout: string) => stdout.split("\n").filter((line) => TICK.test(line));

/** The forecast starts stored, per asset: `BTC 2026-11-21 09:44:00`, … */
async function storedStarts(target: string[]): Promise<string[]> {
  const query = await runPathlab([
    "query",
    ...target,
    "--ndjson",
    "select distinct asset || ' ' || forecast_start_time as start from insights where source = 'service' order by all",
  ]);
  expect(query.code, query.stderr).toBe(0);
  return query.stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { start: string }).start);
}

describe("sync --watch", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-sync-watch-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  for (const [kind, target] of [
    ["a database", ["--db", join(directory, "watch.duckdb")]],
    ["a lake", ["--lake", join(directory, "lake")]],
  ] as const) {
    it(`into ${kind}: each forecast start once, across restarts, and exit 0 on SIGTERM`, async () => {
      const first = await watchFor("2026-11-21T10:00:00Z", [...target], 2);
      expect(first.code, first.stderr).toBe(0);
      expect(tickLines(first.stdout)[0]).toMatch(
        /: 2 of 2 units stored, 0 already stored, 0 failed$/,
      );
      // the second tick sees the same forecasts: nothing fetched beyond their records
      expect(tickLines(first.stdout)[1]).toMatch(
        /: 0 of 2 units stored, 2 already stored, 0 failed$/,
      );
      expect(first.stderr).toMatch(/BTC 1h already stored \(forecast start /);
      // each tick counts its own units: [1/2] and [2/2] again, never [3/2]
      expect(first.stderr).not.toContain("[3/2]");
      expect(first.stdout).toMatch(/\nwatch: stopped after \d+ ticks, 2 units stored\n$/);
      const before = await storedStarts([...target]);
      expect(before).toHaveLength(2);

      // Half an hour later the service has new forecast starts: stored beside the old ones.
      const later = await watchFor("2026-11-21T10:30:00Z", [...target], 1);
      expect(later.code, later.stderr).toBe(0);
      expect(tickLines(later.stdout)[0]).toMatch(
        /: 2 of 2 units stored, 0 already stored, 0 failed$/,
      );
      const after = await storedStarts([...target]);
      expect(after).toHaveLength(4);
      expect(after).toEqual(expect.arrayContaining(before));

      // Restarted at the same clock: nothing new.
      const again = await watchFor("2026-11-21T10:30:00Z", [...target], 1);
      expect(again.code, again.stderr).toBe(0);
      expect(tickLines(again.stdout)[0]).toMatch(
        /: 0 of 2 units stored, 2 already stored, 0 failed$/,
      );
      expect(await storedStarts([...target])).toEqual(after);
    }, 180_000);
  }

  it("takes no --record, --replay or --json: exit 2, one line", async () => {
    const result = await runPathlab(["sync", "--watch", "--record", join(directory, "rec")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--watch follows the service: it takes no --record or --replay/);
    const json = await runPathlab(["sync", "--watch", "--json"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/--watch prints a line per tick: it takes no --json/);
  });
});
