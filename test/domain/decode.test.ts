import { describe, expect, it } from "vitest";
import {
  arrayOf,
  booleanCodec,
  decodeWith,
  finiteNumberArrayCodec,
  finiteNumberCodec,
  formatJsonPath,
  integerCodec,
  mapOf,
  nullable,
  nullableFiniteNumberArrayCodec,
  numberCodec,
  objectOf,
  optional,
  PRICE_KEYS,
  probabilityCodec,
  stringCodec,
  timeCodec,
  type Codec,
} from "../../src/domain/decode.ts";
import { DecodeError } from "../../src/domain/errors.ts";
import { liveNaming, neutralNaming } from "../../src/domain/naming.ts";
import { predictionSetsCodec } from "../../src/domain/records/prediction-set.ts";

function run<T>(codec: Codec<T>, value: unknown, naming = neutralNaming): T {
  return decodeWith("/op", codec, value, naming);
}

function message<T>(codec: Codec<T>, value: unknown, naming = neutralNaming): string {
  try {
    run(codec, value, naming);
  } catch (error) {
    if (error instanceof DecodeError) return error.message;
    throw error;
  }
  throw new Error("decoded without error");
}

describe("formatJsonPath", () => {
  it("formatJsonPath writes identifiers with dots, indexes and other keys in brackets", () => {
    expect(formatJsonPath(["data", 3, "long_liquidation_probability", "12"])).toBe(
      'data[3].long_liquidation_probability["12"]',
    );
    expect(formatJsonPath([2, "ref_prices", 0])).toBe("[2].ref_prices[0]");
    expect(formatJsonPath(["data", "24h", "probability_above", "6.5"])).toBe(
      'data["24h"].probability_above["6.5"]',
    );
    expect(formatJsonPath(["a key", 'q"uote'])).toBe('["a key"]["q\\"uote"]');
    expect(formatJsonPath([])).toBe("$");
  });
});

describe("primitive codecs", () => {
  it("numberCodec rejects NaN and non-numbers, accepts infinities", () => {
    expect(run(numberCodec, -1.5)).toBe(-1.5);
    expect(run(numberCodec, Infinity)).toBe(Infinity);
    expect(message(numberCodec, NaN)).toBe("/op: $: expected number, got NaN");
    expect(message(numberCodec, "1")).toBe('/op: $: expected number, got "1"');
  });

  it("finiteNumberCodec rejects NaN, ±Infinity, strings, null and booleans", () => {
    expect(run(finiteNumberCodec, 0)).toBe(0);
    for (const bad of [NaN, Infinity, -Infinity, "3", null, true, undefined]) {
      expect(() => run(finiteNumberCodec, bad)).toThrow(DecodeError);
    }
    expect(message(finiteNumberCodec, -Infinity)).toBe(
      "/op: $: expected finite number, got -Infinity",
    );
    expect(message(finiteNumberCodec, undefined)).toBe(
      "/op: $: expected finite number, got missing",
    );
  });

  it("probabilityCodec accepts exactly [0,1]", () => {
    expect(run(probabilityCodec, 0)).toBe(0);
    expect(run(probabilityCodec, 1)).toBe(1);
    for (const bad of [-Number.MIN_VALUE, 1 + Number.EPSILON, NaN, "0.5", Infinity]) {
      expect(() => run(probabilityCodec, bad)).toThrow("expected number in [0,1]");
    }
  });

  it("integerCodec rejects fractions and numeric strings", () => {
    expect(run(integerCodec, -3)).toBe(-3);
    expect(message(integerCodec, 2.5)).toBe("/op: $: expected integer, got 2.5");
    expect(message(integerCodec, "2")).toBe('/op: $: expected integer, got "2"');
  });

  it("stringCodec and booleanCodec accept only their type", () => {
    expect(run(stringCodec, "")).toBe("");
    expect(message(stringCodec, 1)).toBe("/op: $: expected string, got 1");
    expect(run(booleanCodec, false)).toBe(false);
    expect(message(booleanCodec, "true")).toBe('/op: $: expected boolean, got "true"');
  });

  it("timeCodec accepts the interface's ISO forms and keeps them as written", () => {
    for (const text of [
      "2026-02-25T23:45:17.526606+00:00",
      "2026-03-27 08:00:00Z",
      "2026-02-25T23:27:00Z",
      "2026-02-25T23:27:00",
      "2026-02-25",
    ]) {
      expect(run(timeCodec, text)).toBe(text);
    }
    for (const bad of ["2026-02-25T24:00:00Z", "yesterday", "2026-13-01", 1772063117, ""]) {
      expect(() => run(timeCodec, bad)).toThrow("expected ISO 8601 time");
    }
  });
});

