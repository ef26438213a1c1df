/**
 * The byte reading of the common candidate file (`recordFileFromBytes`) against the general
 * reading of the same text (`candidateFileFromText`, Python's reading and the validator's rules):
 * where it answers, its answer is the general one; where the two readings could differ, or the
 * validator rejects the file, it leaves the file to the general reading, and `readCandidateFile`
 * gives the general answer.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baselineFileText } from "../../../src/jobs/baseline/file.ts";
import {
  candidateFileFromText,
  readCandidateFile,
} from "../../../src/jobs/score/readCandidateFile.ts";
import { recordFileFromBytes } from "../../../src/jobs/score/recordFileBytes.ts";
import { temporaryFolder } from "../../store/helpers.ts";

const AFTER = Date.UTC(2026, 10, 20, 10, 0) / 1000; // v1.10.3 rules
const BEFORE = Date.UTC(2026, 5, 20, 10, 0) / 1000; // legacy rules
const HEAD = `"asset":"ETH","time_increment":60,"time_length":3600`;
const { folder, remove } = temporaryFolder();
afterAll(remove);

/** 1,000 paths of 61 prices, path p step t written as `price(p, t)`. */
function pathsText(price: (path: number, step: number) => string): string {
  return Array.from(
    { length: 1000 },
    (_, path) => `[${Array.from({ length: 61 }, (_, step) => price(path, step)).join(",")}]`,
  ).join(",");
}

/** Prices as `JSON.stringify` writes them: whole ones as ints (`100`), others with a fraction. */
const plain = (path: number, step: number) => String(100 + ((path * 7 + step * 3) % 11) / 2);

function record(start: number, price = plain, head = HEAD, tail = ""): string {
  return `{${head},"start_time":${start},"predictions":[${pathsText(price)}]${tail}}`;
}

/** Both readings of `text`; `fast` is `undefined` where the byte reading leaves it. */
function readings(text: string, atUnix?: number) {
  const bytes = Buffer.from(text);
  const options = atUnix === undefined ? {} : { atUnix };
  return {
    fast: recordFileFromBytes("ETH-a.json", bytes, options),
    general: candidateFileFromText("ETH-a.json", text, options),
  };
}

/** Files the two readings of numbers, or of keys, could tell apart; and when they are validated. */
const AMBIGUOUS = {
  // a whole price written as a float: an int for JSON.parse, a float for Python (legacy
  // counts its digits differently: 12345678.0 has nine)
  "a whole float price, legacy": [record(BEFORE, () => "12345678.0"), BEFORE],
  "a price in exponent form, legacy": [record(BEFORE, (path) => (path === 0 ? "1.5e2" : "100.5"))],
  "an int of 22 digits": [record(AFTER, (path) => (path === 0 ? "1".repeat(22) : "100.5"))],
  "time_increment as a float": [record(AFTER, plain, HEAD.replace("60", "60.0"))],
  "a miner_uid as a float": [record(AFTER, plain, `${HEAD},"miner_uid":7.0`)],
  "a key after predictions": [record(AFTER, plain, HEAD, `,"asset":"BTC"`)],
  "a repeated key": [record(AFTER, plain, `${HEAD},"asset":"BTC"`)],
  "start_time in milliseconds": [record(AFTER * 1000)],
  "a byte-order mark": [`\uFEFF${record(AFTER)}`],
  "the list layout": [`[${AFTER},60,${pathsText(plain)}]`],
  "the word predictions as a value": [record(AFTER, plain, `${HEAD},"x":"predictions"`)],
} satisfies Record<string, [string, number?]>;

