import { describe, expect, it } from "vitest";
import { decode, encode } from "../../src/domain/codec.ts";
import { liveNaming, neutralNaming } from "../../src/domain/naming.ts";
import { capturedExists, capturedFiles, readCaptured } from "./captured.ts";

const files = capturedFiles();
/** Appended to the name of every test that needs the captured files, so a skip says why. */
const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";

describe("captured responses of the live deployment", () => {
  it.skipIf(!capturedExists)(
    `the captured folder holds all 83 captured JSON files, each mapped to an operation${needs}`,
    () => {
      expect(files.length).toBe(83);
    },
  );

  for (const file of files) {
    it(`${file.name} decodes through ${file.operation} with liveNaming and survives a round trip`, () => {
      const record = decode(file.operation, file.json, { naming: liveNaming });
      const wire = encode(file.operation, record as never, { naming: liveNaming });
      const reparsed: unknown = JSON.parse(JSON.stringify(wire));
      expect(decode(file.operation, reparsed, { naming: liveNaming })).toEqual(record);
      // The neutral encoding round-trips too.
      const neutral = encode(file.operation, record as never, { naming: neutralNaming });
      expect(decode(file.operation, neutral)).toEqual(record);
    });
  }

  it.skipIf(!capturedExists)(
    `an Up/Down record normalizes outcomes and venue naming (polymarket/up_down_daily_BTC.json)${needs}`,
    () => {
      const json = readCaptured("polymarket/up_down_daily_BTC.json") as Record<string, unknown>;
      const record = decode("/insights/venuea/up-down/daily", json, { naming: liveNaming });
      expect(json.synth_outcome).toBe("Down");
      expect(record.model_outcome).toBe("DOWN");
      expect(record.venuea_probability_up).toBe(json.polymarket_probability_up);
      expect(record.venuea_probability_up).toBe(0.395);
      expect(record.model_probability_up).toBe(json.synth_probability_up);
      expect(record.venuea_last_trade_outcome).toBe("UP");
      expect(record).not.toHaveProperty("polymarket_probability_up");
      expect(record).not.toHaveProperty("forecast_start_time");
      const wire = encode("/insights/venuea/up-down/daily", record, { naming: liveNaming });
      // Written back in the live spelling too, as captured.
      expect(wire).toMatchObject({ polymarket_probability_up: 0.395, synth_outcome: "Down" });
      expect(encode("/insights/venuea/up-down/daily", record)).toMatchObject({
        model_outcome: "DOWN",
      });
    },
  );

  it.skipIf(!capturedExists)(
    `range-family cmp_type lower/between/higher become below/range/above (polymarket/range.json)${needs}`,
    () => {
      const json = readCaptured("polymarket/range.json") as Record<string, unknown>[];
      const records = decode("/insights/venuea/range/daily", json, { naming: liveNaming });
      expect(records.map((record) => record.cmp_type)).toEqual(
        json.map((entry) =>
          entry.cmp_type === "lower" ? "below" : entry.cmp_type === "higher" ? "above" : "range",
        ),
      );
      expect(records[0]).toMatchObject({ title: "<58000", cmp_type: "below", ref_prices: [58000] });
      expect(records[10]).toMatchObject({
        title: ">76000",
        cmp_type: "above",
        ref_prices: [76000],
      });
      expect(records[5].model_probability).toBe(json[5].synth_probability);
      expect(records[5].venuea_outcome).toBe(1);
    },
  );

  it.skipIf(!capturedExists)(
    `liquidation values are read as written (liquidation/BTC.json)${needs}`,
    () => {
      const record = decode("/insights/liquidation", readCaptured("liquidation/BTC.json"), {
        naming: liveNaming,
      });
      expect(record.data).toHaveLength(10);
      expect(record.data[0].price_change).toBe("1.0%");
      expect(record.data[0].long_liquidation_probability["12"]).toBe(0.5154);
    },
  );

  it.skipIf(!capturedExists)(
    `the live naming is required for live venue records: neutral naming names the missing field and hints${needs}`,
    () => {
      expect(() =>
        decode("/insights/venuea/up-down/daily", readCaptured("polymarket/up_down_daily_BTC.json")),
      ).toThrow(
        /: model_probability_up: expected number in \[0,1\] \(found "synth_probability_up"/,
      );
    },
  );
});
