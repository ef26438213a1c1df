import { describe, expect, it } from "vitest";
import { canonicalAsset } from "../../src/domain/assets.ts";
import {
  HORIZON_LAYOUTS,
  LIQUIDATION_SCENARIOS,
  LIQUIDATION_WINDOWS,
  LP_LEVEL_COUNT,
  LP_STAY_KEYS,
  LP_WIDTHS,
  PERCENTILE_PROBABILITIES,
  STRIKE_GRID_RULES,
  VENUE_WINDOW_HORIZONS,
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  binaryOutcomeOf,
  hitDirection,
  liquidationLevels,
  liquidationWindowSteps,
  lpBounds,
  lpLevels,
  nextExpiryUnix,
  niceStep,
  priceKey,
  nanMean,
  numpySum,
  monthlyExpiryUnix,
  optionExpiryUnix,
  optionPriceDecimals,
  realizedWindowMinutes,
  rebasePrice,
  roundTo,
  stepOfTime,
  strikeGrid,
  strikeGridRule,
  timeInIntervalIn,
  upDownOutcomeOf,
  venueEventWindow,
  volatilityBlockSteps,
  volatilityPointBounds,
  type VenueWindow,
} from "../../src/domain/insightConventions.ts";
import { parseIsoTimeMs } from "../../src/domain/time.ts";
import { lpProbabilityLevels } from "../../src/reference/lp.ts";
import { createRandom } from "../../src/reference/random.ts";
import { numpyAvailable, runPython } from "../reference/python.ts";
import { capturedExists, readCaptured } from "./captured.ts";

const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";
const unixOf = (iso: string): number => parseIsoTimeMs(iso) / 1000;

describe("insight conventions: ensemble and time", () => {
  it("rebasePrice moves point 0 exactly to the current price (additive) and scales (multiplicative)", () => {
    expect(rebasePrice(68123.45, 68123.45, 67676.62358575)).toBe(67676.62358575);
    expect(rebasePrice(110, 100, 200)).toBe(210);
    expect(rebasePrice(110, 100, 200, "multiplicative")).toBeCloseTo(220, 12);
  });

  it("stepOfTime rounds to the nearest point and clamps to the path", () => {
    const start = 1_772_063_100;
    expect(stepOfTime(start, start, 300, 289)).toBe(0);
    expect(stepOfTime(start + 149, start, 300, 289)).toBe(0);
    expect(stepOfTime(start + 151, start, 300, 289)).toBe(1);
    expect(stepOfTime(start + 86_400, start, 300, 289)).toBe(288);
    expect(stepOfTime(start + 200_000, start, 300, 289)).toBe(288);
    expect(stepOfTime(start - 900, start, 300, 289)).toBe(0);
    expect(stepOfTime(start + 1_800, start, 60, 61)).toBe(30);
  });

  it("stepOfTime rejects a non-positive increment and non-finite times", () => {
    expect(() => stepOfTime(1, 0, 0, 289)).toThrow(
      "stepOfTime requires timeIncrement > 0 and an integer nPoints ≥ 1, got 0 and 289",
    );
    expect(() => stepOfTime(NaN, 0, 300, 289)).toThrow(
      "stepOfTime requires finite times, got timeUnix NaN and forecastStartUnix 0",
    );
  });

  it("the horizon layouts are 289 points every 300 s and 61 points every 60 s", () => {
    for (const layout of Object.values(HORIZON_LAYOUTS)) {
      expect((layout.nPoints - 1) * layout.timeIncrement).toBe(layout.horizonMinutes * 60);
    }
  });
});

describe("insight conventions: rounding and keys", () => {
  it("roundTo rounds half toward +∞ at the given decimals", () => {
    expect(roundTo(0.41514, 4)).toBe(0.4151);
    expect(roundTo(0.41515001, 4)).toBe(0.4152);
    expect(roundTo(67676.62358575, 2)).toBe(67676.62);
    expect(roundTo(-2.5, 0)).toBe(-2);
    expect(roundTo(NaN, 4)).toBeNaN();
  });

  it("priceKey is the shortest round-trip decimal, the same as Python's repr", () => {
    expect(priceKey(71272.32018575001)).toBe("71272.32018575001");
    expect(priceKey(68000)).toBe("68000");
    expect(priceKey(0.1 + 0.2)).toBe("0.30000000000000004");
  });

  it("PERCENTILE_PROBABILITIES are the nine spec keys as numbers", () => {
    expect(PERCENTILE_PROBABILITIES).toEqual([0.005, 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.995]);
  });
});

