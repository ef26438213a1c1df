import { describe, expect, it } from "vitest";
import { DEFAULT_ERA_SETTINGS, ERA_DATES } from "../../src/domain/eras.ts";
import { roundPrice, roundToSignificantDigits } from "../../src/domain/priceFormat.ts";
import { parsePythonJson, PythonFloat } from "../../src/domain/pythonJson.ts";
import {
  validateResponse,
  validateResponseUnderRule,
  type ValidationPrompt,
} from "../../src/domain/responseValidation.ts";
import { RandomStream } from "../../src/sandbox/world/randomStream.ts";
import { PRICE, PRICE_PROBES } from "./priceProbes.ts";

const V1_10_3 = Number(DEFAULT_ERA_SETTINGS.responseFormatFromUnix);
const BEFORE = V1_10_3 - 86400;
const AFTER = V1_10_3 + 86400;
const START = 1784246400;
const PROMPT_24H: ValidationPrompt = {
  startTimeUnix: START,
  timeIncrement: 300,
  timeLength: 86400,
};
/** One path of three points: enough for every price check. */
const SMALL: ValidationPrompt = {
  startTimeUnix: START,
  timeIncrement: 300,
  timeLength: 600,
  numSimulations: 1,
};

/** The reasons under the legacy rule (before v1.10.3) and the v1.10.3 rule (after), by date. */
function reasons(json: string, prompt: ValidationPrompt = SMALL): [string, string] {
  const response = parsePythonJson(json);
  return [
    validateResponse(response, prompt, { at: BEFORE }),
    validateResponse(response, prompt, { at: AFTER }),
  ];
}

/** A response to SMALL whose first price is written as `priceText`. */
function withPrice(priceText: string): string {
  return `[${START}, 300, [${priceText}, 67676.12, 67676.13]]`;
}

describe("validateResponse: the prices, under both format rules", () => {
  it.each(PRICE_PROBES)("price %s: legacy %s, v1.10.3 %s", (price, legacy, current) => {
    expect(reasons(withPrice(price))).toEqual([legacy, current]);
  });

  it("an int beyond float64 is too many digits under both rules, printed whole", () => {
    const huge = `1${"0".repeat(400)}`;
    expect(reasons(withPrice(huge))).toEqual([
      `${PRICE} too many digits ${huge}`,
      `${PRICE} too many digits ${huge}`,
    ]);
  });

  it("the rule changes at the v1.10.3 release (2026-07-16), and a setting can move or remove it", () => {
    expect(V1_10_3).toBe(ERA_DATES.p95Fill);
    const response = parsePythonJson(withPrice("0.51234567"));
    expect(validateResponse(response, SMALL, { at: V1_10_3 - 1 })).toBe(
      `${PRICE} too many digits 0.51234567`,
    );
    expect(validateResponse(response, SMALL, { at: V1_10_3 })).toBe("CORRECT");
    const never = { responseFormatFromUnix: null };
    expect(validateResponse(response, SMALL, { at: AFTER, eraSettings: never })).toBe(
      `${PRICE} too many digits 0.51234567`,
    );
  });

  it("the first failing price wins, in scan order", () => {
    const json = `[${START}, 300, [67676.12, 1e39, 67676.1234]]`;
    expect(reasons(json)).toEqual([
      `${PRICE} too many digits 67676.1234`,
      `${PRICE} exceeds float32 range 1e+39`,
    ]);
  });

  it("Float64Array paths hold Python floats: whole values print with .0", () => {
    const path = Float64Array.of(12345678, 67676.12, 67676.13);
    const response = [START, 300, path];
    expect(validateResponseUnderRule(response, SMALL, "legacy")).toBe(
      `${PRICE} too many digits 12345678.0`,
    );
    expect(validateResponseUnderRule(response, SMALL, "v1.10.3")).toBe("CORRECT");
    path[1] = 91234.5678;
    expect(validateResponseUnderRule(response, SMALL, "v1.10.3")).toBe(
      `${PRICE} too many digits 91234.5678`,
    );
  });

  it("plain numbers follow JSON.stringify: whole values are ints, PythonFloat marks a whole float", () => {
    const asInt = [START, 300, [12345678, 1, 2]];
    const asFloat = [START, 300, [new PythonFloat(12345678), 1, 2]];
    expect(validateResponseUnderRule(asInt, SMALL, "legacy")).toBe("CORRECT");
    expect(validateResponseUnderRule(asFloat, SMALL, "legacy")).toBe(
      `${PRICE} too many digits 12345678.0`,
    );
  });
});

