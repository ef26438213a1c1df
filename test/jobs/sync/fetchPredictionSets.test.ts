/**
 * Reading prediction sets from bytes in the jobs: a clean body is taken as parsed, a body the fast
 * reading does not take is handed back whole for the general decoding, and the paths given to the
 * validator's response checks give the reasons that `JSON.parse`'s reading of the same text gives.
 */

import { describe, expect, it } from "vitest";
import { DecodeAsUsual } from "../../../src/client/streamed-decoder.ts";
import {
  predictionSetsDecoder,
  validatorPaths,
} from "../../../src/jobs/sync/fetchPredictionSets.ts";
import { parsePredictionSetBytes } from "../../../src/paths/predictionBytes.ts";
import { JsonNumberPrices, validateResponse } from "../../../src/domain/responseValidation.ts";

const PROMPT = { timeIncrement: 300, timeLength: 600, nPaths: 2 };
const START = 1772063100;

/** Feeds `text` to a fresh decoding in chunks of `size` bytes. */
function decode(text: string, size: number, maxSets = 1) {
  const bytes = new TextEncoder().encode(text);
  const decoding = predictionSetsDecoder(PROMPT, {}, maxSets).start();
  for (let start = 0; start < bytes.length; start += size) {
    decoding.push(bytes.subarray(start, start + size));
  }
  return { bytes, result: decoding.finish() };
}

const body = (paths: string) =>
  `[{"miner_uid": 17, "start_time": ${START}, "predictions": ${paths}}]`;

describe("predictionSetsDecoder", () => {
  it("takes a clean body as parsed sets", () => {
    const { result } = decode(body("[[100, 101.5, 102.25], [100, 99.5, 98]]"), 7);
    expect(result).not.toBeInstanceOf(DecodeAsUsual);
    const { parsed } = result as Exclude<typeof result, DecodeAsUsual>;
    expect(parsed).toHaveLength(1);
    expect(Array.from(parsed[0].values)).toEqual([100, 101.5, 102.25, 100, 99.5, 98]);
  });

  it.each([
    ["a path one point short", body("[[100, 101.5], [100, 99.5, 98]]")],
    ["a zero price", body("[[100, 0, 102.25], [100, 99.5, 98]]")],
    ["a price that is null", body("[[100, null, 102.25], [100, 99.5, 98]]")],
    ["a NaN price (Python's word)", body("[[100, NaN, 102.25], [100, 99.5, 98]]")],
    ["a miner_uid that is a string", body("[[100, 101, 102], [100, 99, 98]]").replace("17", '"x"')],
    ["text that is not JSON", body("[[100, 101, 102], [100, 99, 98]]").slice(0, 60)],
    [
      "NaN outside the prices",
      body("[[100, 101, 102], [100, 99, 98]]").replace("}", ', "x": NaN}'),
    ],
    [
      "two sets where one miner was asked for",
      body("[[1, 2, 3], [1, 2, 3]]").replace("}]", "},{}]"),
    ],
  ])("hands back %s whole, byte for byte, for the general decoding", (_case, text) => {
    for (const size of [1, 5, 4096]) {
      const { bytes, result } = decode(text, size);
      expect(result).toBeInstanceOf(DecodeAsUsual);
      expect(Buffer.from((result as DecodeAsUsual).body).equals(Buffer.from(bytes))).toBe(true);
    }
  });
});

it("refuses a prompt that is not made of positive integers before any request", () => {
  expect(() => predictionSetsDecoder({ timeIncrement: 0, timeLength: 600 })).toThrow(
    "predictionSetsDecoder requires a positive integer timeIncrement, got 0",
  );
});

describe("validatorPaths", () => {
  // Whole prices written as ints and as floats, with 8 and 9 digits: the legacy rule counts the
  // characters of each price's text as an int or a float, which the reading decides.
  const texts = [
    "[[12345678, 12345679, 12345680], [12345678, 12345679.5, 12345680]]",
    "[[12345678.0, 12345679, 12345680], [12345678, 12345679, 12345680]]",
    "[[80000.0, 80001.25, 80002], [80000, 80001, 80002.0]]",
    "[[80000.5, 80001.25, 80002.125], [80000.5, 80001.5, 80002.5]]",
    "[[91234.5678, 80001, 80002], [80000, 80001, 80002]]",
    "[[1e22, 80001, 80002], [80000, 80001, 80002]]",
    "[[123456789, 80001, 80002], [80000, 80001, 123456789.0]]",
  ];
  const legacy = { at: START, eraSettings: { responseFormatFromUnix: Infinity } };
  const current = { at: START, eraSettings: { responseFormatFromUnix: 0 } };

  it.each(texts)("gives the validator's reason that JSON.parse's reading gives: %s", (paths) => {
    const text = body(paths);
    const [parsed] = parsePredictionSetBytes(new TextEncoder().encode(text), PROMPT);
    const [record] = JSON.parse(text) as { predictions: unknown[] }[];
    const prompt = { startTimeUnix: START, timeIncrement: 300, timeLength: 600, numSimulations: 2 };
    for (const options of [legacy, current]) {
      const expected = validateResponse([START, 300, ...record.predictions], prompt, options);
      const got = validateResponse([START, 300, ...validatorPaths(parsed)], prompt, options);
      expect(got).toBe(expected);
    }
  });

  it("keeps each path as a view of the values, not a copy", () => {
    const [parsed] = parsePredictionSetBytes(
      new TextEncoder().encode(body("[[1.5, 2.5, 3.5], [1.5, 2, 3.5]]")),
      PROMPT,
    );
    const [first, second] = validatorPaths(parsed);
    expect(first).toBeInstanceOf(JsonNumberPrices);
    expect(first.values.buffer).toBe(parsed.values.buffer);
    expect([...second.values]).toEqual([1.5, 2, 3.5]);
  });
});
