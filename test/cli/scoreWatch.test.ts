/**
 * `pathlab score --watch` without a queue, as real child processes: across a simulated hour of
 * the sandbox's clock (three watches, each restarted with the clock 30 minutes later and stopped
 * with SIGTERM after two ticks) every prompt of the hour's windows is scored exactly once, the
 * second tick of each finds nothing new, and each watch exits 0 on SIGTERM.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPathlab } from "./runPathlab.ts";
import { watchUntil } from "./watchChild.ts";

/** BTC's 24h prompts in the embedded sandbox's small world (`SMALL_WORLD`). */
const SELECTION = [
  ...["--competition", "crypto-24h", "--assets", "BTC", "--miners", "top:3"],
  ...["--sandbox-miners", "9"],
];

/** Runs a score watch at `now` until it printed `ticks` tick lines, then SIGTERMs it. */
function watchFor(now: string, database: string, ticks: number) {
  const args = ["score", "--watch", "--every", "1", "--lookback", "1", "--now", now];
  return watchUntil(
    [...args, ...SELECTION, "--db", database],
    (line) => line.startsWith("watch: crypto-24h"),
    ticks,
  );
}

describe("score --watch", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-watch-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("across a simulated hour and two restarts, scores every prompt once and stops on SIGTERM", async () => {
    const database = join(directory, "watch.duckdb");
    const clocks = ["2026-11-20T12:00:00Z", "2026-11-20T12:30:00Z", "2026-11-20T13:00:00Z"];
    let scored = 0;
    for (const now of clocks) {
      const run = await watchFor(now, database, 2);
      expect(run.code, run.stderr).toBe(0);
      const ticks = run.stdout.split("\n").filter((line) => line.startsWith("watch: crypto-24h"));
      // The second tick sees the same window: nothing new, everything already stored.
      expect(ticks[1]).toMatch(/: 0 prompts scored, [1-9]\d* already stored$/);
      scored += Number(/: (\d+) prompts? scored/.exec(ticks[0])?.[1]);
      expect(run.stdout).toMatch(/\nwatch: stopped after \d+ ticks, \d+ prompts? scored\n$/);
      // a count of one takes the singular: "1 prompt scored", never "1 prompts"
      expect(run.stdout).not.toMatch(/\b1 (prompts|ticks)\b/);
      expect(run.stdout).not.toMatch(/\b(?!1\b)\d+ prompt scored/);
    }
    // Every prompt of the hour's windows (starts 11:00–13:00 the day before, one look-back hour
    // before each clock's scored prompts), each once, as a plain score of that range stores them.
    const expected = join(directory, "range.duckdb");
    const range = ["--from", "2026-11-19T11:00:00Z", "--to", "2026-11-19T13:00:00Z"];
    const plain = await runPathlab([
      "score",
      ...range,
      "--now",
      clocks[2],
      ...SELECTION,
      "--db",
      expected,
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    const starts = async (file: string) => {
      const result = await runPathlab([
        "query",
        "--db",
        file,
        "--ndjson",
        "select start_time, count(*) n from prompts group by all order by all",
      ]);
      return result.stdout.split("\n").filter((line) => line !== "");
    };
    const watched = await starts(database);
    expect(watched).toEqual(await starts(expected));
    // Each prompt scored once: the ticks' counts add up to the prompts stored, no more.
    expect(scored).toBe(watched.length);
  }, 240_000);
});
