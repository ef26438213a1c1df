/**
 * `pathlab score --lake`: a single machine's run writes each prompt into a Parquet lake as that
 * prompt's unit, so the lake holds what `score --db` stores for the same range, row for row; a
 * second run replaces the prompts' files instead of adding rows; and the lake is checked before any
 * work. Built CLI, a small-world sandbox over HTTP (the runs' service, not their point), real
 * Parquet files read by DuckDB.
 */

import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NOW, TABLES } from "../jobs/queue/queueHelpers.ts";
import { queryLakeWhile, queryLines } from "./queryLines.ts";
import { smallSandbox } from "./smallSandbox.ts";

/**
 * Six hours of prompt starts of the queue tests' day and competition, at their clock (the
 * sandbox's), the two best miners scored: every miner's path sets are served, so none is own-only.
 */
const RANGE = [
  "--from",
  "2026-11-19T06:00:00Z",
  "--to",
  "2026-11-19T12:00:00Z",
  ...["--competition", "crypto-24h", "--assets", "BTC", "--miners", "top:2", "--no-own-only"],
];

const service = smallSandbox(NOW, "sk-test-score-lake-2b7e91c4");

/** One line per row of `table` (the run id left out: a unit belongs to no run), sorted. */
function rows(source: string[], table: string): Promise<string[]> {
  return queryLines(source, `select * exclude (run_id) from ${table} order by all`);
}

describe("score --lake", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-score-lake-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("writes the rows `score --db` stores, one unit per prompt, and a rerun replaces them", async () => {
    const lake = join(directory, "lake");
    const database = join(directory, "single.duckdb");
    // Readers are not locked out: queries of the lake succeed while the run writes it.
    const { run: lakeRun, queries } = await queryLakeWhile(
      service.pathlab(["score", ...RANGE, "--lake", lake]),
      lake,
      "select count(*) n from prompts",
    );
    const seen: number[] = [];
    for (const query of queries.filter((query) => !query.afterRun)) {
      if (query.code === 0) seen.push(Number(JSON.parse(query.stdout).n));
      else expect(query.stderr).toContain("which holds no .pathlab-lake.json"); // before the run made it
    }
    expect(lakeRun.code).toBe(0);
    expect(lakeRun.stdout).toContain(`→ lake ${lake}\n`);
    const prompts = Number(/(\d+) prompts scored/.exec(lakeRun.stdout)?.[1]);
    expect(prompts).toBeGreaterThan(8);
    // One folder per prompt, with its prompts file (no working database left behind).
    const partition = join(lake, "units", "competition=crypto-24h", "asset=BTC");
    const files = readdirSync(partition, { recursive: true }).filter((name) =>
      String(name).endsWith("/prompts.parquet"),
    );
    expect(files).toHaveLength(prompts);
    expect(
      seen.some((count) => count > 0 && count < prompts),
      `counts seen: ${seen}`,
    ).toBe(true);
    expect(readdirSync(directory)).toEqual(["lake"]);

    const dbRun = await service.pathlab(["score", ...RANGE, "--db", database]);
    expect(dbRun.code).toBe(0);
    const expected = new Map<string, string[]>();
    for (const table of TABLES) {
      expected.set(table, await rows(["--db", database], table));
      expect(expected.get(table)!.length, table).toBeGreaterThan(0);
      expect(await rows(["--lake", lake], table), table).toEqual(expected.get(table));
    }
    // Run again: each prompt's files are replaced, no row is added.
    const again = await service.pathlab(["score", ...RANGE, "--lake", lake]);
    expect(again.code).toBe(0);
    for (const table of TABLES) {
      expect(await rows(["--lake", lake], table), table).toEqual(expected.get(table));
    }
  }, 240_000);

  it("refuses --lake with --db, and a folder that is not a lake, before any work", async () => {
    const both = await service.pathlab(["score", ...RANGE, "--lake", "a", "--db", "b.duckdb"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--lake and --db name two places to write; give one");
    const theirs = join(directory, "theirs");
    mkdirSync(theirs);
    writeFileSync(join(theirs, "notes.txt"), "mine");
    const refused = await service.pathlab(["score", ...RANGE, "--lake", theirs]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not a pathlab lake");
    expect(readdirSync(theirs)).toEqual(["notes.txt"]);
  }, 60_000);
});
