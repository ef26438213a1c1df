/**
 * `pathlab sync --lake`, the built command: readers query the lake while the sync writes it (never
 * locked out), the report names the lake and suggests commands that read it, and `--db` with
 * `--lake` is a usage error. What the lake holds is tested row for row in test/jobs/syncLake.test.ts.
 * The sync talks to a small-world sandbox in the test's process.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { queryLakeWhile, queryLines } from "./queryLines.ts";
import { smallSandbox } from "./smallSandbox.ts";

const SYNC = ["sync", "--assets", "BTC", "--horizons", "1h"];

const service = smallSandbox("2026-11-21T10:00:00Z", "sk-test-sync-lake-6c21d8e0");

describe("sync --lake", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-sync-lake-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("writes a lake that queries read while it runs, and reports where", async () => {
    const lake = join(directory, "lake");
    const { run: sync, queries } = await queryLakeWhile(
      service.pathlab([...SYNC, "--lake", lake]),
      lake,
      "select count(*) n from path_sets",
    );
    const answers = queries.map((query) => (query.code === 0 ? "read" : query.stderr));
    expect(sync.code, sync.stderr).toBe(0);
    // queries read the lake while the sync wrote it (the folder is a lake from the sync's start)
    expect(answers).toContain("read");
    // every query during the run read the lake, or came before the sync made the folder a lake
    for (const answer of answers)
      expect(["read", expect.stringContaining("which holds no .pathlab-lake.json")]).toContainEqual(
        answer,
      );
    expect(sync.stdout).toContain(`lake:     ${lake} (ok; the run's record is this summary)`);
    expect(sync.stdout).toContain(`from crosschecks group by all order by all" --lake ${lake}`);
    expect(sync.stdout).not.toContain("export --out");
    const [counts] = await queryLines(
      ["--lake", lake],
      "select count(*) n, count(distinct asset) assets from path_sets",
    );
    // the unit's path sets: those of the seven miners of the small world's nine that answered
    expect(JSON.parse(counts)).toEqual({ n: 7, assets: 1 });
  }, 120_000);

  it("refuses --db with --lake: exit 2, one line naming both", async () => {
    const result = await service.pathlab([
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