describe("insight conventions: liquidation", () => {
  it("the scenarios are 1.0% … 10.0% with their fractions", () => {
    expect(LIQUIDATION_SCENARIOS.map((scenario) => scenario.key)).toEqual([
      "1.0%",
      "2.0%",
      "3.0%",
      "4.0%",
      "5.0%",
      "6.0%",
      "7.0%",
      "8.0%",
      "9.0%",
      "10.0%",
    ]);
    expect(LIQUIDATION_SCENARIOS.map((scenario) => scenario.fraction)).toEqual([
      0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1,
    ]);
  });

  it("liquidationLevels puts the long level below and the short level above the current price", () => {
    expect(liquidationLevels(2000, 0.05)).toEqual({ long: 1900, short: 2100 });
  });

  it("liquidation windows are 6/12/18/24 hours (24h) and 15/30/45/60 minutes (1h), from point 0", () => {
    expect(
      LIQUIDATION_WINDOWS["24h"].map((window) => [
        window.key,
        liquidationWindowSteps(window, 300).toStep,
      ]),
    ).toEqual([
      ["6", 72],
      ["12", 144],
      ["18", 216],
      ["24", 288],
    ]);
    expect(
      LIQUIDATION_WINDOWS["1h"].map((window) => [
        window.key,
        liquidationWindowSteps(window, 60).toStep,
      ]),
    ).toEqual([
      ["15", 15],
      ["30", 30],
      ["45", 45],
      ["60", 60],
    ]);
    expect(liquidationWindowSteps(LIQUIDATION_WINDOWS["24h"][0], 300).fromStep).toBe(0);
  });

  it("liquidationWindowSteps rejects a window that is not a whole number of steps", () => {
    expect(() => liquidationWindowSteps({ key: "6", seconds: 21600 }, 7)).toThrow(
      'liquidationWindowSteps requires window "6" (21600 s) to be a whole number of 7 s steps',
    );
  });
});

describe("insight conventions: LP bounds and LP probabilities", () => {
  it("the LP widths are 1.0% … 16.0% and the stay keys are the horizon in hours", () => {
    expect(LP_WIDTHS.length).toBe(16);
    expect(LP_WIDTHS[0]).toEqual({ key: "1.0%", fraction: 0.01 });
    expect(LP_WIDTHS[15]).toEqual({ key: "16.0%", fraction: 0.16 });
    expect(LP_STAY_KEYS).toEqual({ "24h": "24", "1h": "1" });
  });

  it.skipIf(!capturedExists)(
    `lpBounds reproduces every captured LP bound bit for bit from the record's current price${needs}`,
    () => {
      for (const asset of ["AAPL", "BTC", "ETH", "GOOGL", "NVDA", "SOL", "SPY", "TSLA", "XAU"]) {
        const record = readCaptured(`lp_bounds/${asset}.json`) as {
          current_price: number;
          data: { interval: { full_width: string; lower_bound: number; upper_bound: number } }[];
        };
        expect(record.data.map((entry) => entry.interval.full_width)).toEqual(
          LP_WIDTHS.map((width) => width.key),
        );
        record.data.forEach((entry, index) => {
          const bounds = lpBounds(record.current_price, LP_WIDTHS[index].fraction);
          expect([bounds.lower, bounds.upper]).toEqual([
            entry.interval.lower_bound,
            entry.interval.upper_bound,
          ]);
        });
      }
    },
  );

  it("timeInIntervalIn converts minutes to hours or a fraction of the horizon", () => {
    expect(timeInIntervalIn(90, "minutes", 1440)).toBe(90);
    expect(timeInIntervalIn(90, "hours", 1440)).toBe(1.5);
    expect(timeInIntervalIn(30, "fraction", 60)).toBe(0.5);
  });

  it.skipIf(!capturedExists)(
    `lpLevels from the lowest and highest captured level gives exactly the captured keys${needs}`,
    () => {
      const record = readCaptured("lp_probabilities/BTC.json") as {
        data: { "24h": { probability_above: Record<string, number> } };
      };
      const keys = Object.keys(record.data["24h"].probability_above);
      const levels = keys.map(Number);
      const computed = lpLevels(Math.min(...levels), Math.max(...levels)).map(priceKey);
      expect(computed.length).toBe(LP_LEVEL_COUNT);
      expect([...computed].sort()).toEqual([...keys].sort());
    },
  );

  it.skipIf(!numpyAvailable)("lpLevels equals numpy linspace(min, max, 11) bit for bit", () => {
    const random = createRandom(11);
    const pairs: [number, number][] = [];
    for (let index = 0; index < 20; index++) {
      const minimum = 10 ** (random.uniform() * 6);
      pairs.push([minimum, minimum * (1 + random.uniform())]);
    }
    const expected = runPython(
      "print(json.dumps([np.linspace(a, b, 11).tolist() for a, b in data]))",
      pairs,
    ) as number[][];
    expect(pairs.map(([minimum, maximum]) => lpLevels(minimum, maximum))).toEqual(expected);
  });

  it("lpLevels equals the reference lpProbabilityLevels of a terminal sample", () => {
    const random = createRandom(5);
    const terminal = Array.from({ length: 1000 }, () => 60000 * Math.exp(0.05 * random.normal()));
    expect(lpLevels(Math.min(...terminal), Math.max(...terminal))).toEqual(
      lpProbabilityLevels(terminal),
    );
  });
});

