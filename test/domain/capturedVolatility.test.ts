/**
 * The realized volatility rules of the insight conventions, checked against the live service: every
 * captured volatility record's `realized.volatility` and `realized.average_volatility` are
 * recomputed from its own `realized.prices`, by the reference and by the fast core, and must equal
 * the live values exactly (after the record's 2-decimal rounding).
 */
import { describe, expect, it } from "vitest";
import { realizedEntryVolatilities } from "../../src/core/volatility.ts";
import { realizedEntryVolatility } from "../../src/reference/volatility.ts";
import {
  VOLATILITY_DECIMALS,
  VOLATILITY_LAYOUTS,
  nanMean,
  roundTo,
} from "../../src/domain/insightConventions.ts";
import type { VolatilityRecord } from "../../src/domain/records/volatility.ts";
import { capturedExists, capturedFiles } from "./captured.ts";

const volatilityFiles = capturedFiles().filter((file) => file.operation === "/insights/volatility");

function rounded(values: ArrayLike<number>): (number | null)[] {
  return Array.from(values, (value) =>
    Number.isFinite(value) ? roundTo(value, VOLATILITY_DECIMALS) : null,
  );
}

describe.skipIf(!capturedExists)("captured live volatility records", () => {
  it("there are 13 of them, 9 of 24h and 4 of 1h", () => {
    expect(volatilityFiles.map((file) => file.name.replace(/^.*_/, ""))).toEqual(
      expect.arrayContaining(["24h.json", "1h.json"]),
    );
    expect(volatilityFiles).toHaveLength(13);
  });

  it.each(volatilityFiles.map((file) => [file.name, file] as const))(
    "%s: realized volatility and its average recomputed from the listed prices equal the live ones",
    (name, file) => {
      const record = file.json as VolatilityRecord;
      const layout = VOLATILITY_LAYOUTS[name.includes("_1h") ? "1h" : "24h"];
      const returns = record.realized.prices.map((entry) => entry.returns);
      const reference = realizedEntryVolatility(
        returns,
        layout.realizedBlockEntries,
        layout.pointCount,
      );
      const core = realizedEntryVolatilities(
        Float64Array.from(returns, (value) => value ?? NaN),
        layout.realizedBlockEntries,
        layout.pointCount,
      );
      expect(rounded(reference)).toEqual(record.realized.volatility);
      expect(rounded(core)).toEqual(record.realized.volatility);
      expect(nanMean(record.realized.volatility)).toBe(record.realized.average_volatility);
      expect(record.forecast_future.volatility).toHaveLength(layout.pointCount);
      expect(record.forecast_past.volatility).toHaveLength(layout.pointCount);
    },
  );
});
