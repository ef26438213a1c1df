import { describe, expect, it } from "vitest";
import { promptCrpsDetails, type PromptCrpsOptions } from "../../src/reference/promptCrps.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../src/domain/intervals.ts";
import {
  minerPaths,
  pathSetOf,
  PROMPT_SHAPES,
  realizedOf,
  realizedPrices,
  START_TIME,
  type PromptKind,
} from "./prompts.ts";
import { CRPS_VECTORS } from "../crpsVectors.ts";

const INTERVALS = { "24h": SCORING_INTERVALS_24H, "1h": SCORING_INTERVALS_1H } as const;

/**
 * scorePrompt against src/reference/promptCrps.ts under the same dated rules (by default the
 * current price rules, which the test prompts' date, 2026-02-25, would not choose): bit for bit
 * in parity mode (score and every interval sum), within 1e-12 relative in closed mode, and the
 * same −1 decisions. (test/scoring/volatilityCrps.test.ts checks the volatility part.)
 */
function expectAgreement(
  paths: number[][],
  prices: number[],
  kind: PromptKind,
  intervals: Readonly<Record<string, number>> = INTERVALS[kind],
  rules: Required<PromptCrpsOptions> = { gapsFirstChangeOnly: true, volatility: false },
): number {
  const reference = promptCrpsDetails(
    paths,
    prices,
    PROMPT_SHAPES[kind].timeIncrement,
    intervals,
    rules,
  );
  const pathSet = pathSetOf(paths, kind);
  const realized = realizedOf(prices, kind);
  const parity = scorePrompt(pathSet, realized, { intervals }, { method: "parity", ...rules });
  const closed = scorePrompt(pathSet, realized, { intervals }, rules);
  expect(parity.crps).toBe(reference.score);
  expect(parity.invalidReason).toBe(reference.invalidReason);
  expect(closed.invalidReason).toBe(reference.invalidReason);
  if (reference.score === -1) {
    expect(closed.crps).toBe(-1);
  } else {
    expect(Math.abs(closed.crps - reference.score)).toBeLessThanOrEqual(1e-12 * reference.score);
  }
  const referenceSums = Object.fromEntries(
    reference.intervals.map((interval) => [interval.name, interval.crpsSum]),
  );
  expect(parity.intervals).toEqual(referenceSums);
  return reference.score;
}

