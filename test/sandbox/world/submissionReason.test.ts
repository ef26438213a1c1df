import { describe, expect, it } from "vitest";
import {
  CORRECT_REASON,
  submissionReason,
  TIMEOUT_REASON,
} from "../../../src/sandbox/world/submissionReason.ts";

function filled(count: number, price = 100.5): Float64Array {
  return new Float64Array(count).fill(price);
}

describe("submissionReason", () => {
  it("submissionReason accepts a well-formed submission", () => {
    expect(submissionReason(filled(1000 * 289), 1000, 289, 1000, 289)).toBe(CORRECT_REASON);
  });

  it("submissionReason reports the validator's messages, first failure first", () => {
    expect(submissionReason(filled(0), 0, 0, 1000, 289)).toBe("Response is empty");
    expect(submissionReason(filled(999 * 288), 999, 288, 1000, 289)).toBe(
      "Number of paths is incorrect: expected 1000, got 999",
    );
    expect(submissionReason(filled(1000 * 288), 1000, 288, 1000, 289)).toBe(
      "Number of time points is incorrect: expected 289, got 288",
    );
    const digits = filled(1000 * 61);
    digits[70] = 2.123456789;
    digits[80] = 3.123456789;
    expect(submissionReason(digits, 1000, 61, 1000, 61)).toBe(
      "Price format is incorrect: too many digits 2.123456789",
    );
  });

  it("submissionReason does not check positivity: a zero price passes validation", () => {
    const values = filled(1000 * 61);
    values[5] = 0;
    expect(submissionReason(values, 1000, 61, 1000, 61)).toBe(CORRECT_REASON);
  });

  it("submissionReason names the shape mistake of its caller", () => {
    expect(() => submissionReason(filled(10), 1000, 289, 1000, 289)).toThrow(
      "submissionReason requires pathCount × pointCount = 289000 values, got 10",
    );
  });

  it("the time-out reason is the validator's text", () => {
    expect(TIMEOUT_REASON).toBe("time out or internal server error (process time is None)");
  });
});