describe("combinators", () => {
  const row = objectOf<{ id: number; label?: string; score: number | null }>({
    id: integerCodec,
    label: optional(stringCodec),
    score: nullable(finiteNumberCodec),
  });

  it("objectOf ignores unknown fields, omits absent optional ones and reports missing required ones", () => {
    expect(run(row, { id: 1, score: null, extra: "ignored" })).toEqual({ id: 1, score: null });
    expect(run(row, { id: 1, score: 2, label: "x" })).toEqual({ id: 1, score: 2, label: "x" });
    expect(message(row, { score: 1 })).toBe("/op: id: expected integer, got missing");
    expect(message(row, [])).toBe("/op: $: expected object, got array(0)");
    expect(message(row, null)).toBe("/op: $: expected object, got null");
    expect(row.encode({ id: 1, score: null }, neutralNaming)).toEqual({ id: 1, score: null });
  });

  it("nullable says null was also acceptable", () => {
    expect(message(row, { id: 1, score: "2" })).toBe(
      '/op: score: expected finite number or null, got "2"',
    );
  });

  it("objectOf reads and writes the naming's prefixes", () => {
    const record = objectOf<{
      venuea_probability: number;
      model_outcome: string;
      market_x: number;
    }>({
      venuea_probability: probabilityCodec,
      model_outcome: stringCodec,
      market_x: integerCodec,
    });
    const wire = { polymarket_probability: 0.25, synth_outcome: "Up", market_x: 3 };
    const decoded = run(record, wire, liveNaming);
    expect(decoded).toEqual({ venuea_probability: 0.25, model_outcome: "Up", market_x: 3 });
    expect(record.encode(decoded, liveNaming)).toEqual(wire);
    expect(record.encode(decoded, neutralNaming)).toEqual({
      venuea_probability: 0.25,
      model_outcome: "Up",
      market_x: 3,
    });
  });

  it("arrayOf tracks indexes and mapOf checks keys", () => {
    const prices = mapOf(PRICE_KEYS, arrayOf(probabilityCodec));
    expect(run(prices, { "1.5": [0, 1] })).toEqual({ "1.5": [0, 1] });
    expect(message(prices, { "1.5": [0, 2] })).toBe(
      '/op: ["1.5"][1]: expected number in [0,1], got 2',
    );
    expect(message(prices, { abc: [] })).toBe('/op: abc: expected key decimal price, got "abc"');
  });

  it("number arrays are checked element by element and copied", () => {
    const input = [1, 2, 3];
    const output = run(finiteNumberArrayCodec, input);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
    expect(message(finiteNumberArrayCodec, [1, NaN])).toBe(
      "/op: [1]: expected finite number, got NaN",
    );
    expect(run(nullableFiniteNumberArrayCodec, [null, 2])).toEqual([null, 2]);
    expect(message(nullableFiniteNumberArrayCodec, [null, "2"])).toBe(
      '/op: [1]: expected finite number or null, got "2"',
    );
  });
});

describe("prediction sets", () => {
  function predictionSet(paths: number, points: number): unknown[] {
    const predictions: number[][] = [];
    for (let path = 0; path < paths; ++path) {
      const values = new Array<number>(points);
      for (let point = 0; point < points; ++point) values[point] = 67000 + path + point / 1000;
      predictions.push(values);
    }
    return [{ miner_uid: 47, start_time: 1772063100, predictions }];
  }

  it("a prediction set with paths of different lengths is rejected at the short path", () => {
    const json = predictionSet(3, 5) as { predictions: number[][] }[];
    json[0].predictions[2].pop();
    expect(message(predictionSetsCodec, json)).toBe(
      "/op: [0].predictions[2]: expected 5 points like predictions[0], got array(4)",
    );
    (json[0].predictions[1] as unknown[])[3] = "67000";
    expect(message(predictionSetsCodec, json)).toBe(
      '/op: [0].predictions[1][3]: expected finite number, got "67000"',
    );
  });

  it("decodes a prediction set of 1000 × 289 numbers, every one as given", () => {
    // its speed is measured in bench/ (the ingest suite's decoder case)
    const json = predictionSet(1000, 289) as { predictions: number[][] }[];
    const decoded = run(predictionSetsCodec, json);
    expect(decoded[0].predictions[999][288]).toBe(67000 + 999 + 0.288);
    expect(decoded[0].predictions).toEqual(json[0].predictions);
  });
});