describe("insight conventions: option pricing", () => {
  it("nextExpiryUnix is the next 08:00 UTC strictly after the forecast start", () => {
    expect(nextExpiryUnix(unixOf("2026-02-25T23:40:00Z"))).toBe(unixOf("2026-02-26T08:00:00Z"));
    expect(nextExpiryUnix(unixOf("2026-02-26T07:59:00Z"))).toBe(unixOf("2026-02-26T08:00:00Z"));
    expect(nextExpiryUnix(unixOf("2026-02-26T08:00:00Z"))).toBe(unixOf("2026-02-27T08:00:00Z"));
  });

  it("strikeGrid centres round(spot/step)·step with floor((count−1)/2) strikes below, or the rule's count", () => {
    expect(strikeGrid("BTC", 71181)).toEqual([68000, 69000, 70000, 71000, 72000, 73000, 74000]);
    expect(strikeGrid("ETH", 2040.23055211)).toEqual(
      Array.from({ length: 13 }, (_, index) => 1900 + 25 * index),
    );
    expect(strikeGrid("SOL", 87.19650125)).toEqual(
      Array.from({ length: 14 }, (_, index) => 74 + 2 * index),
    );
  });

  it.skipIf(!capturedExists)(
    `the captured expiries: BTC the monthly expiry, the others the next 08:00 UTC; BTC prices in whole dollars${needs}`,
    () => {
      // Captured around 2026-02-25 23:45 UTC; the records omit forecast_start_time.
      const start = unixOf("2026-02-25T23:45:00Z");
      for (const asset of ["AAPL", "BTC", "ETH", "GOOGL", "NVDA", "SOL", "SPY", "TSLA"]) {
        const record = readCaptured(`option_pricing/${asset}.json`) as {
          expiry_time: string;
          call_options: Record<string, number>;
          put_options: Record<string, number>;
        };
        const expiry = optionExpiryUnix(canonicalAsset(asset), start);
        expect(unixOf(record.expiry_time.replace(" ", "T")), asset).toBe(expiry);
        const prices = [
          ...Object.values(record.call_options),
          ...Object.values(record.put_options),
        ];
        const decimals = optionPriceDecimals(canonicalAsset(asset));
        expect(prices.every(Number.isInteger), asset).toBe(decimals === 0);
      }
      expect(monthlyExpiryUnix(unixOf("2026-12-20T00:00:00Z"))).toBe(
        unixOf("2027-01-29T08:00:00Z"),
      );
      expect(monthlyExpiryUnix(unixOf("2026-11-26T12:00:00Z"))).toBe(
        unixOf("2026-12-25T08:00:00Z"),
      );
    },
  );

  it("strikeGrid writes decimal steps as clean decimals", () => {
    expect(strikeGrid("XRP", 2.1371).map(priceKey)).toEqual([
      "1.85",
      "1.9",
      "1.95",
      "2",
      "2.05",
      "2.1",
      "2.15",
      "2.2",
      "2.25",
      "2.3",
      "2.35",
      "2.4",
      "2.45",
    ]);
    expect(strikeGrid("SP500", 4321.987).map(priceKey).slice(0, 2)).toEqual(["4260", "4270"]);
  });

  it.skipIf(!capturedExists)(
    `strikeGrid reproduces the captured strike keys of every captured asset${needs}`,
    () => {
      for (const asset of ["AAPL", "BTC", "ETH", "GOOGL", "NVDA", "SOL", "SPY", "TSLA"]) {
        const record = readCaptured(`option_pricing/${asset}.json`) as {
          current_price: number;
          call_options: Record<string, number>;
        };
        const expected = Object.keys(record.call_options).map(Number);
        expect(strikeGrid(canonicalAsset(asset), record.current_price)).toEqual(expected);
      }
    },
  );

  it("every asset of the strike table uses its rule; others a nice step of 0.25 % of spot and 13 strikes", () => {
    expect(strikeGridRule("SPYX", 690)).toBe(STRIKE_GRID_RULES.SPYX);
    expect(strikeGridRule("NVDA", 190)).toEqual({ step: 0.5, count: 22 });
    expect(strikeGridRule("SP500", 6900)).toEqual({ step: 20, count: 13 });
    expect(niceStep(0.6)).toBe(0.5);
    expect(niceStep(0.09)).toBe(0.1);
    expect(niceStep(0.0024)).toBe(0.0025);
    expect(niceStep(3.4)).toBe(2.5);
    expect(niceStep(3.9)).toBe(5);
    expect(niceStep(8)).toBe(10);
  });

  it("strikeGrid and niceStep reject a non-positive spot", () => {
    expect(() => strikeGrid("BTC", 0)).toThrow(
      "strikeGrid requires a finite positive spotPrice for BTC, got 0",
    );
    expect(() => niceStep(-1)).toThrow("niceStep requires a finite positive target, got -1");
  });
});

