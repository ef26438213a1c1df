import { describe, expect, it } from "vitest";
import { MARKET_PROFILES } from "../../../src/sandbox/world/marketProfiles.ts";
import { createMarkets } from "../../../src/sandbox/world/markets.ts";
import {
  hasAtMostEightSignificantDigits,
  pythonNumberText,
} from "../../../src/domain/priceFormat.ts";
import { createWorld, type Submission } from "../../../src/sandbox/world/world.ts";

const NOW = Date.UTC(2026, 10, 21, 10, 49) / 1000;
const SEED = 21;
const world = createWorld({ seed: SEED, nowUnix: NOW });
const markets = createMarkets(SEED, NOW);
const START_24H = world.latestPromptStart("BTC", "24h", NOW - 3600)!;
const START_1H = world.latestPromptStart("ETH", "1h", NOW - 3600)!;

function daily(uid: number, asset = "BTC", start = START_24H): Submission {
  return world.predictionSet(uid, asset, start, 300, 86400);
}

function hourly(uid: number, asset = "ETH", start = START_1H): Submission {
  return world.predictionSet(uid, asset, start, 60, 3600);
}

/** ln(S_T / S_0) of every path of a valid submission. */
function terminalLogReturns(submission: Submission): number[] {
  if (submission.status !== "valid")
    throw new Error(`expected a valid submission, got ${submission.status}`);
  const returns: number[] = [];
  for (let path = 0; path < submission.pathCount; path++) {
    const offset = path * submission.pointCount;
    returns.push(
      Math.log(submission.values![offset + submission.pointCount - 1] / submission.values![offset]),
    );
  }
  return returns;
}

function meanAndDeviation(values: number[]): { mean: number; deviation: number } {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance =
    values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, deviation: Math.sqrt(variance) };
}

