import { describe, expect, it } from "vitest";
import { minerKeysOf } from "../../../src/jobs/score/minerKeys.ts";
import { rankHistory, updateTimes } from "../../../src/jobs/score/rankOverTime.ts";
import { promptScores } from "../../../src/reference/promptScores.ts";
import type { ScoredPrompt } from "../../../src/scoring/smoothedScores.ts";
import { validatorEraAt } from "../../../src/domain/eras.ts";

const A = Date.parse("2026-11-20T10:00:00Z") / 1000;
const B = A + 300;

describe("rankHistory", () => {
  it("ranks the candidate among the miners as the pools with it score them", () => {
    const keys = minerKeysOf(new Map());
    const uids = [10, 20, 30];
    const minerKeys = uids.map((uid) => keys.keyAt(uid, A));
    const crps = { [A]: [100, 200, 300], [B]: [100, 200, 300] };
    const candidate = { [A]: 50, [B]: 130 };
    const prompt = (time: number, withCandidate: boolean): ScoredPrompt => {
      const raw = withCandidate ? [...crps[time], candidate[time]] : crps[time];
      const scores = promptScores(raw, "p95")!;
      const ids = withCandidate ? [...minerKeys, -1] : minerKeys;
      return {
        scoredTimeUnix: time,
        asset: "BTC",
        worstScore: scores.worstScore,
        minerScores: ids.map((minerUid, index) => ({
          minerUid,
          promptScore: scores.scores[index],
        })),
      };
    };
    const network = [prompt(A, false), prompt(B, false)];
    const withCandidate = [prompt(A, true), prompt(B, true)];
    const updates = updateTimes(network, B + 600);
    expect(updates).toEqual([A + 120, B + 120]);
    const rows = rankHistory(network, withCandidate, {
      competition: validatorEraAt(B).competitions[0],
      updates,
      keys,
      settings: {},
      firstScoredUnix: A,
    });
    // After both prompts: with the candidate, A scores 50/150/250/0 and B 0/100/200/30, so the
    // candidate averages 15 and uid 10 averages 25: the candidate ranks first of four (without
    // it in the pools uid 10 would average 0 and push it to second).
    const last = rows.filter((row) => row.updatedAtUnix === B + 120);
    const placed = last.find((row) => row.source === "candidate")!;
    expect(placed).toMatchObject({ rank: 1, of: 4, minerUid: -1 });
    expect(placed.smoothedScore).toBeCloseTo(15, 12);
    // The network's own ranks stay those of the pools without the candidate.
    expect(last.filter((row) => row.source === "network").map((row) => row.minerUid)).toEqual(uids);
    expect(last.find((row) => row.minerUid === 10)!.smoothedScore).toBe(0);
    // The window of a 5-day competition reaches before a range starting at A.
    expect(rows.every((row) => row.windowInRange === false)).toBe(true);
  });
});
