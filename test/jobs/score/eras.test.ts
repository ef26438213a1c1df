/**
 * The score job over a February 2026 range, against an embedded sandbox of the small world (whose
 * validator applies the rules of that date with `src/reference/`) over real HTTP: two competitions × 0.5, the p90 rule,
 * and 1h `_gaps` intervals scored like ordinary ones (before the 2026-03-11 fix).
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScore } from "../../../src/jobs/score/score.ts";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import type { ScoreSummary } from "../../../src/jobs/score/summary.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

let sandbox: EmbeddedSandbox;
let summary: ScoreSummary;
let database: string;
let remove: () => void;

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, now: "2026-02-26T10:49:00Z" });
  const temporary = temporaryFolder();
  remove = temporary.remove;
  database = join(temporary.folder, "february.duckdb");
  summary = await runScore({
    from: "2026-02-25T09:00:00Z",
    to: "2026-02-26T09:48:00Z",
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    // A service (baseUrl) defaults to own-only; the sandbox serves every path set, so recompute all.
    ownOnly: false,
    database,
    threads: 1,
  });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

describe("runScore in February 2026", () => {
  it("scores the two competitions of the time, each × 0.5: their weights add up to 1.0", () => {
    expect(summary.competitions.map((c) => [c.competition, c.rewardShare, c.softmaxBeta])).toEqual([
      ["low", 0.5, -0.1],
      ["high", 0.5, -0.2],
    ]);
    let total = 0;
    for (const competition of summary.competitions) {
      expect(competition.promptsScored).toBeGreaterThan(0);
      expect(competition.era).toBe(
        "from the start: low, high × 0.5; p90 cap; 1h gaps as ordinary intervals; format legacy; owner burn",
      );
      const weights = competition.leaderboard.reduce(
        (sum, row) => sum + (row.rewardWeight ?? 0),
        0,
      );
      expect(weights).toBeCloseTo(0.5, 12);
      total += weights;
    }
    expect(total).toBeCloseTo(1, 12);
  });

  it("agrees with the sandbox's validator of that date to the last number (p90 rule, old 1h gaps)", async () => {
    expect(summary.agreement.disagree).toBe(0);
    expect(summary.agreement.agree).toBeGreaterThan(100);
    const store = await openStore(database, { readOnly: true });
    try {
      const rules = await queryRows(
        store,
        "select distinct competition, score_rule from prompts order by 1",
      );
      expect(rules.rows).toEqual([
        ["high", "legacy-p90"],
        ["low", "legacy-p90"],
      ]);
      // Old formula: a 1h `_gaps` interval is scored like the ordinary interval of its length
      // (every consecutive change), so 0_5min_gaps sums exactly what 5min sums; after the fix it
      // is the first change alone.
      const gaps = await queryRows(
        store,
        `select count(*),
           count(*) filter (where json_extract_string(intervals, '$."0_5min_gaps"') = json_extract_string(intervals, '$."5min"')
                            and json_extract_string(intervals, '$."0_15min_gaps"') = json_extract_string(intervals, '$."15min"')
                            and json_extract_string(intervals, '$."0_30min_gaps"') = json_extract_string(intervals, '$."30min"'))
         from miner_scores where time_length = 3600 and source = 'network' and crps <> -1`,
      );
      const [[scored, likeOrdinary]] = gaps.rows;
      expect(Number(scored)).toBeGreaterThan(10);
      expect(likeOrdinary).toBe(scored);
    } finally {
      await store.close();
    }
  });
});