describe("miners' submissions", () => {
  it("a valid submission has 1,000 paths of 289 (24h) or 61 (1h) points from the miner's spot, rounded to pass the validator", () => {
    for (const submission of [daily(47), hourly(47)]) {
      expect(submission.status).toBe("valid");
      if (submission.status !== "valid") continue;
      expect(submission.reason).toBe("CORRECT");
      expect(submission.pathCount).toBe(1000);
      expect(submission.pointCount).toBe(submission.timeLength === 86400 ? 289 : 61);
      const spot = world.priceAt(submission.asset, submission.startUnix);
      for (let path = 0; path < 1000; path++) {
        expect(submission.values![path * submission.pointCount]).toBe(spot);
      }
      expect(submission.values!.every(hasAtMostEightSignificantDigits)).toBe(true);
      expect(submission.values!.every((price) => price > 0)).toBe(true);
    }
  });

  it("every failure reason appears for its miner", () => {
    const timeout = daily(218);
    expect(timeout).toMatchObject({
      status: "invalid",
      reason: "time out or internal server error (process time is None)",
      values: undefined,
    });
    expect(hourly(23, "BTC", world.latestPromptStart("BTC", "1h", NOW - 3600)!)).toMatchObject({
      status: "invalid",
      reason: "Number of time points is incorrect: expected 61, got 60",
    });
    expect(daily(188, "XAU", world.latestPromptStart("XAU", "24h", NOW - 3600)!)).toMatchObject({
      status: "invalid",
      reason: "Number of time points is incorrect: expected 289, got 288",
      pointCount: 288,
    });
    expect(daily(99)).toMatchObject({
      status: "invalid",
      reason: "Number of paths is incorrect: expected 1000, got 999",
      pathCount: 999,
    });
    const digits = daily(85);
    expect(digits.status).toBe("invalid");
    if (digits.status === "invalid") {
      const first = digits.values!.find((price) => !hasAtMostEightSignificantDigits(price))!;
      expect(digits.reason).toBe(
        `Price format is incorrect: too many digits ${pythonNumberText(first, false)}`,
      );
    }
    const zero = hourly(31);
    expect(zero).toMatchObject({ status: "valid", reason: "CORRECT" });
    if (zero.status === "valid") {
      expect(zero.values!.filter((price) => price === 0)).toHaveLength(1);
    }
  });

  it("some miners fail the current price rules as real miners do; most stay valid", () => {
    const nine = hourly(7);
    expect(nine.status).toBe("invalid");
    if (nine.status === "invalid") {
      const first = nine.values!.find((price) => !hasAtMostEightSignificantDigits(price))!;
      expect(nine.reason).toBe(
        `Price format is incorrect: too many digits ${pythonNumberText(first, false)}`,
      );
    }
    const reasons = (uid: number, asset: string) =>
      world
        .promptStarts(asset, "24h", NOW - 3 * 86400, NOW - 3600)
        .map((start) => daily(uid, asset, start))
        .map((submission) => (submission.status === "absent" ? "absent" : submission.reason));
    const overflow = reasons(66, "BTC");
    const underflow = reasons(121, "XAU");
    for (const [found, problem] of [
      [overflow, "exceeds float32 range"],
      [underflow, "underflows float32"],
    ] as const) {
      const failed = found.filter((reason) => reason !== "CORRECT");
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.length / found.length).toBeLessThan(0.5);
      for (const reason of failed) {
        expect(reason).toMatch(new RegExp(`^Price format is incorrect: ${problem} \\d`));
      }
    }
  });

  it("the stale miner starts from the price of 90 minutes before the prompt", () => {
    const stale = daily(71);
    expect(stale.status).toBe("valid");
    if (stale.status === "valid") {
      expect(stale.values![0]).toBe(world.priceAt("BTC", START_24H - 90 * 60));
      expect(stale.values![0]).not.toBe(world.priceAt("BTC", START_24H));
    }
  });

  it("the copier sends exactly its source's paths", () => {
    const source = daily(47);
    const copy = daily(202);
    expect(copy.status).toBe("valid");
    if (copy.status === "valid" && source.status === "valid") {
      expect(copy.values).toBe(source.values); // the very array: bit for bit the same prices
      expect(copy.hotkey).not.toBe(source.hotkey);
    }
  });

  it("the spread and drift of the paths follow each miner's profile (σ√T from the market's regime)", () => {
    const volatility = markets.dailyVolatility("BTC", START_24H);
    const { jumpsPerDay, jumpSize } = MARKET_PROFILES.BTC;
    const years = 1 / 365;
    const expectations: [uid: number, dispersion: number, driftSigmasPerDay: number][] = [
      [47, 1, 0],
      [144, 0.6, 0],
      [129, 1.5, 0],
      [64, 1, -0.4],
    ];
    for (const [uid, dispersion, driftSigmasPerDay] of expectations) {
      const { mean, deviation } = meanAndDeviation(terminalLogReturns(daily(uid)));
      const sigma = volatility * dispersion;
      const expectedDeviation = Math.sqrt(
        sigma * sigma * years + jumpsPerDay * jumpSize * jumpSize,
      );
      const drift = driftSigmasPerDay * volatility * Math.sqrt(365);
      const expectedMean = (drift - (sigma * sigma) / 2) * years;
      // 5 standard errors: of a mean σ/√n, of a standard deviation ≈ σ/√(2n).
      expect(Math.abs(deviation - expectedDeviation)).toBeLessThan(
        5 * (expectedDeviation / Math.sqrt(2000)),
      );
      expect(Math.abs(mean - expectedMean)).toBeLessThan(5 * (expectedDeviation / Math.sqrt(1000)));
    }
  });

  it("the fat-tailed miner's steps have a far larger kurtosis than the calibrated miner's", () => {
    const kurtosis = (submission: Submission): number => {
      if (submission.status !== "valid") throw new Error("expected a valid submission");
      const steps: number[] = [];
      for (let path = 0; path < submission.pathCount; path++) {
        for (let point = 1; point < submission.pointCount; point++) {
          const offset = path * submission.pointCount + point;
          steps.push(Math.log(submission.values![offset] / submission.values![offset - 1]));
        }
      }
      const { mean, deviation } = meanAndDeviation(steps);
      return steps.reduce((sum, step) => sum + ((step - mean) / deviation) ** 4, 0) / steps.length;
    };
    expect(kurtosis(daily(50))).toBeGreaterThan(2 * kurtosis(daily(47)));
  });

  it("miners are absent for some prompts, and for the competitions they do not compete in", () => {
    let absent = 0;
    const starts = world.promptStarts("BTC", "1h", NOW - 86400, NOW);
    const everyFiveMinutes = Array.from({ length: 288 }, (_, index) => NOW - 86400 + index * 300);
    for (const start of everyFiveMinutes)
      if (hourly(235, "BTC", start).status === "absent") absent++;
    const rate = absent / everyFiveMinutes.length;
    expect(Math.abs(rate - 0.4)).toBeLessThan(5 * Math.sqrt((0.4 * 0.6) / everyFiveMinutes.length));
    expect(starts.length).toBeGreaterThan(0);
    expect(hourly(58, "BTC", starts[0]).status).toBe("absent"); // crypto-24h specialist
    expect(daily(1).status).toBe("absent"); // crypto-1h specialist
  });

  it("a prediction set of 1,000 × 289 prices is generated and validated for each of five miners", () => {
    // its speed is measured in bench/ (the sandbox suite: simulatePricePaths, one 24h set)
    const start = world.latestPromptStart("ETH", "24h", NOW - 7200)!;
    for (const uid of [47, 150, 144, 129, 91]) {
      const submission = daily(uid, "ETH", start);
      expect(submission, String(uid)).toMatchObject({ status: "valid", reason: "CORRECT" });
      if (submission.status !== "valid") continue;
      expect([submission.pathCount, submission.pointCount, submission.values?.length]).toEqual([
        1000,
        289,
        1000 * 289,
      ]);
    }
  });

  it("a prompt after the world's now is refused with the reason", () => {
    expect(() => world.predictionSet(47, "BTC", NOW + 300, 300, 86400)).toThrow(
      /predictionSet requires startUnix at or before the world's now \(2026-11-21T10:49:00Z\)/,
    );
    expect(() => world.predictionSet(47, "BTC", START_24H, 300, 3600)).toThrow(
      "predictionSet requires (timeIncrement, timeLength) (60, 3600) or (300, 86400), got (300, 3600)",
    );
  });
});
