/**
 * `pathlab sync --lake`, the built command: readers query the lake while the sync writes it (never
 * locked out), the report names the lake and suggests commands that read it, and `--db` with
 * `--lake` is a usage error. What the lake holds is tested row for row in test/jobs/syncLake.test.ts.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { queryLakeWhile, runPathlab } from "./runPathlab.ts";

const SYNC = ["sync", "--assets", "BTC,ETH", "--horizons", "1h", "--now", "2026-11-21T10:00:00Z"];

describe("sync --lake", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-sync-lake-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("writes a lake that queries read while it runs, and reports where", async () => {
    const lake = join(directory, "lake");
    const { run: sync, queries } = await queryLakeWhile(
      runPathlab([...SYNC, "--lake", lake]),
      lake,
      "select count(*) n from path_sets",
    );
    const answers = queries.map((query) => (query.code === 0 ? "read" : query.stderr));
    expect(sync.code, sync.stderr).toBe(0);
    // queries read the lake while the sync wrote it (the folder is a lake from the sync's start)
    expect(answers).toContain("read");
    // every query during the run read the lake, or came before the sync made the folder a lake
    for (const answer of answers)
      expect(["read", expect.stringContaining("not a pathlab lake")]).toContainEqual(answer);
    expect(sync.stdout).toContain(`lake:     ${lake} (ok; the run's record is this summary)`);
    expect(sync.stdout).toContain(`from crosschecks group by all order by all" --lake ${lake}`);
    expect(sync.stdout).not.toContain("export --out");
    const query = await runPathlab([
      "query",
      "--lake",
      lake,
      "--ndjson",
      "select count(*) n, count(distinct asset) assets from path_sets",
    ]);
    expect(query.code, query.stderr).toBe(0);
    expect(JSON.parse(query.stdout)).toEqual({ n: 20, assets: 2 });
  }, 120_000);

  it("refuses --db with --lake: exit 2, one line naming both", async () => {
    const result = await runPathlab([
      ...SYNC,
      "--lake",
      join(directory, "other"),
      "--db",
      join(directory, "p.duckdb"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--lake and --db name two places to write; give one/);
  });
});
