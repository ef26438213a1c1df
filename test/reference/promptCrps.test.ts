import { describe, expect, it } from "vitest";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../src/domain/intervals.ts";
import { promptCrps, promptCrpsDetails } from "../../src/reference/promptCrps.ts";
import { createRandom } from "../../src/reference/random.ts";
import { numpyAvailable, runPython, toJsonNumbers } from "./python.ts";

/**
 * The validator's prompt CRPS written independently in numpy (DOMAIN.md §2), with the ensemble
 * CRPS as mean|x−y| − ½·mean|x−x'| by broadcasting. Exceptions (e.g. a boolean mask of the wrong
 * length) score −1, as the validator's worker does.
 */
const NUMPY_VALIDATOR = `
def crps(y, x):
    return np.mean(np.abs(x - y)) - 0.5 * np.mean(np.abs(x[:, None] - x[None, :]))

def changes(prices, k, absolute, gap):
    grid = prices[:, ::k]
    if gap:
        grid = grid[:, :2]
    if absolute:
        return grid[:, 1:]
    return np.diff(grid, axis=1) / grid[:, :-1] * 10000

def prompt_crps(sims, real, increment, intervals):
    try:
        if np.any(sims == 0) or not np.all(np.isfinite(sims)):
            return -1.0
        total = 0.0
        for name, seconds in intervals.items():
            k = int(seconds / increment)
            absolute = name.endswith("_abs")
            gap = name.endswith("_gaps")
            if absolute:
                while real[::k].shape[0] == 1 and k > 1:
                    k -= 1
            sim_changes = changes(sims, k, absolute, gap)
            real_changes = changes(real.reshape(1, -1), k, absolute, gap)[0]
            observed = ~np.isnan(real_changes)
            if not observed.any():
                continue
            sim_observed = sim_changes[:, observed]
            terms = np.array([crps(y, sim_observed[:, j]) for j, y in enumerate(real_changes[observed])])
            if absolute:
                terms = terms / real[-1] * 10000
            total += float(terms.sum())
        return total if np.isfinite(total) else -1.0
    except Exception:
        return -1.0

cases = data
print(json.dumps([prompt_crps(np.array(c['sims'], dtype=float), np.array(c['real'], dtype=float), c['increment'], c['intervals']) for c in cases]))
`;

interface PromptCase {
  sims: number[][];
  real: number[];
  increment: number;
  intervals: Readonly<Record<string, number>>;
}

function numpyPromptCrps(cases: PromptCase[]): number[] {
  return runPython(
    NUMPY_VALIDATOR,
    cases.map((promptCase) => ({ ...promptCase, real: toJsonNumbers(promptCase.real) })),
  ) as number[];
}

function gbmPaths(seed: number, stepMinutes: number, stepCount: number, pathCount: number) {
  return simulateGbmPaths(createRandom(seed), {
    startPrice: 2000,
    annualVolatility: 0.6,
    stepMinutes,
    stepCount,
    pathCount,
  });
}

