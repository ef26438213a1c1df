import { describe, expect, it } from "vitest";
import { rangeCompetitions } from "../../src/jobs/score/rangePrompts.ts";
import { DEFAULT_ERA_SETTINGS, ERA_DATES, validatorEraAt } from "../../src/domain/eras.ts";

/** Unix seconds of a UTC time, written out (not read from the table under test). */
const at = (iso: string) => Date.parse(iso) / 1000;

describe("validatorEraAt (DOMAIN.md §3b)", () => {
  it("February 2026: two competitions × 0.5 (shares add up to 1), p90, the old 1h gaps, the owner burn, the legacy format", () => {
    const era = validatorEraAt(at("2026-02-20T12:00:00Z"));
    expect(
      era.competitions.map((c) => [c.name, c.rewardShare, c.softmaxBeta, c.windowDays]),
    ).toEqual([
      ["low", 0.5, -0.1, 10],
      ["high", 0.5, -0.2, 3],
    ]);
    expect(era.competitions.reduce((sum, c) => sum + c.rewardShare, 0)).toBe(1);
    expect(era.promptScoreRule).toBe("legacy-p90");
    expect(era.gapsFirstChangeOnly).toBe(false);
    expect(era.ownerBurn).toBe(true);
    expect(era.responseFormat).toBe("legacy");
    expect(era.volatilityCrps).toBe(false);
    expect(era.sinceUnix).toBe(-Infinity);
  });

  it("each change takes effect at its instant, not a second earlier", () => {
    const cases: [string, (time: number) => unknown, unknown, unknown][] = [
      ["2026-03-11T00:00:00Z", (t) => validatorEraAt(t).gapsFirstChangeOnly, false, true],
      ["2026-06-23T00:00:00Z", (t) => validatorEraAt(t).competitions.length, 2, 3],
      ["2026-07-16T00:00:00Z", (t) => validatorEraAt(t).promptScoreRule, "legacy-p90", "current"],
      ["2026-07-23T00:00:00Z", (t) => validatorEraAt(t).ownerBurn, true, false],
    ];
    for (const [instant, read, before, after] of cases) {
      expect(read(at(instant) - 1), `just before ${instant}`).toEqual(before);
      expect(read(at(instant)), `at ${instant}`).toEqual(after);
    }
    expect(ERA_DATES).toEqual({
      gapsFixed: at("2026-03-11T00:00:00Z"),
      threeCompetitions: at("2026-06-23T00:00:00Z"),
      p95Fill: at("2026-07-16T00:00:00Z"),
      sp500ReplacesSpyx: at("2026-07-23T00:00:00Z"),
    });
  });

  it("three competitions × 1/3 from 2026-06-23; com-equ-24h pools SPYX until 2026-07-23, then SP500", () => {
    const june = validatorEraAt(at("2026-07-01T00:00:00Z"));
    expect(
      june.competitions.map((c) => [c.name, c.rewardShare, c.softmaxBeta, c.windowDays]),
    ).toEqual([
      ["crypto-1h", 1 / 3, -0.3, 5],
      ["crypto-24h", 1 / 3, -0.15, 10],
      ["com-equ-24h", 1 / 3, -0.15, 10],
    ]);
    const equities = (time: number) =>
      validatorEraAt(time).competitions.find((c) => c.name === "com-equ-24h")!.assets!;
    expect(equities(at("2026-07-22T23:59:59Z"))).toContain("SPYX");
    expect(equities(at("2026-07-22T23:59:59Z"))).not.toContain("SP500");
    expect(equities(at("2026-07-23T00:00:00Z"))).toContain("SP500");
    expect(equities(at("2026-07-23T00:00:00Z"))).not.toContain("SPYX");
  });

  it("the undated changes are settings: the outlier cap, the volatility CRPS, the format rule, VHFT", () => {
    const july = at("2026-07-20T00:00:00Z");
    expect(
      validatorEraAt(july, { outlierCapFromUnix: at("2026-08-01T00:00:00Z") }).promptScoreRule,
    ).toBe("p95");
    expect(validatorEraAt(july, { outlierCapFromUnix: null }).promptScoreRule).toBe("p95");
    expect(validatorEraAt(july).promptScoreRule).toBe("current");
    const late = at("2026-11-20T00:00:00Z");
    expect(validatorEraAt(late).volatilityCrps).toBe(
      DEFAULT_ERA_SETTINGS.volatilityCrpsFromUnix !== null,
    );
    expect(validatorEraAt(late, { volatilityCrpsFromUnix: null }).volatilityCrps).toBe(false);
    expect(validatorEraAt(late, { responseFormatFromUnix: null }).responseFormat).toBe("legacy");
    expect(validatorEraAt(late, { responseFormatFromUnix: 0 }).responseFormat).toBe("v1.10.3");
    expect(validatorEraAt(late).vhft).toBe(false);
    expect(validatorEraAt(late, { vhft: true }).vhft).toBe(true);
    expect(validatorEraAt(late, { volatilityCrpsFromUnix: at("2026-11-19T00:00:00Z") }).label).toBe(
      "since 2026-11-19: crypto-1h, crypto-24h, com-equ-24h × 1/3; p95 fill, 10 × median cap; format v1.10.3; crypto-1h volatility CRPS",
    );
    expect(validatorEraAt(at("2026-02-20T12:00:00Z")).label).toBe(
      "from the start: low, high × 0.5; p90 cap; 1h gaps as ordinary intervals; format legacy; owner burn",
    );
  });

  it("rejects a time that is not Unix seconds", () => {
    expect(() => validatorEraAt(Date.parse("2026-07-20T00:00:00Z"))).toThrow(
      /validatorEraAt requires a time in Unix seconds, got 1784505600000 \(milliseconds\? divide by 1000\)/,
    );
    expect(() => validatorEraAt(Number.NaN)).toThrow(
      "validatorEraAt requires a time in Unix seconds, got NaN",
    );
  });
});

