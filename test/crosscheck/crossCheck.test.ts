import { describe, expect, it } from "vitest";
import { crossCheck } from "../../src/crosscheck/crossCheck.ts";
import type { CrossCheckRow } from "../../src/crosscheck/verdicts.ts";
import { numberRule } from "../../src/crosscheck/fieldRules.ts";
import type { LiquidationRecord } from "../../src/domain/records/liquidation.ts";
import type { LpBoundsRecord } from "../../src/domain/records/lp.ts";

const N = 10000;

function liquidation(long6: number, forecastStart?: string): LiquidationRecord {
  return {
    ...(forecastStart === undefined ? {} : { forecast_start_time: forecastStart }),
    current_price: 68000,
    data: [
      {
        price_change: "1.0%",
        long_liquidation_probability: { "6": long6, "12": 0.5 },
        short_liquidation_probability: { "6": 0.48, "12": 0.6 },
      },
      {
        price_change: "2.0%",
        long_liquidation_probability: { "6": 0.13, "12": 0.24 },
        short_liquidation_probability: { "6": 0.18, "12": 0.32 },
      },
    ],
  };
}

function rowAt(rows: readonly CrossCheckRow[], path: string): CrossCheckRow {
  const row = rows.find((candidate) => candidate.path === path);
  if (row === undefined) throw new Error(`no row ${path} in ${rows.map((r) => r.path).join(", ")}`);
  return row;
}

function lpBounds(times: number[], shift = 0): LpBoundsRecord {
  return {
    current_price: 2000,
    data: times.map((time, index) => ({
      interval: {
        full_width: `${index + 1}.0%`,
        lower_bound: 2000 * (1 - (index + 1) / 200) + shift,
        upper_bound: 2000 * (1 + (index + 1) / 200) + shift,
      },
      expected_time_in_interval: time,
      expected_impermanent_loss: 0.01 / (index + 1),
      probability_to_stay_in_interval: { "24": 0.1 * index },
    })),
  };
}