describe("promptCrps", () => {
  // Two paths of three 1-minute points; hand-computed terms (ensemble CRPS of two members
  // x1, x2 against y: mean|x−y| − |x1 − x2| / 4).
  const sims = [
    [100, 101, 102],
    [100, 99, 100],
  ];
  const intervals = { "1min": 60, "2min_abs": 120, "0_2min_gaps": 120 };
  const twoMemberCrps = (x1: number, x2: number, y: number) =>
    (Math.abs(x1 - y) + Math.abs(x2 - y)) / 2 - Math.abs(x1 - x2) / 4;

  it("promptCrps sums basis-point, _abs and _gaps terms as worked by hand", () => {
    const realized = [100, 100.5, 101];
    // 1min: realized changes 50 and 0.5/100.5·1e4; simulated (100, −100) and (1/101·1e4, 1/99·1e4).
    const first = twoMemberCrps(100, -100, 50); // = 50
    const second = twoMemberCrps(1e4 / 101, 1e4 / 99, (0.5 / 100.5) * 1e4);
    // 2min_abs: end prices 102, 100 against 101 → CRPS 0.5, divided by 101 (last realized) × 1e4.
    const absolute = (0.5 / 101) * 1e4;
    // 0_2min_gaps: one change 0 → 2: simulated 200, 0 against 100 → CRPS 50.
    const gap = 50;
    expect(first).toBe(50);
    const details = promptCrpsDetails(sims, realized, 60, intervals);
    expect(details.intervals.map((interval) => interval.termCount)).toEqual([2, 1, 1]);
    expect(details.intervals[0].crpsSum).toBeCloseTo(first + second, 12);
    expect(details.intervals[1].crpsSum).toBeCloseTo(absolute, 12);
    expect(details.intervals[2].crpsSum).toBeCloseTo(gap, 12);
    expect(promptCrps(sims, realized, 60, intervals)).toBeCloseTo(
      first + second + absolute + gap,
      12,
    );
  });

  it("promptCrps skips realized changes that touch a NaN price", () => {
    // Point 1 missing: both 1-minute changes are NaN and skipped; _abs and _gaps use points 0 and 2.
    const details = promptCrpsDetails(sims, [100, NaN, 101], 60, intervals);
    expect(details.intervals.map((interval) => interval.termCount)).toEqual([0, 1, 1]);
    expect(details.score).toBeCloseTo((0.5 / 101) * 1e4 + 50, 12);
  });

  it("promptCrps scores 345 terms for a full 24h prompt and 121 for a full 1h prompt", () => {
    const day = promptCrpsDetails(
      gbmPaths(1, 5, 288, 20),
      gbmPaths(2, 5, 288, 1)[0],
      300,
      SCORING_INTERVALS_24H,
    );
    expect(day.intervals.map((interval) => interval.termCount)).toEqual([288, 48, 8, 1]);
    const hour = promptCrpsDetails(
      gbmPaths(3, 1, 60, 20),
      gbmPaths(4, 1, 60, 1)[0],
      60,
      SCORING_INTERVALS_1H,
    );
    expect(hour.intervals.reduce((sum, interval) => sum + interval.termCount, 0)).toBe(121);
    expect(
      hour.intervals
        .filter((interval) => interval.name.endsWith("_gaps"))
        .every((interval) => interval.termCount === 1),
    ).toBe(true);
  });

  it.skipIf(!numpyAvailable)(
    "promptCrps equals a numpy implementation of the validator on 1h and 24h prompts with missing prices",
    () => {
      const hourReal = gbmPaths(10, 1, 60, 1)[0];
      hourReal[17] = NaN;
      hourReal[40] = NaN;
      const dayReal = gbmPaths(11, 5, 288, 1)[0];
      for (const index of [0, 5, 6, 7, 100, 287]) dayReal[index] = NaN;
      const shortReal = gbmPaths(12, 1, 49, 1)[0]; // 50 points for a 61-point prompt
      const cases: PromptCase[] = [
        {
          sims: gbmPaths(20, 1, 60, 3),
          real: hourReal,
          increment: 60,
          intervals: SCORING_INTERVALS_1H,
        },
        {
          sims: gbmPaths(21, 1, 60, 200),
          real: hourReal,
          increment: 60,
          intervals: SCORING_INTERVALS_1H,
        },
        {
          sims: gbmPaths(22, 5, 288, 100),
          real: dayReal,
          increment: 300,
          intervals: SCORING_INTERVALS_24H,
        },
        // _abs with a short realized path: k drops from 60 to 49 so the realized grid has two points.
        {
          sims: gbmPaths(23, 1, 60, 50),
          real: shortReal,
          increment: 60,
          intervals: { "60min_abs": 3600 },
        },
        // A short realized path under a regular interval: the grids disagree, the validator gives −1.
        {
          sims: gbmPaths(24, 1, 60, 50),
          real: shortReal,
          increment: 60,
          intervals: { "1min": 60 },
        },
      ];
      const expected = numpyPromptCrps(cases);
      expect(expected[4]).toBe(-1);
      cases.forEach((promptCase, index) => {
        const actual = promptCrps(
          promptCase.sims,
          promptCase.real,
          promptCase.increment,
          promptCase.intervals,
        );
        expect(Math.abs(actual - expected[index])).toBeLessThanOrEqual(
          1e-12 * Math.abs(expected[index]),
        );
      });
      expect(
        promptCrpsDetails(cases[3].sims, cases[3].real, 60, cases[3].intervals).intervals[0]
          .intervalSteps,
      ).toBe(49);
    },
  );

  it("promptCrps is −1 for a zero or non-finite simulated price and for a non-finite total", () => {
    const realized = [100, 100.5, 101];
    expect(promptCrps([[100, 0, 102], sims[1]], realized, 60, intervals)).toBe(-1);
    expect(promptCrps([[100, NaN, 102], sims[1]], realized, 60, intervals)).toBe(-1);
    expect(promptCrps(sims, [100, Infinity, 101], 60, intervals)).toBe(-1);
    // A zero realized price makes the next change infinite: −1.
    expect(promptCrps(sims, [100, 0, 101], 60, intervals)).toBe(-1);
  });

  it("promptCrps skips an _abs term whose realized end price is missing instead of scoring −1", () => {
    const details = promptCrpsDetails(sims, [100, 100.5, NaN], 60, intervals);
    expect(details.score).not.toBe(-1);
    expect(details.intervals.map((interval) => interval.termCount)).toEqual([1, 0, 0]);
  });

  it("promptCrps rejects an interval shorter than one time increment", () => {
    expect(() => promptCrps(sims, [100, 101, 102], 60, { "30s": 30 })).toThrow(
      'promptCrpsDetails requires every interval to span at least one time increment: interval "30s" is 30 s with 60 s steps',
    );
  });
});