describe("rangeCompetitions", () => {
  it("a February range scores low and high, each × 0.5, under the names the user asks for", () => {
    const from = at("2026-02-20T00:00:00Z");
    const to = at("2026-02-21T00:00:00Z");
    const all = rangeCompetitions(from, to, ["crypto-1h", "crypto-24h", "com-equ-24h"], {});
    expect(all.map((c) => [c.name, c.parameters.rewardShare, c.timeLength])).toEqual([
      ["low", 0.5, 86400],
      ["high", 0.5, 3600],
    ]);
    expect(rangeCompetitions(from, to, ["crypto-1h"], {}).map((c) => c.name)).toEqual(["high"]);
    expect(rangeCompetitions(from, to, ["com-equ-24h"], {}).map((c) => c.name)).toEqual(["low"]);
    // low pooled every 24h prompt, crypto and equities alike.
    expect(all[0].assets).toEqual(expect.arrayContaining(["BTC", "XAU", "SPYX"]));
  });

  it("a range across 2026-06-23 scores both eras' competitions; across 2026-07-23 both SPYX and SP500 may be pooled", () => {
    const names = rangeCompetitions(
      at("2026-06-22T00:00:00Z"),
      at("2026-06-24T00:00:00Z"),
      ["crypto-1h"],
      {},
    ).map((c) => c.name);
    expect(names).toEqual(["high", "crypto-1h"]);
    // By the prompts' scored times (start + length): a 1h range ending hours before 2026-06-23
    // is all high; a 24h range starting on 06-22 at noon is scored after the change.
    const names1h = (from: string, to: string) =>
      rangeCompetitions(at(from), at(to), ["crypto-1h"], {}).map((c) => c.name);
    expect(names1h("2026-06-22T00:00:00Z", "2026-06-22T06:00:00Z")).toEqual(["high"]);
    expect(names1h("2026-06-22T22:30:00Z", "2026-06-22T23:30:00Z")).toEqual(["high", "crypto-1h"]);
    expect(
      rangeCompetitions(
        at("2026-06-22T12:00:00Z"),
        at("2026-06-22T13:00:00Z"),
        ["crypto-24h"],
        {},
      ).map((c) => c.name),
    ).toEqual(["crypto-24h"]);
    const [equities] = rangeCompetitions(
      at("2026-07-21T00:00:00Z"),
      at("2026-07-24T00:00:00Z"),
      ["com-equ-24h"],
      {},
    );
    expect(equities.assets).toEqual(expect.arrayContaining(["SPYX", "SP500"]));
    expect(equities.parameters.assets).not.toContain("SPYX");
  });
});