describe("insight conventions: volatility", () => {
  it("annualizeVolatility multiplies by √(525600 / minutes) × 100", () => {
    expect(annualizeVolatility(0.001, 1)).toBeCloseTo(Math.sqrt(525600) / 10, 12);
    expect(annualizeVolatility(0.01, 15)).toBeCloseTo(Math.sqrt(35040), 12);
  });

  it("volatility blocks tile the horizon: 96 × 15 min (3 steps), 30 × 2 min (2 steps)", () => {
    for (const horizon of ["24h", "1h"] as const) {
      const layout = VOLATILITY_LAYOUTS[horizon];
      expect(layout.blockCount * layout.blockMinutes).toBe(HORIZON_LAYOUTS[horizon].horizonMinutes);
    }
    expect(volatilityBlockSteps("24h", 300)).toBe(3);
    expect(volatilityBlockSteps("1h", 60)).toBe(2);
    expect(() => volatilityBlockSteps("24h", 7)).toThrow(
      "volatilityBlockSteps requires a 24h block to be a whole number of 7 s steps",
    );
  });

  it("volatility points follow the UTC clock blocks (a − Δ, a]: every start second of a block, both horizons", () => {
    // Independently: the path times, the end of each time's clock block (its ceiling to Δ), and
    // per point the last step in the i-th block from the start's.
    const expectedBounds = (
      startUnix: number,
      increment: number,
      points: number,
      delta: number,
    ) => {
      const steps = Array.from({ length: 1 + (points - 1) * (delta / increment) }, (_, s) => s);
      const blockEnd = (s: number) => Math.ceil((startUnix + s * increment) / delta) * delta;
      const lastIn = (end: number) => Math.max(...steps.filter((s) => blockEnd(s) <= end));
      return [0, ...Array.from({ length: points }, (_, i) => lastIn(blockEnd(0) + i * delta))];
    };
    const quarterHour = unixOf("2026-02-25T23:45:00Z");
    for (let second = 0; second < 900; second += 1) {
      const start = quarterHour + second;
      expect(Array.from(volatilityPointBounds("24h", start, 300)), `24h +${second} s`).toEqual(
        expectedBounds(start, 300, 97, 900),
      );
    }
    for (let second = 0; second < 240; second += 1) {
      const start = quarterHour + second;
      expect(Array.from(volatilityPointBounds("1h", start, 60)), `1h +${second} s`).toEqual(
        expectedBounds(start, 60, 31, 120),
      );
    }
    // On a quarter hour: point 0 empty, then 96 whole blocks (the layout from the start).
    expect(Array.from(volatilityPointBounds("24h", quarterHour, 300))).toEqual([
      0,
      ...Array.from({ length: 97 }, (_, i) => 3 * i),
    ]);
    // A step on the block's end belongs to it (closed on the right): 5 and 10 minutes past.
    expect(Array.from(volatilityPointBounds("24h", quarterHour + 300, 300)).slice(0, 3)).toEqual([
      0, 2, 5,
    ]);
    expect(Array.from(volatilityPointBounds("24h", quarterHour + 600, 300)).slice(0, 3)).toEqual([
      0, 1, 4,
    ]);
    expect(Array.from(volatilityPointBounds("24h", quarterHour + 660, 300)).slice(0, 3)).toEqual([
      0, 0, 3,
    ]);
    expect(() => volatilityPointBounds("24h", Number.NaN, 300)).toThrow(
      "volatilityPointBounds requires a finite startUnix, got NaN",
    );
  });

  it("the realized window lists the minutes ending at the forecast start's minute", () => {
    const start = unixOf("2026-02-25T23:40:00Z");
    const window24 = realizedWindowMinutes("24h", start);
    expect(window24.length).toBe(1440);
    expect(window24[1439]).toBe(start);
    expect(window24[0]).toBe(start - 1439 * 60);
    const window1 = realizedWindowMinutes("1h", start + 30);
    expect(window1.length).toBe(120);
    expect(window1[119]).toBe(start);
  });

  it("series have one point per block boundary; realized blocks are 15 (24h) or 2 (1h) listed prices", () => {
    expect(VOLATILITY_LAYOUTS["24h"]).toMatchObject({ pointCount: 97, realizedBlockEntries: 15 });
    expect(VOLATILITY_LAYOUTS["1h"]).toMatchObject({ pointCount: 31, realizedBlockEntries: 2 });
  });

  it("nanMean leaves out nulls and NaN, and is NaN without values", () => {
    expect(nanMean([null, 1, 2, NaN])).toBe(1.5);
    expect(nanMean([null])).toBeNaN();
    expect(numpySum([0.1, 0.2, 0.3])).toBe(0.6000000000000001);
  });

  it.skipIf(!numpyAvailable)(
    "numpySum and nanMean equal numpy's sum and nanmean to the bit",
    () => {
      const random = createRandom(7);
      const arrays = [1, 7, 8, 9, 15, 16, 31, 97, 128, 129, 300, 1441].map((length) =>
        Array.from({ length }, (_, index) =>
          index % 11 === 3 ? null : random.uniform() * 10 ** (random.uniform() * 6),
        ),
      );
      const numpy = runPython(
        [
          "out = []",
          "for values in data:",
          "    a = np.array([np.nan if v is None else v for v in values], dtype=float)",
          "    out.append([float(np.sum(np.nan_to_num(a))), float(np.nanmean(a))])",
          "print(json.dumps(out))",
        ].join("\n"),
        arrays,
      ) as [number, number][];
      arrays.forEach((values, index) => {
        expect(numpySum(values.map((value) => value ?? 0))).toBe(numpy[index][0]);
        expect(nanMean(values)).toBe(numpy[index][1]);
      });
    },
  );
});

