import { describe, expect, it } from "vitest";
import { readCredits, readRateLimit } from "../../src/client/quota-headers.ts";

const now = Date.UTC(2026, 1, 25, 23, 45, 0);

describe("readRateLimit", () => {
  it("readRateLimit reads x-ratelimit-* with a reset in seconds from now", () => {
    const headers = {
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "42",
      "x-ratelimit-reset": "30",
    };
    expect(readRateLimit(headers, now)).toEqual({
      limit: 100,
      remaining: 42,
      resetAtMs: now + 30_000,
      observedAtMs: now,
    });
  });

  it("readRateLimit reads a reset given as Unix seconds or Unix milliseconds", () => {
    const resetSeconds = Math.floor(now / 1000) + 60;
    expect(readRateLimit({ "ratelimit-reset": String(resetSeconds) }, now)?.resetAtMs).toBe(
      resetSeconds * 1000,
    );
    expect(readRateLimit({ "x-rate-limit-reset": String(now + 5) }, now)?.resetAtMs).toBe(now + 5);
  });

  it("readRateLimit reads the structured RateLimit header of both IETF drafts", () => {
    expect(readRateLimit({ ratelimit: "limit=10, remaining=3, reset=7" }, now)).toEqual({
      limit: 10,
      remaining: 3,
      resetAtMs: now + 7000,
      observedAtMs: now,
    });
    const draft08 = { ratelimit: '"default";r=5;t=2', "ratelimit-policy": '"default";q=50;w=60' };
    expect(readRateLimit(draft08, now)).toEqual({
      limit: 50,
      remaining: 5,
      resetAtMs: now + 2000,
      policy: '"default";q=50;w=60',
      observedAtMs: now,
    });
  });

  it("readRateLimit takes the first window of a list and the first of a repeated header", () => {
    const headers = {
      "x-ratelimit-limit": "100, 1000;w=3600",
      "x-ratelimit-remaining": ["9", "8"],
    };
    expect(readRateLimit(headers, now)).toEqual({ limit: 100, remaining: 9, observedAtMs: now });
  });

  it("readRateLimit returns undefined when no rate-limit header is present", () => {
    expect(readRateLimit({ "content-type": "application/json" }, now)).toBeUndefined();
    expect(readRateLimit({ "x-ratelimit-remaining": "lots" }, now)).toBeUndefined();
  });
});

describe("readCredits", () => {
  it("readCredits reads remaining, allowance and this request's cost", () => {
    const headers = {
      "x-credits-remaining": "120",
      "x-credits-limit": "500",
      "x-credits-used": "2",
    };
    expect(readCredits(headers, now)).toEqual({
      remaining: 120,
      limit: 500,
      used: 2,
      observedAtMs: now,
    });
    expect(readCredits({ "credits-remaining": "7.5" }, now)).toEqual({
      remaining: 7.5,
      observedAtMs: now,
    });
  });

  it("readCredits returns undefined when no credit header is present", () => {
    expect(readCredits({ "x-ratelimit-remaining": "3" }, now)).toBeUndefined();
  });
});
