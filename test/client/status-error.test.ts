import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  PathlabHttpError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
} from "../../src/client/errors.ts";
import { errorForStatus, truncateBody } from "../../src/client/status-error.ts";

const operation = "/v2/leaderboard/latest";

describe("errorForStatus", () => {
  it("errorForStatus maps each status class to its error type", () => {
    const cases = [
      [400, BadRequestError],
      [404, BadRequestError],
      [418, BadRequestError],
      [422, BadRequestError],
      [401, AuthenticationError],
      [403, AuthenticationError],
      [402, PaymentRequiredError],
      [429, RateLimitError],
      [500, ServerError],
      [503, ServerError],
      [599, ServerError],
    ] as const;
    for (const [status, type] of cases) {
      const error = errorForStatus({ operation, status, bodyText: "b" });
      expect(error).toBeInstanceOf(type);
      expect(error.name).toBe(type.name);
      expect(error.status).toBe(status);
    }
  });

  it("errorForStatus names the operation, status, meaning, wait and body", () => {
    const error = errorForStatus({ operation, status: 429, bodyText: "slow", retryAfterMs: 1500 });
    expect(error.message).toBe(
      '/v2/leaderboard/latest: HTTP 429 (rate limited, Retry-After 1500 ms): "slow"',
    );
    expect(error.retryAfterMs).toBe(1500);
    expect(errorForStatus({ operation, status: 500, bodyText: "" }).message).toBe(
      "/v2/leaderboard/latest: HTTP 500 (server error): empty body",
    );
  });

  it("errorForStatus reports a redirect with its target, as the client does not follow it", () => {
    const error = errorForStatus({
      operation,
      status: 301,
      bodyText: "",
      location: "https://api.example.com/v2/leaderboard/latest",
    });
    expect(error.constructor).toBe(PathlabHttpError);
    expect(error.message).toBe(
      "/v2/leaderboard/latest: HTTP 301 (unexpected status; redirected to " +
        "https://api.example.com/v2/leaderboard/latest, which the client does not follow): empty body",
    );
  });
});

describe("truncateBody", () => {
  it("truncateBody keeps short text and cuts long text with a count", () => {
    expect(truncateBody("abc", 4)).toBe("abc");
    expect(truncateBody("abcd", 4)).toBe("abcd");
    expect(truncateBody("abcdef", 4)).toBe("abcd… (2 more characters)");
    expect(truncateBody("z".repeat(501))).toBe(`${"z".repeat(500)}… (1 more character)`);
  });
});