/** A full 24h response: 1000 paths of 289 prices. */
function fullResponse(paths = 1000, points = 289): unknown[] {
  const path = Array.from({ length: points }, (_, index) => 67000 + index / 4);
  return [START, 300, ...Array.from({ length: paths }, () => path.slice())];
}

describe("validateResponse: the response's shape, first failure wins", () => {
  const both = (response: unknown, prompt = PROMPT_24H) => [
    validateResponse(response, prompt, { at: BEFORE }),
    validateResponse(response, prompt, { at: AFTER }),
  ];

  it("a well-formed response is CORRECT under both rules", () => {
    expect(both(fullResponse())).toEqual(["CORRECT", "CORRECT"]);
  });

  it("each reason of DOMAIN.md §1, identical under both rules", () => {
    const cases: [unknown, string][] = [
      [undefined, "time out or internal server error (process time is None)"],
      [null, "Response is empty"],
      [[], "Response is empty"],
      [
        { start: START },
        "Response format is incorrect: expected tuple or list, got <class 'dict'>",
      ],
      ["[1, 2]", "Response format is incorrect: expected tuple or list, got <class 'str'>"],
      [[START + 0.5, 300], "Start time format is incorrect: expected int, got <class 'float'>"],
      [
        [new PythonFloat(START), 300],
        "Start time format is incorrect: expected int, got <class 'float'>",
      ],
      [[String(START), 300], "Start time format is incorrect: expected int, got <class 'str'>"],
      [[START], "error during validation"],
      [[START, "300"], "Time increment format is incorrect: expected int, got <class 'str'>"],
      [[START, null], "Time increment format is incorrect: expected int, got <class 'NoneType'>"],
      [
        [START + 60, 300],
        `Start time timestamp is incorrect: expected ${START}, got ${START + 60}`,
      ],
      [[true, 300], `Start time timestamp is incorrect: expected ${START}, got True`],
      [[START, 60], "Time increment is incorrect: expected 300, got 60"],
      [[START, 300], "Number of paths is incorrect: expected 1000, got 0"],
      [fullResponse(999), "Number of paths is incorrect: expected 1000, got 999"],
      [fullResponse(1000, 288), "Number of time points is incorrect: expected 289, got 288"],
    ];
    for (const [response, reason] of cases) {
      expect(both(response), JSON.stringify(response)?.slice(0, 80)).toEqual([reason, reason]);
    }
    const notList = fullResponse();
    notList[500] = { price: 1 };
    expect(both(notList)).toEqual(
      Array(2).fill("Path format is incorrect: expected list, got <class 'dict'>"),
    );
  });

  it("legacy checks path by path; v1.10.3 checks every path's shape before any price", () => {
    const response = fullResponse();
    (response[2] as number[])[5] = 67676.1234;
    (response[700] as number[]).pop();
    expect(both(response)).toEqual([
      `${PRICE} too many digits 67676.1234`,
      "Number of time points is incorrect: expected 289, got 288",
    ]);
  });

  it("the path count and the points come from the prompt: 1h prompts have 61 points", () => {
    const hourly = { startTimeUnix: START, timeIncrement: 60, timeLength: 3600 };
    const response = [START, 60, ...Array.from({ length: 1000 }, () => Array(60).fill(1.5))];
    expect(both(response, hourly)).toEqual(
      Array(2).fill("Number of time points is incorrect: expected 61, got 60"),
    );
  });
});

describe("roundPrice and the rules", () => {
  it("a price rounded to 8 significant digits passes v1.10.3; 9 digits and unrounded floats fail both rules", () => {
    const stream = new RandomStream(19);
    for (let index = 0; index < 2000; index++) {
      const price = (1 + stream.uniform() * 9) * 10 ** (stream.integer(8) - 1);
      const rounded = roundPrice(price);
      expect(reasons(withPrice(String(rounded)))[1]).toBe("CORRECT");
      const nine = roundToSignificantDigits(price, 9);
      if (roundPrice(nine) !== nine) {
        expect(reasons(withPrice(String(nine)))[1]).toMatch(/too many digits/);
      }
    }
  });
});