describe("crossCheck verdicts", () => {
  const path = 'data[0].long_liquidation_probability["6"]';

  it("crossCheck calls a probability exact within one unit of its 4th decimal", () => {
    const same = crossCheck("/insights/liquidation", liquidation(0.4079), liquidation(0.408), {
      nPaths: N,
    });
    expect(rowAt(same.rows, path).verdict).toBe("exact");
    expect(same.summary.verdict).toBe("exact");
    expect(same.summary.counts.exact).toBe(same.rows.length);
    const apart = crossCheck("/insights/liquidation", liquidation(0.4079), liquidation(0.4081), {
      nPaths: N,
    });
    expect(rowAt(apart.rows, path).verdict).toBe("within-mc");
  });

  it("crossCheck allows 3 standard errors plus rounding for within-mc, and reports z", () => {
    const standardErrors = { [path]: 0.005 };
    const within = crossCheck("/insights/liquidation", liquidation(0.42), liquidation(0.406), {
      nPaths: N,
      standardErrors,
    });
    const row = rowAt(within.rows, path);
    expect(row.verdict).toBe("within-mc");
    expect(row.absoluteDifference).toBeCloseTo(0.014, 12);
    expect(row.standardError).toBe(0.005);
    expect(row.tolerance).toBeCloseTo(3 * 0.005 + 1e-4, 9);
    expect(row.z).toBeCloseTo(2.8, 9);
    expect(row.key).toBe("6");
    expect(row.field).toBe("data[].long_liquidation_probability{}");
    const beyond = crossCheck("/insights/liquidation", liquidation(0.4215), liquidation(0.406), {
      nPaths: N,
      standardErrors,
    });
    expect(rowAt(beyond.rows, path).verdict).toBe("mismatch");
    expect(beyond.summary.verdict).toBe("mismatch");
    expect(beyond.summary.maxAbsoluteZ).toBeCloseTo(3.1, 9);
  });

  it("crossCheck gives a probability the binomial standard error at nPaths when none is passed", () => {
    // p̄ = 0.5: SE = 0.005; 0.514 − 0.5 = 0.014 ≤ 0.0151 but 0.516 − 0.5 > it.
    const within = crossCheck("/insights/liquidation", liquidation(0.507), liquidation(0.493), {
      nPaths: N,
    });
    expect(rowAt(within.rows, path).standardError).toBeCloseTo(0.005, 6);
    expect(rowAt(within.rows, path).verdict).toBe("within-mc");
    const beyond = crossCheck("/insights/liquidation", liquidation(0.508), liquidation(0.492), {
      nPaths: N,
    });
    expect(rowAt(beyond.rows, path).verdict).toBe("mismatch");
  });

  it("crossCheck floors a probability's standard error at one path in nPaths, so 0 against 0.0002 is within-mc", () => {
    const check = crossCheck("/insights/liquidation", liquidation(0.0002), liquidation(0), {
      nPaths: N,
      standardErrors: { [path]: 0 },
    });
    expect(rowAt(check.rows, path).standardError).toBeCloseTo(Math.sqrt((0.0001 * 0.9999) / N), 12);
    expect(rowAt(check.rows, path).verdict).toBe("within-mc");
  });

  it("crossCheck reports keys and array elements present in one record only as missing", () => {
    const service = liquidation(0.41);
    const recomputed = liquidation(0.41);
    delete (service.data[0].long_liquidation_probability as Record<string, number>)["12"];
    recomputed.data[1].short_liquidation_probability["18"] = 0.4;
    const check = crossCheck("/insights/liquidation", service, recomputed, { nPaths: N });
    const missing = check.rows.filter((row) => row.verdict === "missing");
    expect(missing.map((row) => [row.path, row.serviceValue, row.recomputedValue])).toEqual([
      ['data[0].long_liquidation_probability["12"]', undefined, 0.5],
      ['data[1].short_liquidation_probability["18"]', undefined, 0.4],
    ]);
    expect(check.summary.counts.missing).toBe(2);
    expect(check.summary.verdict).toBe("missing");
    // Per record, the fields each side lacks.
    expect(check.summary.serviceLacks).toEqual([
      "data[].long_liquidation_probability{}",
      "data[].short_liquidation_probability{}",
    ]);
    expect(check.summary.recomputedLacks).toEqual([]);
    const reversed = crossCheck("/insights/liquidation", recomputed, service, { nPaths: N });
    expect(reversed.summary.serviceLacks).toEqual([]);
    expect(reversed.summary.recomputedLacks).toEqual(check.summary.serviceLacks);
  });

  it("crossCheck pairs liquidation scenarios by price_change, not by position", () => {
    const recomputed = liquidation(0.41);
    const service = { ...recomputed, data: [...recomputed.data].reverse() };
    const check = crossCheck("/insights/liquidation", service, recomputed, { nPaths: N });
    expect(check.summary.verdict).toBe("exact");
    expect(check.rows.filter((row) => row.field === "data[].price_change")).toHaveLength(2);
  });

  it("crossCheck compares unrounded numbers to 1e-9 relative and has no Monte-Carlo band without a standard error", () => {
    const recomputed = lpBounds([60, 200]);
    const close = lpBounds([60, 200]);
    close.data[0].expected_impermanent_loss *= 1 + 5e-10;
    expect(
      crossCheck("/insights/lp-bounds", close, recomputed, { nPaths: N }).summary.verdict,
    ).toBe("exact");
    const far = lpBounds([60, 200]);
    far.data[0].expected_impermanent_loss *= 1 + 1e-6;
    const check = crossCheck("/insights/lp-bounds", far, recomputed, { nPaths: N });
    const row = rowAt(check.rows, "data[0].expected_impermanent_loss");
    expect(row.verdict).toBe("mismatch");
    expect(Number.isNaN(row.standardError)).toBe(true);
    expect(Number.isNaN(row.z)).toBe(true);
  });

  it("crossCheck compares times as instants and skips a forecast_start_time the service omits", () => {
    const service = {
      current_price: 1,
      expiry_time: "2026-02-26 08:00:00Z",
      call_options: {},
      put_options: {},
    };
    const recomputed = {
      forecast_start_time: "2026-02-25T23:45:00+00:00",
      current_price: 1,
      expiry_time: "2026-02-26T08:00:00+00:00",
      call_options: {},
      put_options: {},
    };
    const check = crossCheck("/insights/option-pricing", service, recomputed, { nPaths: N });
    expect(check.rows.map((row) => [row.path, row.verdict])).toEqual([
      ["current_price", "exact"],
      ["expiry_time", "exact"],
    ]);
    expect(check.summary.serviceForecastStartTime).toBeUndefined();
    expect(check.summary.recomputedForecastStartTime).toBe("2026-02-25T23:45:00+00:00");
    expect(check.summary.serviceLacks).toEqual(["forecast_start_time"]);
    // from a service that writes it elsewhere, the lost comparison is a missing row
    const expected = crossCheck("/insights/option-pricing", service, recomputed, {
      nPaths: N,
      forecastStartTimeExpected: true,
    });
    expect(expected.rows.map((row) => [row.path, row.verdict])).toEqual([
      ["forecast_start_time", "missing"],
      ["current_price", "exact"],
      ["expiry_time", "exact"],
    ]);
    expect(expected.summary.counts.missing).toBe(1);
  });

  it("crossCheck compares only the model side of venue records and settles an outcome flipped at 0.5 as within-mc", () => {
    const service = {
      current_price: 68000,
      current_time: "2026-02-25T23:47:17+00:00",
      start_price: 67950,
      slug: "bitcoin-up-or-down-on-february-26",
      event_start_time: "2026-02-25T17:00:00+00:00",
      event_end_time: "2026-02-26T17:00:00+00:00",
      model_probability_up: 0.5012,
      model_outcome: "UP",
      venuea_probability_up: 0.41,
      best_bid_price: 0.4,
    };
    const recomputed = {
      forecast_start_time: "2026-02-25T23:45:00+00:00",
      current_price: 68000,
      current_time: "2026-02-25T23:47:17Z",
      start_price: 67950,
      event_start_time: "2026-02-25T17:00:00Z",
      event_end_time: "2026-02-26T17:00:00Z",
      model_probability_up: 0.4975,
      model_outcome: "DOWN",
    };
    const check = crossCheck("/insights/venuea/up-down/daily", service, recomputed, { nPaths: N });
    expect(check.rows.map((row) => row.path)).toEqual([
      "current_price",
      "current_time",
      "start_price",
      "event_start_time",
      "event_end_time",
      "model_probability_up",
      "model_outcome",
    ]);
    expect(rowAt(check.rows, "model_probability_up").verdict).toBe("within-mc");
    expect(rowAt(check.rows, "model_outcome").verdict).toBe("within-mc");
    const far = crossCheck(
      "/insights/venuea/up-down/daily",
      { ...service, model_probability_up: 0.6, model_outcome: "UP" },
      recomputed,
      { nPaths: N },
    );
    expect(rowAt(far.rows, "model_outcome").verdict).toBe("mismatch");
  });

  it("crossCheck pairs range-family markets by comparison type and reference prices", () => {
    const market = (cmp: string, refs: number[], p: number) => ({
      cmp_type: cmp,
      ref_prices: refs,
      model_probability: p,
      model_outcome: p >= 0.5 ? 1 : 0,
    });
    const service = [market("below", [58000], 0.01), market("range", [58000, 60000], 0.1)];
    const recomputed = [market("range", [58000, 60000], 0.1), market("below", [58000], 0.01)];
    const check = crossCheck("/insights/venuea/range/daily", service, recomputed, { nPaths: N });
    expect(check.summary.verdict).toBe("exact");
    expect(rowAt(check.rows, "[0].model_probability").serviceValue).toBe(0.1);
  });

  it("crossCheck treats null against a number as missing and null against null as exact", () => {
    const record = (values: (number | null)[]) => ({
      current_price: 1,
      realized: { prices: [], volatility: values, average_volatility: 50 },
      forecast_past: { volatility: [1], average_volatility: 1 },
      forecast_future: { volatility: [null], average_volatility: 1 },
    });
    const check = crossCheck("/insights/volatility", record([null, 40]), record([null, null]), {
      nPaths: N,
    });
    expect(rowAt(check.rows, "realized.volatility[0]").verdict).toBe("exact");
    expect(rowAt(check.rows, "realized.volatility[1]").verdict).toBe("missing");
  });

  it("crossCheck requires a positive integer nPaths and a positive sigmas", () => {
    expect(() => crossCheck("/insights/liquidation", {}, {}, { nPaths: 0 })).toThrow(
      "crossCheck requires options.nPaths to be a positive integer, got 0",
    );
    expect(() => crossCheck("/insights/liquidation", {}, {}, { nPaths: 10, sigmas: -1 })).toThrow(
      "crossCheck requires options.sigmas to be a positive number, got -1",
    );
  });

  it("numberRule follows the insight conventions' rounding", () => {
    expect(numberRule("/insights/liquidation", "data[].long_liquidation_probability{}")).toEqual({
      decimals: 4,
      probability: true,
    });
    expect(
      numberRule("/insights/lp-bounds", "data[].expected_time_in_interval").decimals,
    ).toBeUndefined();
    expect(numberRule("/insights/lp-bounds", "data[].expected_impermanent_loss").decimals).toBe(
      undefined,
    );
    expect(
      numberRule("/insights/prediction-percentiles", "forecast_future.percentiles[]{}").decimals,
    ).toBe(2);
    expect(
      numberRule("/insights/volatility", "realized.average_volatility").decimals,
    ).toBeUndefined();
    expect(numberRule("/insights/volatility", "realized.prices[].price").decimals).toBe(undefined);
    expect(numberRule("/insights/option-pricing", "call_options{}").decimals).toBe(undefined);
    expect(numberRule("/insights/venueb/daily", "[].model_probability_up").probability).toBe(true);
  });
});

