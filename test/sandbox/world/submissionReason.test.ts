import { describe, expect, it } from "vitest";
import {
  CORRECT_REASON,
  submissionReason,
  TIMEOUT_REASON,
} from "../../../src/sandbox/world/submissionReason.ts";

function filled(count: number, price = 100.5): Float64Array {
  return new Float64Array(count).fill(price);
}

/** A 24h prompt after v1.10.3 (2026-07-16), a 1h prompt, and a 1h prompt before it. */
const DAILY = {
  startTimeUnix: Date.UTC(2026, 10, 21) / 1000,
  timeIncrement: 300,
  timeLength: 86400,
};
const HOURLY = { ...DAILY, timeIncrement: 60, timeLength: 3600 };
const HOURLY_LEGACY = { ...HOURLY, startTimeUnix: Date.UTC(2026, 5, 1) / 1000 };

describe("submissionReason", () => {
  it("submissionReason accepts a well-formed submission", () => {
    expect(submissionReason(filled(1000 * 289), 1000, 289, DAILY)).toBe(CORRECT_REASON);
  });

  it("submissionReason reports the validator's messages, first failure first", () => {
    expect(submissionReason(filled(0), 0, 0, DAILY)).toBe("Response is empty");
    expect(submissionReason(filled(999 * 288), 999, 288, DAILY)).toBe(
      "Number of paths is incorrect: expected 1000, got 999",
    );
    expect(submissionReason(filled(1000 * 288), 1000, 288, DAILY)).toBe(
      "Number of time points is incorrect: expected 289, got 288",
    );
    const digits = filled(1000 * 61);
    digits[70] = 2.123456789;
    digits[80] = 3.123456789;
    expect(submissionReason(digits, 1000, 61, HOURLY)).toBe(
      "Price format is incorrect: too many digits 2.123456789",
    );
  });

  it("submissionReason applies the format rule of the prompt's start: v1.10.3 from 2026-07-16", () => {
    const values = filled(1000 * 61);
    values[70] = 0.51234567;
    expect(submissionReason(values, 1000, 61, HOURLY)).toBe(CORRECT_REASON);
    expect(submissionReason(values, 1000, 61, HOURLY_LEGACY)).toBe(
      "Price format is incorrect: too many digits 0.51234567",
    );
    values[80] = 8.0123457e44;
    expect(submissionReason(values, 1000, 61, HOURLY)).toBe(
      "Price format is incorrect: exceeds float32 range 8.0123457e+44",
    );
    values[80] = 100.5;
    values[75] = 3.1234568e-54;
    expect(submissionReason(values, 1000, 61, HOURLY)).toBe(
      "Price format is incorrect: underflows float32 3.1234568e-54",
    );
  });

  it("the prices are Python floats, as a Python miner sends them: 12345678.0 fails the legacy rule", () => {
    const values = filled(1000 * 61, 12345678);
    expect(submissionReason(values, 1000, 61, HOURLY)).toBe(CORRECT_REASON);
    expect(submissionReason(values, 1000, 61, HOURLY_LEGACY)).toBe(
      "Price format is incorrect: too many digits 12345678.0",
    );
  });

  it("submissionReason does not check positivity: a zero price passes validation", () => {
    const values = filled(1000 * 61);
    values[5] = 0;
    expect(submissionReason(values, 1000, 61, HOURLY)).toBe(CORRECT_REASON);
  });

  it("submissionReason names the shape mistake of its caller", () => {
    expect(() => submissionReason(filled(10), 1000, 289, DAILY)).toThrow(
      "submissionReason requires pathCount × pointCount = 289000 values, got 10",
    );
  });

  it("the time-out reason is the validator's text", () => {
    expect(TIMEOUT_REASON).toBe("time out or internal server error (process time is None)");
  });
});