describe("recordFileFromBytes", () => {
  it("reads a valid file of the common shape as the general reading does, under either rule", () => {
    for (const start of [AFTER, BEFORE]) {
      const { fast, general } = readings(record(start));
      expect(general.validation).toBe("CORRECT");
      expect(fast).toEqual(general);
      expect(fast?.pathSet?.values).toBeInstanceOf(Float64Array);
    }
    // whitespace anywhere JSON allows it, and a trailing line feed
    const spaced = `\n {"asset": "ETH", "time_increment": 60, "time_length": 3600, "start_time": ${AFTER},\n "predictions": [${pathsText(plain).replaceAll(",", ", ")}] }\n`;
    const { fast, general } = readings(spaced);
    expect(general.validation).toBe("CORRECT");
    expect(fast).toEqual(general);
  });

  it("under v1.10.3, which judges a price's value alone, reads prices however they are written", () => {
    const written = ["100.0", "1.5e2", "15000e-2", "100"];
    const { fast, general } = readings(record(AFTER, (path) => written[path % 4]));
    expect(general.validation).toBe("CORRECT");
    expect(fast).toEqual(general);
    // the same file under the legacy rule: 100.0 and 1.5e2 are floats there, so it is left
    expect(
      readings(
        record(AFTER, (path) => written[path % 4]),
        BEFORE,
      ).fast,
    ).toBeUndefined();
  });

  it("reads a baseline file, whose head has more fields and a miner_uid", () => {
    const values = Float64Array.from({ length: 61000 }, (_, index) => 2000 + (index % 61) / 4);
    const head = {
      model: "gbm" as const,
      modelSeed: 1,
      stepVolatility: 0.0006,
      asset: "ETH",
      timeIncrement: 60,
      timeLength: 3600,
      startTimeUnix: AFTER,
    };
    const { fast, general } = readings(baselineFileText(head, values, 1000, 61));
    expect(general.validation).toBe("CORRECT");
    expect(fast).toEqual(general);
  });

  it("leaves to the general reading what the two readings of numbers could tell apart", () => {
    for (const [name, [text, atUnix]] of Object.entries(AMBIGUOUS)) {
      expect(readings(text, atUnix).fast, name).toBeUndefined();
    }
  });

  it("leaves a file the validator or the paths layer rejects to the general reading, for its reason", () => {
    const cases: Record<string, [string, string]> = {
      "too many digits": [
        record(AFTER, (path) => (path === 5 ? "100.123456789" : "100.5")),
        "Price format is incorrect: too many digits 100.123456789",
      ],
      "a zero price": [
        record(AFTER, (path, step) => (path === 2 && step === 4 ? "0" : "100.5")),
        "path 2, point 4: expected a finite non-zero price, got 0",
      ],
      "a string price": [
        record(AFTER, (path) => (path === 9 ? '"100.5"' : "100.5")),
        "Price format is incorrect: expected int or float, got <class 'str'>",
      ],
      NaN: [
        record(AFTER, (path) => (path === 1 ? "NaN" : "100.5")),
        "Price format is incorrect: non-finite value nan",
      ],
    };
    for (const [name, [text, reason]] of Object.entries(cases)) {
      const { fast, general } = readings(text);
      expect(fast, name).toBeUndefined();
      expect(general.reason, name).toBe(reason);
    }
    const short = record(AFTER).replace(/\],\[[^\]]*\]\]\}$/, "]]}");
    expect(readings(short).fast).toBeUndefined();
    expect(readings(short).general.reason).toBe(
      "Number of paths is incorrect: expected 1000, got 999",
    );
    const truncated = record(AFTER).slice(0, -3);
    expect(readings(truncated).fast).toBeUndefined();
    expect(readings(truncated).general.reason).toMatch(/^not JSON: /);
  });

  it("readCandidateFile gives the general reading's answer, by bytes or not", async () => {
    const texts = [
      record(AFTER),
      record(BEFORE, () => "12345678.0"),
      record(AFTER, plain, HEAD, `,"asset":"BTC"`),
      record(AFTER, (path) => (path === 5 ? "100.123456789" : "100.5")),
    ];
    for (const [index, text] of texts.entries()) {
      const path = join(folder, `ETH-${index}.json`);
      writeFileSync(path, text);
      expect(await readCandidateFile(path)).toEqual(
        candidateFileFromText(`ETH-${index}.json`, text),
      );
    }
  });
});
