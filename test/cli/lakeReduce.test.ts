/**
 * `pathlab lake reduce` as a child process: the rank history and the smoothed scores it computes
 * from a lake that `score --lake` wrote equal, row for row, those `score --db` stores for the same
 * range, in a time zone other than UTC too, a candidate's rows included; a second reduce replaces
 * its units (same rows, no duplicate); a folder that is not a lake is a usage error. The commands
 * talk to one small-world sandbox in the test's process.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";
import { queryLines } from "./queryLines.ts";
import { runPathlab } from "./runPathlab.ts";
import { smallSandbox } from "./smallSandbox.ts";

/** The sandbox's validator scores the prompts of its last 32 minutes: two 1h prompts here. */
const NOW = "2026-11-21T10:00:00Z";
const RANGE = ["--from", "2026-11-21T08:00:00Z", "--to", "2026-11-21T09:00:00Z"];
/** Every miner's path sets are served: none is own-only. */
const SELECTION = [
  ...["--competition", "crypto-1h", "--assets", "BTC,ETH", "--miners", "top:5", "--no-own-only"],
];
const RANK_HISTORY = "select * exclude (run_id) from rank_history order by all";
const SMOOTHED = "select * exclude (run_id) from smoothed_scores order by all";

let folder: string;
let remove: () => void;
beforeAll(() => ({ folder, remove } = temporaryFolder()));
afterAll(() => remove?.());

/** `pathlab …args` against one small-world sandbox at NOW in this process. */
const { pathlab } = smallSandbox(NOW, "sk-test-lake-reduce-83f0a5d1");

describe("pathlab lake reduce", () => {
  it("ranks a lake's prompts as `score` ranks them, and a rerun replaces its rows", async () => {
    const lake = join(folder, "lake");
    const database = join(folder, "p.duckdb");
    const scored = await pathlab(["score", ...RANGE, ...SELECTION, "--lake", lake]);
    expect(scored.code, scored.stderr).toBe(0);
    const stored = await pathlab(["score", ...RANGE, ...SELECTION, "--db", database]);
    expect(stored.code, stored.stderr).toBe(0);
    const expected = await queryLines(["--db", database], RANK_HISTORY);
    // both updates rank the network's miners, not only the five scored
    expect(expected.length).toBeGreaterThan(2 * 5);
    expect(new Set(expected.map((line) => JSON.parse(line).updated_at)).size).toBe(2);
    const smoothed = await queryLines(["--db", database], SMOOTHED);
    // the five miners scored, at the service's latest update
    expect(smoothed.length).toBe(5);
    expect(new Set(smoothed.map((line) => JSON.parse(line).as_of))).toEqual(
      new Set(["2026-11-21T09:58:00Z"]),
    );

    for (const run of [1, 2]) {
      // in a time zone other than UTC: the range's times are UTC wherever the reduce runs
      const reduced = await pathlab(["lake", "reduce", "--lake", lake, ...RANGE], {
        TZ: "America/New_York",
      });
      expect(reduced.code, reduced.stderr).toBe(0);
      expect(reduced.stdout, `run ${run}`).toBe(
        `reduced: crypto-1h: 7 prompts (2 scored by the service), 2 updates, ${expected.length} rows of rank history; ` +
          "smoothed scores of 5 miners at 2026-11-21T09:58:00Z, 0 agreeing with the service's\n",
      );
      expect(await queryLines(["--lake", lake], RANK_HISTORY), `run ${run}`).toEqual(expected);
      expect(await queryLines(["--lake", lake], SMOOTHED), `run ${run}`).toEqual(smoothed);
    }
  }, 180_000);

  it("places a candidate among the miners as `score --candidate` does", async () => {
    const lake = join(folder, "candidate-lake");
    const database = join(folder, "candidate.duckdb");
    const model = join(folder, "model");
    const baseline = await pathlab([
      "baseline",
      ...RANGE,
      "--competition",
      "crypto-1h",
      "--assets",
      "BTC,ETH",
      "--model",
      "gbm",
      "--out",
      model,
    ]);
    expect(baseline.code, baseline.stderr).toBe(0);
    const candidate = ["--candidate", model];
    const scored = await pathlab(["score", ...RANGE, ...SELECTION, ...candidate, "--lake", lake]);
    expect(scored.code, scored.stderr).toBe(0);
    const stored = await pathlab(["score", ...RANGE, ...SELECTION, ...candidate, "--db", database]);
    expect(stored.code, stored.stderr).toBe(0);
    const expected = await queryLines(["--db", database], RANK_HISTORY);
    const candidateRows = expected.filter((line) => JSON.parse(line).source === "candidate");
    // the candidate at each of the two updates
    expect(candidateRows.length).toBe(2);
    const smoothed = await queryLines(["--db", database], SMOOTHED);
    const candidateSmoothed = smoothed.filter((line) => JSON.parse(line).source === "candidate");
    expect(candidateSmoothed.length).toBe(1);
    const { smoothed_score: smoothedScore, reward_weight: rewardWeight } = JSON.parse(
      candidateSmoothed[0],
    ) as { smoothed_score: number; reward_weight: number };

    // the candidate's smoothed score and rank as `score` reports them
    const placed = /candidate: smoothed ([0-9.]+), rank (\d+) of (\d+)/.exec(stored.stdout);
    expect(placed, stored.stdout).not.toBeNull();
    expect(Number(placed![1])).toBeCloseTo(smoothedScore, 4);
    const reduced = await pathlab(["lake", "reduce", "--lake", lake, ...RANGE]);
    expect(reduced.code, reduced.stderr).toBe(0);
    expect(reduced.stdout).toContain(
      `smoothed scores of 5 miners at 2026-11-21T09:58:00Z, 0 agreeing with the service's; ${placed![0]}, reward weight ${rewardWeight.toPrecision(4)}\n`,
    );
    expect(await queryLines(["--lake", lake], RANK_HISTORY)).toEqual(expected);
    expect(await queryLines(["--lake", lake], SMOOTHED)).toEqual(smoothed);
  }, 180_000);

  it("refuses a folder that is not a lake", async () => {
    const empty = join(folder, "not-a-lake");
    mkdirSync(empty);
    const result = await runPathlab(["lake", "reduce", "--lake", empty, "--now", NOW]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `lake reduce: --lake ${empty}: expected a lake that score units were written into`,
    );
  });
});
