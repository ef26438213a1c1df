import { describe, expect, it } from "vitest";
import { createFaultPlan, type FaultDecision } from "../../../src/sandbox/server/faults.ts";
import { parseFaults } from "../../../src/sandbox/server/parseFaults.ts";

function decisions(plan: ReturnType<typeof createFaultPlan>, path: string, count: number) {
  const out: FaultDecision[] = [];
  for (let index = 0; index < count; ++index) out.push(plan.decide(path, path));
  return out;
}

describe("createFaultPlan", () => {
  it("fires an every-n trigger on exactly the n-th, 2n-th, … matching request", () => {
    const plan = createFaultPlan([{ serverError: { every: 3 } }], 42);
    const fired = decisions(plan, "/v2/leaderboard/latest", 9).map((d) => d.status !== undefined);
    expect(fired).toEqual([false, false, true, false, false, true, false, false, true]);
  });

  it("draws probabilities deterministically from the seed, at about the requested rate", () => {
    const rate = (seed: number) =>
      decisions(createFaultPlan([{ truncate: 0.2 }], seed), "/x", 5000).map((d) => d.body);
    const first = rate(42);
    expect(rate(42)).toEqual(first);
    expect(rate(43)).not.toEqual(first);
    const share = first.filter((body) => body === "truncate").length / first.length;
    // Binomial(5000, 0.2): standard deviation √(0.2·0.8/5000) ≈ 0.0057; allow 4 of them.
    expect(Math.abs(share - 0.2)).toBeLessThan(4 * Math.sqrt((0.2 * 0.8) / 5000));
  });

  it("answers the first `length` of every `every` matching requests with 429 and its wait", () => {
    const plan = createFaultPlan(
      [{ rateLimitBurst: { length: 2, every: 5, retryAfterMs: 70 } }],
      1,
    );
    const codes = decisions(plan, "/x", 10).map((d) => d.status?.code);
    expect(codes).toEqual([
      429,
      429,
      undefined,
      undefined,
      undefined,
      429,
      429,
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      createFaultPlan([{ rateLimitBurst: { length: 1 } }], 1).decide("/x", "/x").status,
    ).toEqual({ code: 429, retryAfterMs: 1000 });
  });

  it("matches globs against the served or the neutral path, and counts per rule", () => {
    const plan = createFaultPlan(
      [
        { path: "/insights/venuea/*", serverError: 1 },
        { path: "/v2/prediction/*", latencyMs: 30 },
      ],
      7,
    );
    expect(
      plan.decide("/insights/polymarket/range", "/insights/venuea/range").status,
    ).toBeDefined();
    expect(plan.decide("/insights/liquidation", "/insights/liquidation")).toEqual({ latencyMs: 0 });
    expect(
      plan.decide("/v2/prediction/metamodel/historical", "/v2/prediction/metamodel/historical"),
    ).toEqual({ latencyMs: 30 });
    const regex = createFaultPlan([{ path: /^\/v2\/prediction\/best$/, nanPrice: 1 }], 7);
    expect(regex.decide("/v2/prediction/best", "/v2/prediction/best").shape).toBe("nanPrice");
    expect(regex.decide("/v2/prediction/latest", "/v2/prediction/latest").shape).toBeUndefined();
  });

  it("adds the latencies of every matching rule and lets the first firing fault of a kind win", () => {
    const plan = createFaultPlan(
      [
        { latencyMs: 10, malformedJson: 1, missingField: 1 },
        { latencyMs: 5, truncate: 1, nanPrice: 1, serverError: 1 },
      ],
      3,
    );
    const decision = plan.decide("/x", "/x");
    expect(decision.latencyMs).toBe(15);
    expect(decision.body).toBe("malformedJson");
    expect(decision.shape).toBe("missingField");
    expect([500, 502, 503]).toContain(decision.status?.code);
  });

  it("rejects impossible rules, naming the rule and the field", () => {
    expect(() => createFaultPlan([{}, { serverError: 1.5 }], 1)).toThrow(
      "createFaultPlan: rule 1: serverError must be a probability in [0, 1], got 1.5",
    );
    expect(() => createFaultPlan([{ truncate: { every: 0 } }], 1)).toThrow(/truncate.every/);
    expect(() => createFaultPlan([{ latencyMs: -1 }], 1)).toThrow(/latencyMs/);
    expect(() => createFaultPlan([{ rateLimitBurst: { length: 3, every: 2 } }], 1)).toThrow(
      /every must be an integer ≥ length \(3\), got 2/,
    );
  });
});

describe("parseFaults", () => {
  it("reads the format of pathlab serve --faults", () => {
    expect(
      parseFaults("5xx=0.2,429burst=3,truncate=0.05,latency=50ms,path=/v2/prediction/*"),
    ).toEqual([
      {
        path: "/v2/prediction/*",
        serverError: 0.2,
        rateLimitBurst: { length: 3 },
        truncate: 0.05,
        latencyMs: 50,
      },
    ]);
    expect(
      parseFaults(
        " nan=every:3 ; path=re:^/insights/, latency=1.5s, malformed=1, shortpaths=0, missingfield=every:2, 429burst=1, 429every=4, retryafter=20",
      ),
    ).toEqual([
      { nanPrice: { every: 3 } },
      {
        path: /^\/insights\//,
        latencyMs: 1500,
        malformedJson: 1,
        shortPaths: 0,
        missingField: { every: 2 },
        rateLimitBurst: { length: 1, every: 4, retryAfterMs: 20 },
      },
    ]);
    expect(parseFaults("  ")).toEqual([]);
  });

  it("names the rule, the item, what was expected and what was got", () => {
    expect(() => parseFaults("latency=5ms;5xx=2")).toThrow(
      'parseFaults: rule 2, item "5xx=2": expected a probability in [0, 1] or every:<n> (n a whole number ≥ 1), got "2"',
    );
    expect(() => parseFaults("slow=1")).toThrow(/expected a key among path, latency/);
    expect(() => parseFaults("latency=fast")).toThrow(/expected a duration such as 50ms/);
    expect(() => parseFaults("5xx")).toThrow(/expected key=value, got "5xx"/);
    expect(() => parseFaults("5xx=0.1,5xx=0.2")).toThrow(/each key once per rule/);
    expect(() => parseFaults("429every=3")).toThrow(/need 429burst/);
    expect(() => parseFaults("429burst=3,429every=2")).toThrow(/429every ≥ 429burst \(3\), got 2/);
    expect(() => parseFaults("path=re:(")).toThrow(/valid regular expression/);
  });
});
