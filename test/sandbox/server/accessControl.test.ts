import { describe, expect, it } from "vitest";
import {
  createAccessControl,
  type AccessRequest,
} from "../../../src/sandbox/server/accessControl.ts";

const base: AccessRequest = {
  auth: true,
  credits: true,
  authorization: "Apikey sk-one",
  remoteAddress: "127.0.0.1",
  nowMs: 1_000_000,
};

describe("createAccessControl", () => {
  it("answers 401 for a missing, malformed or unknown key, without echoing it", () => {
    const access = createAccessControl({ apiKeys: ["sk-one"] });
    const missing = access.admit({ ...base, authorization: undefined });
    expect(missing.status).toBe(401);
    expect(missing.status === 401 && missing.reason).toMatch(/^missing API key/);
    const malformed = access.admit({ ...base, authorization: "Bearer sk-one" });
    expect(malformed.status === 401 && malformed.reason).toMatch(/^malformed Authorization header/);
    const wrong = access.admit({ ...base, authorization: "Apikey sk-secret-guess" });
    expect(wrong.status === 401 && wrong.reason).toMatch(/^invalid API key/);
    expect(JSON.stringify(wrong)).not.toContain("sk-secret-guess");
    expect(access.admit({ ...base, authorization: "apikey  sk-one " }).status).toBe(200);
  });

  it("lets public operations through without a key", () => {
    const access = createAccessControl({ apiKeys: ["sk-one"] });
    const verdict = access.admit({
      ...base,
      auth: false,
      credits: false,
      authorization: undefined,
    });
    expect(verdict.status).toBe(200);
  });

  it("consumes one credit per successful credit request, refunds failures, then answers 402", () => {
    const access = createAccessControl({ apiKeys: ["sk-one", "sk-two"], credits: { "sk-one": 2 } });
    const first = access.admit(base);
    if (first.status !== 200) throw new Error("expected admission");
    first.settle(true);
    expect(first.headers).toMatchObject({
      "x-credits-limit": "2",
      "x-credits-remaining": "1",
      "x-credits-used": "1",
    });
    const failed = access.admit(base);
    if (failed.status !== 200) throw new Error("expected admission");
    failed.settle(false); // a 400 or 500 costs nothing
    expect(access.creditsRemaining("sk-one")).toBe(1);
    const last = access.admit(base);
    if (last.status !== 200) throw new Error("expected admission");
    last.settle(true);
    const refused = access.admit(base);
    expect(refused.status).toBe(402);
    expect(refused.status === 402 && refused.reason).toMatch(
      /^out of credits: this key's 2 credits/,
    );
    // Operations without credits still answer, and other keys have their own (default) credits.
    expect(access.admit({ ...base, credits: false }).status).toBe(200);
    expect(access.admit({ ...base, authorization: "Apikey sk-two" }).status).toBe(200);
    expect(access.creditsRemaining("sk-two")).toBe(999_999);
  });

  it("rate-limits per key in fixed windows, with Retry-After and the remaining count", () => {
    const access = createAccessControl({
      apiKeys: ["sk-one", "sk-two"],
      rateLimit: { requests: 2, windowMs: 1000 },
    });
    const at = (nowMs: number, key = "sk-one") =>
      access.admit({ ...base, credits: false, authorization: `Apikey ${key}`, nowMs });
    expect(at(0).headers["x-ratelimit-remaining"]).toBe("1");
    expect(at(100).headers["x-ratelimit-remaining"]).toBe("0");
    const limited = at(400);
    expect(limited.status).toBe(429);
    expect(limited.headers).toMatchObject({
      "retry-after": "1",
      "retry-after-ms": "600",
      "x-ratelimit-limit": "2",
      "x-ratelimit-reset": "1",
    });
    expect(at(400, "sk-two").status).toBe(200); // another key, another window
    expect(at(1000).status).toBe(200); // a new window
  });

  it("rejects configurations that cannot work", () => {
    expect(() => createAccessControl({ apiKeys: [] })).toThrow(/at least one API key/);
    expect(() => createAccessControl({ apiKeys: ["has space"] })).toThrow(/visible ASCII/);
    expect(() => createAccessControl({ apiKeys: ["k"], credits: -1 })).toThrow(/whole numbers ≥ 0/);
    expect(() =>
      createAccessControl({ apiKeys: ["k"], rateLimit: { requests: 0, windowMs: 1 } }),
    ).toThrow(/requests ≥ 1/);
  });
});