describe("crossCheck diagnoses", () => {
  const minutes = [62.9165, 214.423, 438.8595, 667.3285, 880.1];

  for (const [ratio, label, service] of [
    [1 / 60, "1/60", minutes.map((value) => Math.round((value / 60) * 1e4) / 1e4)],
    [1 / 1440, "1/1440", minutes.map((value) => Math.round((value / 1440) * 1e4) / 1e4)],
    [60, "60", minutes.map((value) => Math.round(value * 60 * 1e4) / 1e4)],
  ] as const) {
    it(`diagnose names a constant ratio of ${label} on expected_time_in_interval a unit difference`, () => {
      const check = crossCheck("/insights/lp-bounds", lpBounds([...service]), lpBounds(minutes), {
        nPaths: N,
      });
      expect(check.summary.counts.mismatch).toBeGreaterThan(0);
      expect(check.diagnoses).toHaveLength(1);
      expect(check.diagnoses[0]).toMatchObject({
        kind: "unit",
        field: "data[].expected_time_in_interval",
        rows: 5,
        value: ratio,
      });
      expect(check.diagnoses[0].message).toContain(`× ${label} on all 5 values`);
    });
  }

  it("diagnose names a constant shift of the bounds", () => {
    const check = crossCheck("/insights/lp-bounds", lpBounds(minutes, 12.5), lpBounds(minutes), {
      nPaths: N,
    });
    const kinds = check.diagnoses.map((diagnosis) => [
      diagnosis.kind,
      diagnosis.field,
      diagnosis.value,
    ]);
    expect(kinds).toEqual([
      ["shift", "data[].interval.lower_bound", 12.5],
      ["shift", "data[].interval.upper_bound", 12.5],
    ]);
  });

  it("diagnose does not call differences within rounding or noise a ratio or a shift", () => {
    const noisy = minutes.map((value, index) => value + (index % 2 === 0 ? 0.3 : -0.4));
    const check = crossCheck("/insights/lp-bounds", lpBounds(noisy), lpBounds(minutes), {
      nPaths: N,
    });
    expect(check.diagnoses.filter((diagnosis) => diagnosis.kind !== "ensemble")).toEqual([]);
  });

  it("diagnose names keys that differ on both sides a different strike grid", () => {
    const record = (strikes: number[]) => ({
      current_price: 71181,
      expiry_time: "2026-02-26 08:00:00Z",
      call_options: Object.fromEntries(strikes.map((strike) => [String(strike), 100])),
      put_options: Object.fromEntries(strikes.map((strike) => [String(strike), 100])),
    });
    const check = crossCheck(
      "/insights/option-pricing",
      record([69000, 70000, 71000]),
      record([69500, 70000, 70500]),
      { nPaths: N },
    );
    const grids = check.diagnoses.filter((diagnosis) => diagnosis.kind === "grid");
    expect(grids.map((diagnosis) => diagnosis.field)).toEqual(["call_options{}", "put_options{}"]);
    expect(grids[0].message).toContain("a different strike grid");
    expect(grids[0].message).toContain("2 only in the service record (69000, 71000…)");
  });

  it("diagnose names a different forecast_start_time a different ensemble", () => {
    const check = crossCheck(
      "/insights/liquidation",
      liquidation(0.41, "2026-02-25T23:40:00+00:00"),
      liquidation(0.42, "2026-02-25T23:45:00+00:00"),
      { nPaths: N },
    );
    const ensemble = check.diagnoses.find((diagnosis) => diagnosis.kind === "ensemble");
    expect(ensemble?.message).toContain(
      "forecast_start_time differs (service 2026-02-25T23:40:00+00:00, recomputed 2026-02-25T23:45:00+00:00): a different ensemble",
    );
  });

  it("diagnose names a different current price", () => {
    const recomputed = liquidation(0.41);
    const check = crossCheck(
      "/insights/liquidation",
      { ...recomputed, current_price: 68100 },
      recomputed,
      { nPaths: N },
    );
    expect(check.diagnoses.map((diagnosis) => diagnosis.kind)).toEqual(["current-price"]);
  });
});
