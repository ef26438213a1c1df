import { describe, expect, it } from "vitest";
import { minerKeysOf } from "../../../src/jobs/score/minerKeys.ts";
import { smoothedScores as referenceSmoothedScores } from "../../../src/reference/smoothedScores.ts";
import { smoothedScores } from "../../../src/scoring/smoothedScores.ts";

const CHANGE = Date.parse("2026-11-20T04:49:55Z") / 1000;
const OLD = "5LSyX5JGUXkqj58d3Hrk1cEkkMBPxDmmjWVSx3eudULBx3fm";
const NEW = "59otvhphiAhGWhxXufocrnn4C5JXvYrjCHcrDV5jYov2vAH6";

describe("miners keyed by hotkey", () => {
  const keys = minerKeysOf(
    new Map([
      [
        37,
        [
          { timeUnix: CHANGE - 3 * 86400, hotkey: OLD },
          { timeUnix: CHANGE, hotkey: NEW },
        ],
      ],
    ]),
  );

  it("a uid whose hotkey changed is two miners; before the first change seen, a third (held since before)", () => {
    const before = keys.keyAt(37, CHANGE - 1);
    const after = keys.keyAt(37, CHANGE);
    const earliest = keys.keyAt(37, CHANGE - 4 * 86400);
    expect(new Set([before, after, earliest]).size).toBe(3);
    expect(keys.minerOf(before)).toEqual({ uid: 37, hotkey: OLD });
    expect(keys.minerOf(after)).toEqual({ uid: 37, hotkey: NEW });
    expect(keys.minerOf(earliest)).toEqual({ uid: 37, hotkey: null });
    expect(keys.keyAt(37, CHANGE + 3600)).toBe(after);
    expect(keys.holdsAt(before, CHANGE + 60)).toBe(false);
    expect(keys.holdsAt(after, CHANGE + 60)).toBe(true);
    // A uid without changes in the span is one miner throughout.
    expect(keys.keyAt(12, CHANGE - 86400)).toBe(keys.keyAt(12, CHANGE + 86400));
    expect(() => keys.minerOf(99)).toThrow("minerOf requires a known key, got 99");
  });

  it("the new hotkey starts afresh, back-filled with the worst scores, as the validator (reference) scores it", () => {
    // uid 37 was the best miner under its old hotkey; the new holder scores 30 on its one prompt.
    const prompt = (time: number, uid37: number) => ({
      scoredTimeUnix: time,
      asset: "BTC",
      worstScore: 50,
      minerScores: [
        { minerUid: keys.keyAt(37, time - 3600), promptScore: uid37 },
        { minerUid: keys.keyAt(5, time - 3600), promptScore: 10 },
      ],
    });
    const prompts = [prompt(CHANGE - 1200, 0), prompt(CHANGE - 600, 0), prompt(CHANGE + 3900, 30)];
    const update = CHANGE + 3900 + 120;
    const byHotkey = smoothedScores(prompts, { competition: "crypto-1h", now: update });
    const newHolder = byHotkey.get(keys.keyAt(37, update))!;
    // Two back-filled rows at the worst score 50, then its own 30: (50 + 50 + 30) / 3.
    expect(newHolder).toBeCloseTo(130 / 3, 12);
    expect(byHotkey.get(keys.keyAt(37, update))).toBe(
      referenceSmoothedScores(prompts, update, 5).get(keys.keyAt(37, update)),
    );
    // Keyed by uid instead, the new holder would inherit the old one's zeros: 10, a different rank.
    const byUid = smoothedScores(
      prompts.map((item) => ({
        ...item,
        minerScores: item.minerScores.map((score) => ({
          ...score,
          minerUid: keys.minerOf(score.minerUid).uid,
        })),
      })),
      { competition: "crypto-1h", now: update },
    );
    expect(byUid.get(37)).toBeCloseTo(10, 12);
    expect(newHolder).not.toBeCloseTo(byUid.get(37)!, 3);
  });
});
