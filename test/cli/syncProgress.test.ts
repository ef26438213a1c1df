import { describe, expect, it } from "vitest";
import { timeLeft } from "../../src/cli/syncProgress.ts";

describe("timeLeft", () => {
  it("says nothing before the first unit is done and after the last", () => {
    expect(timeLeft(10_000, 0, 18)).toBe("");
    expect(timeLeft(90_000, 18, 18)).toBe("");
  });

  it("extends the rate of the units done to the units left", () => {
    // 6 units in 30 s: 5 s a unit, 12 left → 60 s
    expect(timeLeft(30_000, 6, 18)).toBe(", about 1 min left");
    // 9 units in 27 s: 3 s a unit, 9 left → 27 s, said in steps of 5 s
    expect(timeLeft(27_000, 9, 18)).toBe(", about 30 s left");
    // 1 unit in 20 s, 17 left → 340 s
    expect(timeLeft(20_000, 1, 18)).toBe(", about 6 min left");
    // 17 units in 17 s, 1 left → 1 s, never below 5 s
    expect(timeLeft(17_000, 17, 18)).toBe(", about 5 s left");
  });
});