describe("scorePrompt", () => {
  it("scorePrompt reproduces DOMAIN.md's CRPS test vectors through a returns interval and an _abs interval", () => {
    // Members x and observation y become basis-point returns from a start of 10,000 (a price of
    // 10,000 + x gives a return of x bps), and end prices shifted by 10 for an _abs interval (CRPS
    // is shift-invariant; _abs divides by the last realized price 10 + y and multiplies by 10,000).
    for (const [observation, members, expected] of CRPS_VECTORS) {
      const returnsSet = pathSetOf(
        members.map((member) => [10000, 10000 + member]),
        "1h",
      );
      const returnsRealized = realizedOf([10000, 10000 + observation], "1h");
      const returns = scorePrompt(returnsSet, returnsRealized, { intervals: { "1min": 60 } });
      expect(Math.abs(returns.crps - expected)).toBeLessThanOrEqual(1e-12);
      const absoluteSet = pathSetOf(
        members.map((member) => [10, 10 + member]),
        "1h",
      );
      const absoluteRealized = realizedOf([10, 10 + observation], "1h");
      for (const method of ["closed", "parity"] as const) {
        const absolute = scorePrompt(
          absoluteSet,
          absoluteRealized,
          { intervals: { "1min_abs": 60 } },
          { method },
        );
        const want = (expected / (10 + observation)) * 10000;
        expect(Math.abs(absolute.crps - want)).toBeLessThanOrEqual(1e-12 * want);
      }
    }
  });

  for (const kind of ["24h", "1h"] as const) {
    const last = PROMPT_SHAPES[kind].nPoints - 1;
    it(`scorePrompt equals the reference prompt CRPS bit for bit in parity mode on random ${kind} prompts`, () => {
      expectAgreement(minerPaths(101, kind, 1000), realizedPrices(102, kind), kind);
      expectAgreement(minerPaths(103, kind, 200, 0.3), realizedPrices(104, kind), kind);
      // The gather reads path rows four at a time: 1, 2 and 3 rows are left over for one by one.
      for (const nPaths of [1, 6, 203]) {
        expectAgreement(minerPaths(108 + nPaths, kind, nPaths), realizedPrices(104, kind), kind);
      }
      // Terms are gathered and scored in chunks the scratch holds (96 of 1,000 paths): with 1,100
      // paths, chunks of 87 terms, the last one shorter (24h: 3 × 87 + 27; 1h: 60 in one).
      expectAgreement(minerPaths(109, kind, 1100), realizedPrices(104, kind), kind);
    });

    if (kind === "1h") {
      it("scorePrompt agrees with the reference beyond the kernel's 8,192-member scratch, and on a prompt after it", () => {
        // 8,200 paths: the sort's scratch is too short, so the kernel takes a buffer of its own.
        expectAgreement(minerPaths(105, kind, 8200), realizedPrices(106, kind), kind);
        expectAgreement(minerPaths(107, kind, 1000), realizedPrices(106, kind), kind);
      });
    }

    it(`scorePrompt skips NaN gaps in the realized path as the reference does (${kind})`, () => {
      const paths = minerPaths(111, kind, 300);
      const prices = realizedPrices(112, kind, [0, 3, 4, 5, 30, last - 1]);
      const withGaps = expectAgreement(paths, prices, kind);
      const full = expectAgreement(paths, realizedPrices(112, kind), kind);
      expect(withGaps).toBeGreaterThan(0);
      expect(withGaps).toBeLessThan(full); // fewer terms are added
      // The last price missing: the _abs term is skipped, the rest still scores.
      expect(expectAgreement(paths, realizedPrices(112, kind, [last]), kind)).toBeGreaterThan(0);
      // Every price missing: nothing is observed, the sum is 0.
      const none = realizedPrices(
        112,
        kind,
        Array.from({ length: last + 1 }, (_, index) => index),
      );
      expect(expectAgreement(paths, none, kind)).toBe(0);
    });

    it(`scorePrompt shortens an _abs interval's grid on a short realized path, and gives −1 when grids disagree (${kind})`, () => {
      const paths = minerPaths(121, kind, 200);
      const short = realizedPrices(122, kind).slice(0, Math.floor(last * 0.7));
      const absoluteName = kind === "24h" ? "24hour_abs" : "60min_abs";
      const absoluteOnly = { [absoluteName]: INTERVALS[kind][absoluteName] };
      expect(expectAgreement(paths, short, kind, absoluteOnly)).toBeGreaterThan(0);
      expect(expectAgreement(paths, short, kind)).toBe(-1);
      const result = scorePrompt(
        pathSetOf(paths, kind),
        realizedOf(short, kind),
        { intervals: INTERVALS[kind] },
        { gapsFirstChangeOnly: true },
      );
      expect(result.invalidReason).toMatch(/realized changes against \d+ simulated changes/);
      expect(result.intervals).toEqual({});
      // Grids that disagree where nothing is observed add nothing, as in the validator.
      const unobserved = short.map((price, index) => (index % 2 === 1 ? NaN : price));
      const regularOnly = { [kind === "24h" ? "5min" : "1min"]: PROMPT_SHAPES[kind].timeIncrement };
      expect(expectAgreement(paths, unobserved, kind, regularOnly)).toBe(0);
    });

    it(`scorePrompt scores negative simulated prices as the validator does, not −1 (${kind})`, () => {
      const paths = minerPaths(133, kind, 100).map((path) => [...path]);
      paths[40][7] = -paths[40][7];
      paths[2][last] = -0.5;
      const score = expectAgreement(paths, realizedPrices(134, kind), kind);
      expect(Number.isFinite(score) && score > 0).toBe(true);
    });

    it(`scorePrompt gives −1 for a zero simulated price, a non-finite one, and a non-finite total (${kind})`, () => {
      const paths = minerPaths(131, kind, 100);
      const prices = realizedPrices(132, kind);
      const zero = paths.map((path) => [...path]);
      zero[40][7] = 0;
      expect(expectAgreement(zero, prices, kind)).toBe(-1);
      const result = scorePrompt(pathSetOf(zero, kind), realizedOf(prices, kind), {
        intervals: INTERVALS[kind],
      });
      expect(result).toEqual({
        crps: -1,
        priceCrps: NaN,
        volatilityCrps: null,
        intervals: {},
        volatilityBlocks: {},
        invalidReason: "zero price encountered in simulation runs",
      });
      const infinite = paths.map((path) => [...path]);
      infinite[3][last] = Infinity;
      expect(expectAgreement(infinite, prices, kind)).toBe(-1);
      // A last realized price of 0: the _abs term divides by it and the total is infinite.
      const zeroLast = [...prices];
      zeroLast[last] = 0;
      expect(expectAgreement(paths, zeroLast, kind)).toBe(-1);
      const total = scorePrompt(pathSetOf(paths, kind), realizedOf(zeroLast, kind), {
        intervals: INTERVALS[kind],
      });
      expect(total.invalidReason).toBe("non-finite total CRPS Infinity");
      expect(Object.keys(total.intervals)).toEqual(Object.keys(INTERVALS[kind]));
    });
  }

  it("scorePrompt names the first bad price in path-major order, whether the first interval's gather or a pass of its own checks the prices", () => {
    const prices = realizedPrices(161, "24h");
    // Every five-minute change has one missing end: the 5min interval observes nothing, so the
    // prices are checked by a pass of their own.
    const noFiveMinute = prices.map((price, index) => (index % 2 === 1 ? NaN : price));
    // [name, spoil, reason, paths (103 unless given)]
    const cases: [string, (paths: number[][]) => void, string, number?][] = [
      [
        "a zero before a NaN",
        (paths) => {
          paths[1][200] = 0;
          paths[2][5] = NaN;
        },
        "zero price encountered in simulation runs",
      ],
      [
        "a NaN before a zero",
        (paths) => {
          paths[1][288] = NaN;
          paths[2][0] = 0;
        },
        "non-finite simulated price NaN",
      ],
      [
        "a zero at a path's first point",
        (paths) => {
          paths[4][0] = 0;
          paths[9][100] = -Infinity;
        },
        "zero price encountered in simulation runs",
      ],
      [
        "an Infinity in the rows after the last block of four, a zero in the last row",
        (paths) => {
          paths[101][250] = Infinity;
          paths[102][1] = 0;
        },
        "non-finite simulated price Infinity",
      ],
      [
        "a NaN in a block's first row, at a later point than a zero in its last row",
        (paths) => {
          paths[96][280] = NaN;
          paths[99][2] = 0;
        },
        "non-finite simulated price NaN",
      ],
      [
        // 1,000 paths: the gather takes the five-minute terms in three chunks of 96, each checking
        // its own points, so a later chunk can hold the first bad price of an earlier path.
        "a NaN in an early path's third chunk, a zero in a later path's first chunk",
        (paths) => {
          paths[3][250] = NaN;
          paths[800][10] = 0;
        },
        "non-finite simulated price NaN",
        1000,
      ],
    ];
    for (const [name, spoil, reason, nPaths = 103] of cases) {
      // 103 paths: 25 blocks of four rows for the gather, then three rows one by one.
      const paths = minerPaths(162, "24h", nPaths);
      spoil(paths);
      for (const [label, intervals, realized] of [
        ["the 5min gather checks", SCORING_INTERVALS_24H, prices],
        ["30min first, a pass checks", { "30min": 1800, "5min": 300 }, prices],
        ["5min unobserved, a pass checks", SCORING_INTERVALS_24H, noFiveMinute],
      ] as const) {
        expect(expectAgreement(paths, realized, "24h", intervals), `${name}, ${label}`).toBe(-1);
        const result = scorePrompt(pathSetOf(paths, "24h"), realizedOf(realized, "24h"), {
          intervals,
        });
        expect(result, `${name}, ${label}`).toEqual({
          crps: -1,
          priceCrps: NaN,
          volatilityCrps: null,
          intervals: {},
          volatilityBlocks: {},
          invalidReason: reason,
        });
      }
    }
  });

  it("scorePrompt knows the interval sets of the competitions of both eras", () => {
    const dayPaths = pathSetOf(minerPaths(141, "24h", 100), "24h");
    const dayRealized = realizedOf(realizedPrices(142, "24h"), "24h");
    const hourPaths = pathSetOf(minerPaths(143, "1h", 100), "1h");
    const hourRealized = realizedOf(realizedPrices(144, "1h"), "1h");
    const byIntervals24 = scorePrompt(dayPaths, dayRealized, { intervals: SCORING_INTERVALS_24H });
    const byIntervals1 = scorePrompt(hourPaths, hourRealized, { intervals: SCORING_INTERVALS_1H });
    for (const competition of ["crypto-24h", "com-equ-24h", "low"] as const) {
      expect(scorePrompt(dayPaths, dayRealized, { competition })).toEqual(byIntervals24);
    }
    for (const competition of ["crypto-1h", "high"] as const) {
      expect(scorePrompt(hourPaths, hourRealized, { competition })).toEqual(byIntervals1);
    }
    expect(Object.keys(byIntervals24.intervals)).toEqual(["5min", "30min", "3hour", "24hour_abs"]);
    expect(Object.keys(byIntervals1.intervals)).toHaveLength(18);
    expect(byIntervals1.intervals["0_35min_gaps"]).toBeGreaterThan(0);
  });

  it("scorePrompt accepts null and NaN alike for missing realized prices", () => {
    const pathSet = pathSetOf(minerPaths(151, "1h", 100), "1h");
    const prices = realizedPrices(152, "1h", [10, 11]);
    const withNull = realizedOf(prices, "1h");
    const withNaN = { ...withNull, real_prices: prices };
    expect(withNull.real_prices[10]).toBeNull();
    expect(scorePrompt(pathSet, withNaN, { competition: "crypto-1h" })).toEqual(
      scorePrompt(pathSet, withNull, { competition: "crypto-1h" }),
    );
  });

  it("scorePrompt rejects a realized path of another prompt, an unknown competition and a bad interval", () => {
    const pathSet = pathSetOf(minerPaths(161, "1h", 10), "1h");
    const realized = realizedOf(realizedPrices(162, "1h"), "1h");
    expect(() =>
      scorePrompt(
        pathSet,
        { ...realized, start_time: "2026-02-25T23:50:00Z" },
        {
          competition: "crypto-1h",
        },
      ),
    ).toThrow(
      "scorePrompt requires the realized path's start_time to equal the path set's startTime (2026-02-25T23:45:00.000Z), got 2026-02-25T23:50:00Z",
    );
    expect(() =>
      scorePrompt(pathSet, { ...realized, time_increment: 300 }, { competition: "crypto-1h" }),
    ).toThrow(
      "scorePrompt requires the realized path's time_increment to equal the path set's timeIncrement (60 s), got 300",
    );
    expect(() => scorePrompt(pathSet, realized, { competition: "crypto-2h" as never })).toThrow(
      /requires one of crypto-1h, crypto-24h, com-equ-24h, low, high, got "crypto-2h"/,
    );
    expect(() => scorePrompt(pathSet, realized, { intervals: { "5min": 0 } })).toThrow(
      'scorePrompt requires interval "5min" to be a positive number of seconds, got 0',
    );
    expect(() => scorePrompt(pathSet, realized, { intervals: { "30s": 30 } })).toThrow(
      'planPrompt requires every interval to span at least one time increment: interval "30s" is 30 s with 60 s steps',
    );
    expect(START_TIME).toBe(Date.UTC(2026, 1, 25, 23, 45) / 1000);
  });
});
