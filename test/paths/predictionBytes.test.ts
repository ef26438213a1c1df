/**
 * The byte-level prediction-set parser against its oracles: `JSON.parse` for every value (bit for
 * bit, fuzzed over digits, exponents, whitespace and chunk splits, including 1-byte chunks) and
 * for what is malformed, `pathSetFromPrediction` for every validation error, and `parsePythonJson`
 * for the prices written as integers.
 */
import { describe, expect, it } from "vitest";
import { pathSetFromPrediction, type PredictionPrompt } from "../../src/paths/fromPrediction.ts";
import { PathSetError } from "../../src/paths/pathSetError.ts";
import {
  createPredictionSetParser,
  parsePredictionSetBytes,
  pathSetOfParsed,
  pathSetsFromPredictionBytes,
  type ParsedPredictionSet,
  type PredictionBytesPrompt,
} from "../../src/paths/predictionBytes.ts";
import { createRandom, type Random } from "../../src/reference/random.ts";
import { parsePythonJson } from "../../src/domain/pythonJson.ts";
import type { PredictionSet } from "../../src/domain/records/prediction-set.ts";

const encoder = new TextEncoder();

/** A small prompt: 4 paths of 4 points (timeLength / timeIncrement = 3). */
const SMALL = { asset: "BTC", timeIncrement: 300, timeLength: 900, nPaths: 4 };

function integerBelow(random: Random, bound: number): number {
  return Math.floor(random.uniform() * bound);
}

/** `bytes` cut at random places: pieces of 1 byte when `size` is 1, else of 1 … size bytes. */
function* piecesOf(bytes: Uint8Array, random: Random, size: number): Generator<Uint8Array> {
  let start = 0;
  while (start < bytes.length) {
    const length = size === 1 ? 1 : 1 + integerBelow(random, size);
    yield bytes.subarray(start, start + length);
    start += length;
  }
}

/** The pieces {@link piecesOf} cuts, all at once. */
function chunksOf(bytes: Uint8Array, random: Random, size: number): Uint8Array[] {
  return [...piecesOf(bytes, random, size)];
}

/**
 * The values' float64 bytes (little-endian, in base64), for comparisons that tell -0 from 0 and
 * see every bit: one string, which compares at once where an array of a million values takes
 * vitest seconds.
 */
function bitsOf(values: ArrayLike<number>): string {
  return Buffer.from(Float64Array.from(values).buffer).toString("base64");
}

/** What today's pipeline (JSON.parse, then pathSetFromPrediction per set) gives for `text`. */
function oracle(
  text: string,
  prompt: PredictionPrompt = SMALL,
  record?: unknown,
): (string | Float64Array)[] {
  const sets = (record ?? JSON.parse(text)) as PredictionSet[];
  return sets.map((set) => {
    try {
      return pathSetFromPrediction(set, prompt).values;
    } catch (error) {
      if (error instanceof PathSetError) return error.message;
      throw error;
    }
  });
}

function outcomeOf(sets: ParsedPredictionSet[]): (string | Float64Array)[] {
  return sets.map((set) => set.error?.message ?? set.values);
}

/**
 * Pushes `bytes` into a parser in the pieces {@link piecesOf} cuts, one piece at a time (a body of
 * megabytes held as a million 1-byte views costs seconds of garbage collection).
 */
function parseInPieces(
  bytes: Uint8Array,
  random: Random,
  size: number,
  prompt: PredictionBytesPrompt,
): ParsedPredictionSet[] {
  const parser = createPredictionSetParser(prompt);
  for (const piece of piecesOf(bytes, random, size)) parser.push(piece);
  return parser.finish();
}

/** Parses `text` whole, in 1-byte chunks and in random chunks; every way must agree. */
function parseEveryWay(
  text: string,
  prompt: PredictionBytesPrompt = SMALL,
  seed = 1,
): ParsedPredictionSet[] {
  const bytes = encoder.encode(text);
  const whole = parsePredictionSetBytes(bytes, prompt);
  const random = createRandom(seed);
  const errors = (sets: ParsedPredictionSet[]) => sets.map((set) => set.error?.message);
  const bits = (sets: ParsedPredictionSet[]) => sets.map((set) => bitsOf(set.values));
  const wholeBits = bits(whole);
  for (const size of [1, 7, 4096]) {
    const pieces = parseInPieces(bytes, random, size, prompt);
    expect(errors(pieces)).toEqual(errors(whole));
    expect(bits(pieces)).toEqual(wholeBits);
  }
  return whole;
}

