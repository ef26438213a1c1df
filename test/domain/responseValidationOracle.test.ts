/**
 * validateResponse against the validator's rules restated in Python (responseValidationOracle.py,
 * with numpy's float32), on generated prices of every magnitude and the shape edge cases, under
 * both format rules; skipped with a message when python3 with numpy is missing.
 */

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { roundPrice, roundToSignificantDigits } from "../../src/domain/priceFormat.ts";
import { parsePythonJson } from "../../src/domain/pythonJson.ts";
import {
  validateResponseUnderRule,
  type ValidationPrompt,
} from "../../src/domain/responseValidation.ts";
import { RandomStream } from "../../src/sandbox/world/randomStream.ts";
import { numpyAvailable } from "../reference/python.ts";
import { PRICE_PROBES } from "./priceProbes.ts";

const ORACLE = fileURLToPath(new URL("./responseValidationOracle.py", import.meta.url));
const START = 1784246400;
/** One path of three points. */
const SMALL: ValidationPrompt = {
  startTimeUnix: START,
  timeIncrement: 300,
  timeLength: 600,
  numSimulations: 1,
};

/** A response to SMALL whose first price is written as `priceText`. */
function withPrice(priceText: string): string {
  return `[${START}, 300, [${priceText}, 67676.12, 67676.13]]`;
}

/** Prices of every magnitude written as JSON, rounded several ways, plus the edge cases. */
function oracleCases(): {
  text: string;
  start: number;
  increment: number;
  length: number;
  paths: number;
}[] {
  const stream = new RandomStream(2026);
  const texts: string[] = PRICE_PROBES.map(([price]) => withPrice(price));
  for (let index = 0; index < 1500; index++) {
    const price = stream.uniform() * 10 ** (stream.integer(60) - 30);
    for (const variant of [
      price,
      roundPrice(price),
      roundToSignificantDigits(price, 9),
      Number(price.toPrecision(7)),
      Math.round(price),
      Math.fround(price),
    ]) {
      texts.push(withPrice(JSON.stringify(variant)));
    }
    const whole = Math.round(price);
    if (whole < 1e21) texts.push(withPrice(`${whole}.0`)); // a whole float, as Python writes it
  }
  const shapes = [
    "[]",
    "null",
    "{}",
    `[${START}]`,
    `[${START}.0, 300]`,
    `[true, 300]`,
    `[${START}, 300.0]`,
    `[${START}, 300]`,
    `[${START}, 300, [1, 2, 3], [4, 5, 6]]`,
    `[${START}, 300, {"a": 1}]`,
    `[${START}, 300, [1, 2]]`,
  ];
  return [...texts, ...shapes].map((text) => ({
    text,
    start: START,
    increment: 300,
    length: 600,
    paths: 1,
  }));
}

describe("validateResponse agrees with the validator's rules restated in Python", () => {
  it.skipIf(!numpyAvailable)(
    `on ${oracleCases().length} responses, under both rules${numpyAvailable ? "" : " [SKIPPED: python3 with numpy missing]"}`,
    () => {
      const cases = oracleCases();
      const stdout = execFileSync("python3", [ORACLE], {
        input: JSON.stringify({ cases }),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      const expected = JSON.parse(stdout) as [string, string][];
      const prompt: ValidationPrompt = { ...SMALL };
      for (let index = 0; index < cases.length; index++) {
        const response = parsePythonJson(cases[index].text);
        expect(
          [
            validateResponseUnderRule(response, prompt, "legacy"),
            validateResponseUnderRule(response, prompt, "v1.10.3"),
          ],
          cases[index].text,
        ).toEqual(expected[index]);
      }
    },
  );
});
