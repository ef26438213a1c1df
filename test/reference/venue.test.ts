import { describe, expect, it } from "vitest";
import {
  venueProbabilityAbove,
  venueProbabilityHit,
  venueProbabilityRange,
  venueProbabilityUp,
} from "../../src/reference/venue.ts";

describe("venue probabilities", () => {
  const paths = [
    [100, 103, 101, 100], // ends at the start price
    [100, 99, 97, 96],
    [100, 101, 104, 106],
    [100, 100, 98, 102],
  ];

  it("venueProbabilityUp is P(S_end ≥ start price): a tie resolves Up", () => {
    expect(venueProbabilityUp(paths, 3, 100)).toBe(3 / 4);
    expect(venueProbabilityUp(paths, 2, 100)).toBe(2 / 4); // 101, 104
  });

  it("venueProbabilityRange is inclusive and venueProbabilityAbove strict, at the event's end step", () => {
    expect(venueProbabilityRange(paths, 3, 100, 102)).toBe(2 / 4);
    expect(venueProbabilityAbove(paths, 3, 100)).toBe(2 / 4);
    expect(venueProbabilityAbove(paths, 1, 100)).toBe(2 / 4);
  });

  it("venueProbabilityHit looks up for a level above the current price and down for one below, until the end step", () => {
    expect(venueProbabilityHit(paths, 3, 103, 100)).toBe(2 / 4); // 103 at 1; 104 at 2
    expect(venueProbabilityHit(paths, 1, 103, 100)).toBe(1 / 4);
    expect(venueProbabilityHit(paths, 3, 98, 100)).toBe(2 / 4); // 97 at 2; 98 at 2
    expect(venueProbabilityHit(paths, 3, 100, 100)).toBe(1); // the level is the spot: already hit
  });

  it("venue probabilities reject an end step outside the paths", () => {
    expect(() => venueProbabilityUp(paths, 4, 100)).toThrow(
      "venueProbabilityUp requires endStep to be an integer in [0, 3], got 4",
    );
  });
});
