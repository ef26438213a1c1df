/**
 * `auditSnapshot` on real records: the captured live responses (their findings asserted one by
 * one), deliberately broken copies of them (the fault named), and the embedded sandbox's records
 * over real HTTP, where every check, those between records included, must pass.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/client/create-client.ts";
import { auditSnapshot, type AuditSnapshot } from "../../src/crosscheck/audit.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { decode } from "../../src/domain/codec.ts";
import { liveNaming } from "../../src/domain/naming.ts";
import type { OperationPath } from "../../src/domain/operations.ts";
import { capturedExists, readCaptured } from "../domain/captured.ts";
import { SMALL_WORLD } from "../smallWorld.ts";

const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";

function captured(asset: string): AuditSnapshot {
  const read = <T>(operation: OperationPath, file: string): T | undefined => {
    try {
      return decode(operation, readCaptured(file), { naming: liveNaming }) as T;
    } catch {
      return undefined; // XAU has no option pricing file
    }
  };
  return {
    asset,
    records: {
      liquidation: read("/insights/liquidation", `liquidation/${asset}.json`),
      lpBounds: read("/insights/lp-bounds", `lp_bounds/${asset}.json`),
      lpProbabilities: read("/insights/lp-probabilities", `lp_probabilities/${asset}.json`),
      options: read("/insights/option-pricing", `option_pricing/${asset}.json`),
      percentiles: read(
        "/insights/prediction-percentiles",
        `prediction_percentiles/${asset}_24h.json`,
      ),
    },
  };
}

describe.skipIf(!capturedExists)(`audit of the captured live responses${needs}`, () => {
  it("BTC's option prices break put-call parity at four strikes; nothing else is found", () => {
    const btc = auditSnapshot(captured("BTC"));
    expect(
      btc.findings.map(({ check, field, size, tolerance }) => [check, field, size, tolerance]),
    ).toEqual([
      ["put-call parity: C − P + K the same at every strike", 'call_options["68000"]', 7, 2],
      ["put-call parity: C − P + K the same at every strike", 'call_options["69000"]', 3, 2],
      ["put-call parity: C − P + K the same at every strike", 'call_options["71000"]', 4, 2],
      ["put-call parity: C − P + K the same at every strike", 'call_options["73000"]', 3, 2],
    ]);
    for (const asset of ["ETH", "SOL", "XAU", "SPY", "NVDA", "GOOGL", "TSLA", "AAPL"]) {
      const report = auditSnapshot(captured(asset));
      expect(report.findings, asset).toEqual([]);
      expect(report.compared, asset).toBeGreaterThan(2500);
    }
  });

  it("BTC's monthly expiry lies 28 days beyond the 24 h its prices are simulated over, once the start is known", () => {
    // The responses were captured around 2026-02-25T23:45Z: the simulation ends 2026-02-26T23:45Z,
    // 28 days and 8¼ hours before the record's expiry 2026-03-27 08:00:00Z (February has 28 days).
    const btc = auditSnapshot({ ...captured("BTC"), forecastStartTime: "2026-02-25T23:45:00Z" });
    const expiry = btc.findings.filter(({ field }) => field === "expiry_time");
    expect(expiry.map(({ size, tolerance }) => [size, tolerance])).toEqual([[28 + 8.25 / 24, 0]]);
    expect(expiry[0].detail).toBe(
      "2026-03-27 08:00:00Z is 28.34 days after the simulation ends (2026-02-26T23:45:00Z): " +
        "priced from the 24h terminal distribution",
    );
    // The other assets' options expire at the next 08:00 UTC, inside the 24 h.
    expect(
      auditSnapshot({ ...captured("ETH"), forecastStartTime: "2026-02-25T23:45:00Z" }).findings,
    ).toEqual([]);
  });

  it("the checks between records are not made across snapshots, and say why", () => {
    expect(auditSnapshot(captured("BTC")).skipped).toEqual([
      "LP probabilities against the percentiles: other snapshots (current price 67676.62358575 and 71181)",
      "the options' forward against the percentiles: the forecast start is not known (the records do not give it)",
    ]);
  });

  it("names the fault of a broken record: a liquidation that falls with the window, a call that breaks parity", () => {
    const snapshot = captured("BTC");
    const liquidation = structuredClone(snapshot.records.liquidation!);
    liquidation.data[1].long_liquidation_probability["12"] = 0.1; // below the 6h value 0.1368
    const options = structuredClone(snapshot.records.options!);
    options.call_options["70000"] += 60;
    const report = auditSnapshot({ asset: "BTC", records: { liquidation, options } });
    const named = report.findings.map(({ check, field, size }) => [
      check,
      field,
      Number(size.toFixed(4)),
    ]);
    expect(named).toContainEqual([
      "liquidation rises with the window",
      'data[1].long_liquidation_probability["12"]',
      0.0368,
    ]);
    expect(named).toContainEqual([
      "put-call parity: C − P + K the same at every strike",
      'call_options["70000"]',
      60,
    ]);
    expect(named).toContainEqual(["prices convex in the strike", 'call_options["70000"]', 35]);
  });
});

describe("audit of the sandbox's records", () => {
  let sandbox: EmbeddedSandbox;
  beforeAll(async () => {
    sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: "2026-02-25T23:47:00Z" });
  }, 60_000);
  afterAll(async () => sandbox?.close());

  it("finds nothing, and makes every check between records", async () => {
    const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    try {
      for (const asset of ["BTC", "ETH", "SOL"] as const) {
        const [liquidation, lpBounds, lpProbabilities, options, percentiles] = await Promise.all([
          client.insights.liquidation({ asset }),
          client.insights.lpBounds({ asset }),
          client.insights.lpProbabilities({ asset }),
          client.insights.optionPricing({ asset }),
          client.insights.predictionPercentiles({ asset, horizon: "24h" }),
        ]);
        const report = auditSnapshot({
          asset,
          records: { liquidation, lpBounds, lpProbabilities, options, percentiles },
        });
        // BTC's options expire monthly (as live): from the forecast start 2026-02-25T23:30Z, the
        // simulation ends 2026-02-26T23:30Z, 28 days and 8½ hours before 2026-03-27 08:00:00Z.
        expect(
          report.findings.map(({ field, size }) => [field, size]),
          asset,
        ).toEqual(asset === "BTC" ? [["expiry_time", 28 + 8.5 / 24]] : []);
        // BTC options expire monthly (as live), beyond the percentiles' 24 h: that one check cannot run.
        expect(report.skipped, asset).toEqual(
          asset === "BTC"
            ? [
                expect.stringMatching(
                  /^the options' forward against the percentiles: the expiry \d{4}-\d\d-\d\d 08:00:00Z is not within the percentiles' 24 h/,
                ),
              ]
            : [],
        );
        expect(report.compared, asset).toBeGreaterThan(2500);
      }
    } finally {
      await client.close();
    }
  }, 120_000);
});
