import { describe, expect, it } from "vitest";
import { MINER_SLOTS } from "../../../src/sandbox/world/minerProfiles.ts";
import { createWorld } from "../../../src/sandbox/world/world.ts";

const NOW = Date.UTC(2026, 10, 21, 10, 49) / 1000;
const world = createWorld({ seed: 31, nowUnix: NOW });
const CHURNING = MINER_SLOTS.filter((slot) => slot.tenureDays !== undefined).map(
  (slot) => slot.uid,
);

describe("the miners' roster", () => {
  it("the network has at least 32 uids, and every behaviour of the issue appears", () => {
    expect(world.minerUids.length).toBeGreaterThanOrEqual(32);
    const behaviours = new Set(world.minerUids.map((uid) => world.minerAt(uid)!.behaviour));
    for (const behaviour of [
      "calibrated",
      "underDispersed",
      "overDispersed",
      "biasedDrift",
      "fatTails",
      "staleStart",
      "copier",
      "timeout",
      "shortPaths",
      "wrongPathCount",
      "tooManyDigits",
      "nineDigits",
      "float32Overflow",
      "float32Underflow",
      "zeroPrice",
    ]) {
      expect(behaviours).toContain(behaviour);
    }
  });

  it("miners join and leave: the uid holders of the last 30 days are new hotkeys on the churning uids", () => {
    const rows = world.uidHolders(NOW - 30 * 86400, NOW);
    expect(rows.length).toBeGreaterThanOrEqual(CHURNING.length * 3);
    expect(new Set(rows.map((row) => row.hotkey)).size).toBe(rows.length);
    for (const row of rows) {
      expect(CHURNING).toContain(row.miner_uid);
      const registered = Date.parse(row.created_at) / 1000;
      expect(registered).toBeGreaterThanOrEqual(NOW - 30 * 86400);
      expect(world.minerAt(row.miner_uid, registered)!.hotkey).toBe(row.hotkey);
      expect(world.minerAt(row.miner_uid, registered - 1)!.hotkey).not.toBe(row.hotkey);
    }
    const sorted = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at));
    expect(rows).toEqual(sorted);
  });

  it("a fixed uid keeps its hotkey", () => {
    const hotkey = world.minerAt(47, NOW)!.hotkey;
    for (let day = 1; day <= 30; day++)
      expect(world.minerAt(47, NOW - day * 86400)!.hotkey).toBe(hotkey);
    expect(hotkey).toMatch(/^5[1-9A-HJ-NP-Za-km-z]{47}$/);
  });

  it("a new holder answers only after its warm-up, and a leaving one stops before it is replaced", () => {
    const row = world
      .uidHolders(NOW - 20 * 86400, NOW - 86400)
      .find((candidate) => candidate.miner_uid === 37)!;
    const registered = Date.parse(row.created_at) / 1000;
    const competition = world.minerAt(37, registered)!.competitions[0];
    expect(competition).toBe("crypto-1h");
    const firstMinute = Math.ceil(registered / 60) * 60;
    expect(world.predictionSet(37, "BTC", firstMinute + 60, 60, 3600).status).toBe("absent");
    expect(world.predictionSet(37, "BTC", firstMinute + 3 * 3600, 60, 3600).status).not.toBe(
      "absent",
    );
    expect(world.predictionSet(37, "BTC", firstMinute - 3600, 60, 3600).status).toBe("absent");
  });
});