/** A random JSON number lexeme: 1–17 significant digits, any decimal position, maybe an exponent. */
function randomLexeme(random: Random): string {
  const kind = integerBelow(random, 10);
  if (kind === 0) return random.uniform() < 0.5 ? "-0" : "-0.0";
  const digitCount = 1 + integerBelow(random, 17);
  let digits = String(1 + integerBelow(random, 9));
  for (let index = 1; index < digitCount; index++) digits += String(integerBelow(random, 10));
  let text: string;
  if (kind === 1) {
    // A fraction with leading zeros: 0.000123…
    text = `0.${"0".repeat(integerBelow(random, 8))}${digits}`;
  } else {
    const point = integerBelow(random, digitCount + 1);
    text =
      point === 0 || point === digitCount
        ? digits
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  if (kind >= 7) {
    const marker = random.uniform() < 0.5 ? "e" : "E";
    const sign = ["", "+", "-"][integerBelow(random, 3)];
    const exponent = kind === 9 ? integerBelow(random, 331) : integerBelow(random, 30);
    text += `${marker}${sign}${exponent}`;
  }
  return random.uniform() < 0.2 ? `-${text}` : text;
}

function randomSpace(random: Random): string {
  return [" ", "", "", "\n", "\t", " \r\n "][integerBelow(random, 6)];
}

describe("parsePredictionSetBytes", () => {
  it("reads random number lexemes bit-identically to JSON.parse, whatever the chunking", () => {
    const random = createRandom(20261126);
    const prompt = { asset: "BTC", timeIncrement: 60, timeLength: 3600, nPaths: 20 };
    let numbers = 0;
    for (let body = 0; body < 12; body++) {
      const lexemes: string[] = [];
      let text = `[${randomSpace(random)}{"miner_uid":${randomSpace(random)}${body},"start_time": 1772063100,${randomSpace(random)}"predictions":[`;
      for (let path = 0; path < 20; path++) {
        text += `${path ? "," : ""}${randomSpace(random)}[`;
        for (let point = 0; point < 61; point++) {
          const lexeme = randomLexeme(random);
          lexemes.push(lexeme);
          text += `${point ? "," : ""}${randomSpace(random)}${lexeme}${randomSpace(random)}`;
        }
        text += "]";
      }
      text += `]${randomSpace(random)}}${randomSpace(random)}]${randomSpace(random)}`;
      const [set] = parseEveryWay(text, prompt, body);
      const expected = (JSON.parse(text) as PredictionSet[])[0].predictions.flat();
      expect(bitsOf(set.values)).toEqual(bitsOf(expected));
      // Negative, zero, subnormal-to-zero and infinite prices: the same first failure.
      expect(set.error?.message).toBe(oracle(text, prompt)[0] as string);
      const intIndices = lexemes.flatMap((lexeme, index) =>
        /^-?\d+$/.test(lexeme) ? [index] : [],
      );
      expect(Array.from(set.intLexemeIndices)).toEqual(intIndices);
      numbers += lexemes.length;
    }
    expect(numbers).toBe(12 * 20 * 61);
  });

  it("reads edge numbers exactly: 15/16/17 digits, 10^±22 limits, subnormals, overflow", () => {
    const lexemes = [
      "999999999999999",
      "9007199254740993",
      "0.1",
      "0.30000000000000004",
      "123456789012345e-22",
      "123456789012345e22",
      "1e22",
      "1e23",
      "1.7976931348623157e308",
      "1.7976931348623159e308",
      "2e308",
      "5e-324",
      "2.4703282292062328e-324",
      "2.4703282292062327e-324",
      "1e-400",
      "-0",
      "0e999999999",
      "67676.12345678901",
      "100000000000000000000000",
      "0.000000000000000000000000000001",
    ];
    const text = `[{"miner_uid":1,"start_time":0,"predictions":[[${lexemes.join(",")}]]}]`;
    const prompt = { timeIncrement: 1, timeLength: lexemes.length - 1, nPaths: 1 };
    const [set] = parseEveryWay(text, prompt);
    expect(bitsOf(set.values)).toEqual(bitsOf(lexemes.map(Number)));
    expect(bitsOf(set.values)).toEqual(
      bitsOf((JSON.parse(text) as PredictionSet[])[0].predictions[0]),
    );
  });

  it("builds the same PathSet as JSON.parse + pathSetFromPrediction for a 1,000 × 289 body", () => {
    const random = createRandom(7);
    const predictions = Array.from({ length: 1000 }, () =>
      Array.from({ length: 289 }, () =>
        Number((60000 + random.uniform() * 10000).toPrecision(1 + integerBelow(random, 17))),
      ),
    );
    const text = JSON.stringify([{ miner_uid: 17, start_time: 1772063100, predictions }]);
    const prompt = { asset: "BTC", timeIncrement: 300, timeLength: 86400 };
    const expected = pathSetFromPrediction(JSON.parse(text)[0] as PredictionSet, prompt);
    const bytes = encoder.encode(text);
    const [pathSet] = pathSetsFromPredictionBytes(chunksOf(bytes, random, 65536), prompt, {
      allocation: { shared: true },
    });
    expect(pathSet.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect({ ...pathSet, values: bitsOf(pathSet.values) }).toEqual({
      ...expected,
      values: bitsOf(expected.values),
    });
    const [plain] = parsePredictionSetBytes(bytes, prompt);
    expect(plain.values.buffer).toBeInstanceOf(ArrayBuffer);
    expect(pathSetOfParsed(plain, prompt).values).toBe(plain.values);
  });

  it("reads sets split anywhere by an incremental parser, several sets in one body", () => {
    const text =
      '[{"start_time":5,"clé €":[],"extra":{"a":[1,{"b":null}],"\\u00e9\\"":"x\\\\"},"predictions":[[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16.5]],"miner_uid":3},' +
      ' {"miner_uid": 4, "start_time": 6, "predictions": [[1,1,1,1],[1,1,1,1],[1,1,1,1],[1,1,1,2]], "note": "prix €"}]';
    const bytes = encoder.encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const parser = createPredictionSetParser(SMALL);
      parser.push(bytes.subarray(0, cut));
      parser.push(bytes.subarray(cut));
      const sets = parser.finish();
      expect(outcomeOf(sets)).toEqual(oracle(text));
      expect(sets.map((set) => [set.minerUid, set.startTime])).toEqual([
        [3, 5],
        [4, 6],
      ]);
    }
    const only = parsePredictionSetBytes(bytes, SMALL, { minerUid: 4 });
    expect(only.map((set) => set.minerUid)).toEqual([4]);
    expect(Array.from(only[0].values)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
  });

  it("rejects malformed bodies that JSON.parse rejects, naming the byte offset", () => {
    const good = '[{"miner_uid":1,"start_time":0,"predictions":[[1,2,3,4]]}]';
    const malformed = [
      "",
      "[",
      good.slice(0, -1),
      good.slice(0, 40),
      good.replace("[1,", "[01,"),
      good.replace("[1,", "[+1,"),
      good.replace("[1,", "[1.,"),
      good.replace("[1,", "[.5,"),
      good.replace("[1,", "[-,"),
      good.replace("[1,", "[- 1,"),
      good.replace("[1,", "[1e,"),
      good.replace("[1,", "[1e+,"),
      good.replace("[1,", "[1.5.3,"),
      good.replace("[1,", "[1x,"),
      good.replace("[1,", "[0x10,"),
      good.replace("[1,", "[1 2,"),
      good.replace("[1,2", "[1,,2"),
      good.replace("4]", "4,]"),
      good.replace("4]]", "4]"),
      good.replace(',"start_time"', '"start_time"'),
      good.replace('"start_time":0,', '"start_time":0'),
      good.replace('"start_time":0', '"start_time" 0'),
      good.replace('"miner_uid"', "miner_uid"),
      good.replace('"miner_uid"', "'miner_uid'"),
      good.replace('"miner_uid"', '"miner\\xuid"'),
      good.replace('"miner_uid"', '"miner\\u00zzuid"'),
      good.replace('"miner_uid"', '"miner\tuid"'),
      good.replace("[1,", "[tru,"),
      good.replace("[1,", "[nul,"),
      good.replace("[1,", "[Nan,"),
      good.replace("[1,", "[-Infinit,"),
      good + "]",
      good + " x",
      good + "[]",
      good.replace('"predictions"', "predictions"),
    ];
    for (const text of malformed) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      const bytes = encoder.encode(text);
      for (const chunks of [[bytes], chunksOf(bytes, createRandom(3), 1)]) {
        let caught: unknown;
        try {
          parsePredictionSetBytes(chunks, SMALL);
        } catch (error) {
          caught = error;
        }
        expect(caught, text).toBeInstanceOf(SyntaxError);
        expect((caught as SyntaxError).message, text).toMatch(/at byte offset \d+$/);
      }
    }
    expect(() => parsePredictionSetBytes(encoder.encode(good + " 1"), SMALL)).toThrow(
      `Unexpected "1" in JSON at byte offset ${good.length + 1}`,
    );
    expect(() => parsePredictionSetBytes(encoder.encode(good.slice(0, 40)), SMALL)).toThrow(
      "Unexpected end of input in JSON at byte offset 40",
    );
  });

  it("gives pathSetFromPrediction's error for every invalid record, keys in any order", () => {
    const path = "[1,2,3,4]";
    const paths = (list: string[]) => `[${list.join(",")}]`;
    const four = [path, path, path, path];
    const set = (fields: string) => `[{${fields}}]`;
    const records = [
      set(`"start_time":0,"predictions":${paths(four)}`),
      set(`"miner_uid":"17","start_time":0,"predictions":${paths(four)}`),
      set(`"miner_uid":17.5,"start_time":0,"predictions":${paths(four)}`),
      set(`"miner_uid":[1,2],"start_time":0,"predictions":${paths(four)}`),
      set(`"miner_uid":{"a":1},"start_time":0,"predictions":${paths(four)}`),
      set(`"miner_uid":true,"start_time":0,"predictions":${paths(four)}`),
      set(`"miner_uid":17,"start_time":null,"predictions":${paths(four)}`),
      set(`"miner_uid":17,"start_time":1.5,"predictions":${paths(four)}`),
      set(`"miner_uid":17,"start_time":0`),
      set(`"miner_uid":17,"start_time":0,"predictions":{"a":[1]}`),
      set(`"miner_uid":17,"start_time":0,"predictions":"${"x".repeat(80)}"`),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, path, path])}`),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([...four, path])}`),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,2,3]", path, path])}`),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,2,3,4,5]", path, path])}`,
      ),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, path, path, "[1,2,3,0]"])}`),
      set(
        `"predictions":${paths([path, path, path, "[1,2,3,-0.0]"])},"start_time":0,"miner_uid":17`,
      ),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,-2,3,4]", path, path])}`),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,2,1e400,4]", path, path])}`,
      ),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,null,3,4]", path, path])}`,
      ),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, '[1,"2",3,4]', path, path])}`,
      ),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,[2,2],3,4]", path, path])}`,
      ),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,true,3,4]", path, path])}`,
      ),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, '[1,{"p":2},3,4]', path, path])}`,
      ),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, "5", path, path])}`),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, "null", path, path])}`),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, '{"a":1}', path, path])}`),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, '"abc"', path, path])}`),
      // First failure wins: a bad price in path 1 before a short path 2; a short path before its
      // own bad price; the number of paths before any path.
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,0,3,4]", "[1,2,3]", path])}`,
      ),
      set(
        `"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,0,3]", "[1,2,3,0]", path])}`,
      ),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths([path, "[1,0,3,4]", path])}`),
      set(`"start_time":null,"predictions":${paths([path])}`),
      // Unknown keys (any JSON), repeated keys (the last wins), escaped key names.
      set(
        `"x":[[1,2],{"y":[null,"]"]}],"miner_uid":17,"start_time":0,"predictions":${paths(four)}`,
      ),
      set(
        `"miner_uid":1,"miner_uid":17,"start_time":0,"predictions":[],"predictions":${paths(four)}`,
      ),
      set(`"miner_uid":17,"start_time":0,"predictions":${paths(four)},"predictions":[[1]]`),
      set(`"miner\\u005fuid":17,"start_time":0,"predictions":${paths(four)}`),
      "[5]",
      "[[1,2]]",
      '[null, {"miner_uid":3,"start_time":0,"predictions":[]}]',
      "[]",
      // A negative price is a price (the validator scores it); zero is not.
      set(
        `"miner_uid":17,"start_time":0,"predictions":[[1,-2,3,4],[1,2,-3.5e2,4],[1,2,3,4],[1,2,3,-4]]`,
      ),
    ];
    for (const text of records) {
      const sets = parseEveryWay(text);
      expect(outcomeOf(sets), text).toEqual(oracle(text));
    }
    // The validator's words with the default 1,000 paths of 289 points.
    const prompt = { asset: "BTC", timeIncrement: 300, timeLength: 86400 };
    const row = `[${Array.from({ length: 289 }, (_, point) => 68000 + point).join(",")}]`;
    const short = `[${Array.from({ length: 288 }, () => 68000).join(",")}]`;
    const zeroLast = row.replace(/,[0-9]+\]$/, ",0]");
    const bodies = [
      `[{"miner_uid":17,"start_time":0,"predictions":[${Array(999).fill(row).join(",")}]}]`,
      `[{"miner_uid":17,"start_time":0,"predictions":[${[...Array(3).fill(row), short, ...Array(996).fill(row)].join(",")}]}]`,
      `[{"miner_uid":17,"start_time":0,"predictions":[${[...Array(3).fill(row), zeroLast, ...Array(996).fill(row)].join(",")}]}]`,
    ];
    const messages = bodies.map((text) => parseEveryWay(text, prompt)[0].error?.message);
    expect(messages).toEqual(bodies.map((text) => oracle(text, prompt)[0]));
    expect(messages).toEqual([
      "miner 17: Number of paths is incorrect: expected 1000, got 999",
      "miner 17: path 3: Number of time points is incorrect: expected 289, got 288",
      "miner 17: path 3, point 288: expected a finite non-zero price, got 0",
    ]);
  });

  it("reads Python's NaN, Infinity and -Infinity as non-finite prices", () => {
    for (const token of ["NaN", "Infinity", "-Infinity"]) {
      const text = `[{"miner_uid":17,"start_time":0,"predictions":[[1,2,3,4],[1,2,${token},4],[1,2,3,4],[1,2,3,4]]}]`;
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      const [set] = parseEveryWay(text);
      expect(set.error?.message).toBe(oracle(text, SMALL, parsePythonJson(text))[0]);
      expect(set.error?.message).toBe(
        `miner 17: path 1, point 2: expected a finite non-zero price, got ${token}`,
      );
    }
  });

  it("keeps the flat indices of prices written as integers", () => {
    const text =
      '[{"miner_uid":1,"start_time":0,"predictions":[[1,2.0,3e0,4],[5.5,6,7E1,8],[9,1.25,11,0.5],[1,2,3,4.0]]}]';
    const [set] = parseEveryWay(text);
    expect(Array.from(set.intLexemeIndices)).toEqual([0, 3, 5, 7, 8, 10, 12, 13, 14]);
  });

  it("throws the set's error from pathSetOfParsed, and RangeError for a bad prompt", () => {
    const text = '[{"miner_uid":17,"start_time":0,"predictions":[]}]';
    const [set] = parsePredictionSetBytes(encoder.encode(text), SMALL);
    expect(() => pathSetOfParsed(set, SMALL)).toThrow(
      "miner 17: Number of paths is incorrect: expected 4, got 0",
    );
    expect(() => pathSetsFromPredictionBytes(encoder.encode(text), SMALL)).toThrow(PathSetError);
    expect(() => createPredictionSetParser({ timeIncrement: 0, timeLength: 900 })).toThrow(
      "createPredictionSetParser requires a positive integer timeIncrement, got 0",
    );
  });

  it("runs the doc comments' examples", () => {
    const parser = createPredictionSetParser({ timeIncrement: 300, timeLength: 300, nPaths: 1 });
    parser.push(encoder.encode('[{"miner_uid": 1, "start_time": 0, "predictions": [[1, 2.'));
    parser.push(encoder.encode("5]]}]"));
    expect(Array.from(parser.finish()[0].values)).toEqual([1, 2.5]);
    const [set] = parsePredictionSetBytes(
      encoder.encode(
        '[{"miner_uid": 17, "start_time": 1772063100, "predictions": [[100, 101.5]]}]',
      ),
      { timeIncrement: 300, timeLength: 300, nPaths: 1 },
    );
    expect([Array.from(set.values), Array.from(set.intLexemeIndices), set.error]).toEqual([
      [100, 101.5],
      [0],
      undefined,
    ]);
    expect(
      parsePredictionSetBytes(
        encoder.encode('[{"miner_uid": 1, "start_time": 0, "predictions": [[1, 0]]}]'),
        { timeIncrement: 300, timeLength: 300, nPaths: 1 },
      )[0].error?.message,
    ).toBe("miner 1: path 0, point 1: expected a finite non-zero price, got 0");
  });
});