describe("insight conventions: venue windows and model outcomes", () => {
  it("daily windows run 17:00 UTC to 17:00 UTC and contain the time (half-open)", () => {
    expect(venueEventWindow("daily", unixOf("2026-02-25T23:45:17Z"))).toEqual({
      startUnix: unixOf("2026-02-25T17:00:00Z"),
      endUnix: unixOf("2026-02-26T17:00:00Z"),
    });
    expect(venueEventWindow("daily", unixOf("2026-02-25T16:59:59Z")).startUnix).toBe(
      unixOf("2026-02-24T17:00:00Z"),
    );
    expect(venueEventWindow("daily", unixOf("2026-02-25T17:00:00Z")).startUnix).toBe(
      unixOf("2026-02-25T17:00:00Z"),
    );
    expect(venueEventWindow("hourly", unixOf("2026-02-25T23:00:00Z")).endUnix).toBe(
      unixOf("2026-02-26T00:00:00Z"),
    );
  });

  it.skipIf(!capturedExists)(
    `venueEventWindow gives the captured event window of every captured Up/Down record${needs}`,
    () => {
      for (const window of ["daily", "hourly", "15min", "5min"] as VenueWindow[]) {
        for (const asset of ["BTC", "ETH", "SOL"]) {
          const record = readCaptured(`polymarket/up_down_${window}_${asset}.json`) as Record<
            string,
            string
          >;
          const expected = {
            startUnix: unixOf(record.event_start_time),
            endUnix: unixOf(record.event_end_time),
          };
          expect(venueEventWindow(window, unixOf(record.current_time))).toEqual(expected);
        }
      }
    },
  );

  it("daily windows use the 24h ensemble, intraday windows the 1h ensemble", () => {
    expect(VENUE_WINDOW_HORIZONS).toEqual({
      daily: "24h",
      hourly: "1h",
      "15min": "1h",
      "5min": "1h",
    });
  });

  it("model outcomes are UP / 1 at a probability of 0.5 or more", () => {
    expect(upDownOutcomeOf(0.5)).toBe("UP");
    expect(upDownOutcomeOf(0.4999)).toBe("DOWN");
    expect(binaryOutcomeOf(0.5)).toBe(1);
    expect(binaryOutcomeOf(0.0012)).toBe(0);
  });

  it("hit contracts touch upward above the current price and downward at or below it", () => {
    expect(hitDirection(70000, 67676.6)).toBe("up");
    expect(hitDirection(65000, 67676.6)).toBe("down");
    expect(hitDirection(67676.6, 67676.6)).toBe("down");
  });
});
