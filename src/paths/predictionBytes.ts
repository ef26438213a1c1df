/**
 * Prediction-set response bodies (`/v2/prediction/historical`, `/v2/prediction/latest`: a JSON
 * array of `{"miner_uid", "start_time", "predictions"}`) parsed straight from their bytes, chunk by
 * chunk as they arrive, into one path-major Float64Array per set: no full-body string, no arrays
 * of arrays, no string per number. Over 300 lines: one resumable state machine (a chunk may end
 * anywhere) whose parts share its state; the lexemes are in `predictionBytesLexemes.ts`.
 *
 * Values are bit-identical to `JSON.parse` (`scanNumber`). Each set is validated as
 * {@link pathSetFromPrediction} validates the record `JSON.parse` makes of the same bytes, with the
 * same {@link PathSetError} messages and the same first failure: problems are noted as they are
 * met and the error is decided when the set's object closes, so `predictions` may come before
 * `miner_uid` and the error still names the miner. Malformed JSON throws a `SyntaxError` naming
 * the byte offset (a body with a syntax error is rejected whatever else is wrong with it, as
 * `JSON.parse` rejects it before any validation). Read as Python's `json.loads` reads it, a price
 * written `NaN`, `Infinity` or `-Infinity` is a non-finite price (those words are accepted as
 * numbers anywhere), and the flat indices of prices written as integers are kept per set.
 * Differences from `JSON.parse` + `pathSetFromPrediction`: the body must be an array (else a
 * SyntaxError at its first byte); a leading byte-order mark is not skipped.
 */

import { predictionLayout, type PredictionPrompt } from "./fromPrediction.ts";
import { allocateValues, type PathSet, type PathSetAllocation } from "./pathSet.ts";
import { PathSetError, type PathSetProblem } from "./pathSetError.ts";
import {
  isLexemeByte,
  JsonBytesSyntaxError,
  literalValue,
  NUMBER_INCOMPLETE,
  POWERS_OF_TEN,
  scanNumber,
  scanStringEnd,
  STRING_OPEN_ESCAPED,
  stringEquals,
  stringFaultIndex,
  stringValue,
  unexpectedByte,
  type NumberScan,
} from "./predictionBytesLexemes.ts";

/**
 * The prompt a body answers, as far as parsing needs it ({@link PredictionPrompt} without `asset`).
 * @example const prompt: PredictionBytesPrompt = { timeIncrement: 300, timeLength: 86400 };
 */
export type PredictionBytesPrompt = Omit<PredictionPrompt, "asset">;

/**
 * Options of {@link createPredictionSetParser}.
 * @example const options: PredictionBytesOptions = { minerUid: 17, allocation: { shared: true } };
 */
export interface PredictionBytesOptions {
  /** Keep only the sets whose `miner_uid` is this one (the others are still parsed and checked). */
  readonly minerUid?: number;
  /** Where the values go (a SharedArrayBuffer with `shared`), as {@link pathSetFromPrediction}. */
  readonly allocation?: PathSetAllocation;
  /**
   * Sets a body may hold (default: no limit); the set after them throws a `RangeError` naming the
   * limit. Each set's values take nPaths × nPoints doubles, so this bounds what a body can make
   * the parser allocate (2.3 MB per 24h set, however few bytes the set takes).
   */
  readonly maxSets?: number;
}

/**
 * One prediction set of a body: its values, path-major, and the first validation failure if any.
 * @example
 * const [set] = parsePredictionSetBytes(new TextEncoder().encode(
 *   '[{"miner_uid": 17, "start_time": 1772063100, "predictions": [[100, 101.5]]}]'),
 *   { timeIncrement: 300, timeLength: 300, nPaths: 1 });
 * // set.values => [100, 101.5], set.intLexemeIndices => [0], set.error => undefined
 */
export interface ParsedPredictionSet {
  /** `miner_uid` when it is a number (check `error` for whether it is a valid one). */
  readonly minerUid: number | undefined;
  /** `start_time` (Unix seconds) when it is a number. */
  readonly startTime: number | undefined;
  readonly nPaths: number;
  /** Points per path: ⌊timeLength / timeIncrement⌋ + 1. */
  readonly nPoints: number;
  /**
   * `nPaths × nPoints` prices, path p point t at `p·nPoints + t` (zeros where the body had none;
   * trustworthy only without `error`; empty when the set has no `predictions` array).
   */
  readonly values: Float64Array;
  /** Ascending flat indices into `values` of the prices written as integers (`67676`, not `67676.0`). */
  readonly intLexemeIndices: Uint32Array;
  /** What {@link pathSetFromPrediction} throws for the same record, or `undefined` when it passes. */
  readonly error: PathSetError | undefined;
  /** The keys the set's object holds, a repeated key counted each time (0 for a set that is no object). */
  readonly keyCount: number;
}

/**
 * An incremental parser of one body: `push` each chunk as it arrives, then `finish`.
 * @example
 * const parser = createPredictionSetParser({ timeIncrement: 300, timeLength: 86400 });
 * for await (const chunk of response.body) parser.push(chunk);
 * const sets = parser.finish();
 */
export interface PredictionSetParser {
  /** Parses the next bytes of the body (a chunk may end anywhere, even inside a number). */
  push(chunk: Uint8Array): void;
  /** The sets of the body; throws a SyntaxError when the body ended before its closing `]`. */
  finish(): ParsedPredictionSet[];
}

/**
 * A parser of one prediction-set body for `prompt` (this file's header says what it checks).
 * Throws `RangeError` for prompt values that are not positive integers.
 * @param prompt - the time increment and time length the sets answer, and the paths asked for.
 * @param options - the miner to keep, where the values go and how many sets a body may hold; every
 *   set, in ordinary arrays, without a limit by default.
 * @example
 * const parser = createPredictionSetParser({ timeIncrement: 300, timeLength: 300, nPaths: 1 });
 * parser.push(new TextEncoder().encode('[{"miner_uid": 1, "start_time": 0, "predictions": [[1, 2.'));
 * parser.push(new TextEncoder().encode("5]]}]"));
 * parser.finish()[0].values // => [1, 2.5]
 */
export function createPredictionSetParser(
  prompt: PredictionBytesPrompt,
  options: PredictionBytesOptions = {},
): PredictionSetParser {
  return new ByteParser(prompt, options);
}

/**
 * Parses a whole body (one buffer or its chunks) with {@link createPredictionSetParser}.
 * @param bytes - the body: one buffer, or its chunks in order.
 * @param prompt - the time increment and time length the sets answer, and the paths asked for.
 * @param options - as {@link createPredictionSetParser}'s.
 * @example
 * parsePredictionSetBytes(new TextEncoder().encode('[{"miner_uid": 1, "start_time": 0, "predictions": [[1, 0]]}]'),
 *   { timeIncrement: 300, timeLength: 300, nPaths: 1 })[0].error?.message
 * // => "miner 1: path 0, point 1: expected a finite non-zero price, got 0"
 */
export function parsePredictionSetBytes(
  bytes: Uint8Array | readonly Uint8Array[],
  prompt: PredictionBytesPrompt,
  options: PredictionBytesOptions = {},
): ParsedPredictionSet[] {
  const parser = new ByteParser(prompt, options);
  if (bytes instanceof Uint8Array) parser.push(bytes);
  else for (let index = 0; index < bytes.length; index++) parser.push(bytes[index]);
  return parser.finish();
}

/**
 * The {@link PathSet} of a parsed set (its `values`, not a copy), or its {@link PathSetError}
 * thrown: what {@link pathSetFromPrediction} gives for the same record.
 * @param parsed - one set as {@link parsePredictionSetBytes} parsed it.
 * @param prompt - the prompt the set answers, which gives the path set its asset and time
 *   increment.
 * @example pathSetOfParsed(set, { asset: "BTC", timeIncrement: 300, timeLength: 86400 }).nPoints // => 289
 */
export function pathSetOfParsed(parsed: ParsedPredictionSet, prompt: PredictionPrompt): PathSet {
  if (parsed.error !== undefined) throw parsed.error;
  return {
    asset: prompt.asset,
    minerUid: parsed.minerUid as number,
    startTime: parsed.startTime as number,
    timeIncrement: prompt.timeIncrement,
    nPaths: parsed.nPaths,
    nPoints: parsed.nPoints,
    values: parsed.values,
  };
}

/**
 * Every set of a body as a {@link PathSet}, throwing the first set's error: what
 * `JSON.parse(text).map((set) => pathSetFromPrediction(set, prompt, allocation))` gives.
 * @param bytes - the body: one buffer, or its chunks in order.
 * @param prompt - the asset, time increment and time length the sets answer, and the paths asked
 *   for.
 * @param options - as {@link createPredictionSetParser}'s.
 * @example pathSetsFromPredictionBytes(body, { asset: "BTC", timeIncrement: 300, timeLength: 86400 })[0].values.length // => 289000
 */
export function pathSetsFromPredictionBytes(
  bytes: Uint8Array | readonly Uint8Array[],
  prompt: PredictionPrompt,
  options: PredictionBytesOptions = {},
): PathSet[] {
  const parsed = parsePredictionSetBytes(bytes, prompt, options);
  const pathSets: PathSet[] = [];
  for (let index = 0; index < parsed.length; index++) {
    pathSets.push(pathSetOfParsed(parsed[index], prompt));
  }
  return pathSets;
}

/** The values of a set before (or without) its `predictions` array. */
const EMPTY_VALUES = new Float64Array(0);

const SPACE = 0x20;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const TAB = 0x09;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
const LOWER_E = 0x65;
const CLOSE_BRACE = 0x7d;

// Frames: the containers open around the current byte.
const FRAME_TOP = 0; // the body's array of sets
const FRAME_SET = 1; // a set's object
const FRAME_PREDICTIONS = 2; // the array of paths
const FRAME_PATH = 3; // one path's array of prices
const FRAME_ARRAY = 4; // any other array (skipped, its elements counted)
const FRAME_OBJECT = 5; // any other object (skipped)

// What a frame expects next.
const EXPECT_FIRST = 0; // after `[` or `{`
const EXPECT_VALUE = 1; // after `,` in an array, `:` in an object
const EXPECT_AFTER = 2; // after a value: `,` or the closing bracket
const EXPECT_KEY = 3; // after `,` in an object
const EXPECT_COLON = 4; // after a key

// What a value is to the set (the role decides what is kept of it).
const ROLE_SET = 0;
const ROLE_MINER_UID = 1;
const ROLE_START_TIME = 2;
const ROLE_PREDICTIONS = 3;
const ROLE_OTHER = 4; // the value of an unknown key
const ROLE_PATH = 5;
const ROLE_PRICE = 6;
const ROLE_NESTED = 7; // inside a skipped container

const CARRY_NONE = 0;
const CARRY_LEXEME = 1;
const CARRY_STRING = 2;

const PRICE_EXPECTED = "a finite non-zero price";

class ByteParser implements PredictionSetParser {
  private readonly nPaths: number;
  private readonly nPoints: number;
  private readonly shared: boolean;
  private readonly onlyMinerUid: number | undefined;
  private readonly maxSets: number;
  private setsBegun = 0;
  private readonly sets: ParsedPredictionSet[] = [];
  /** Bytes of the body before the current chunk. */
  private offset = 0;
  private finished = false;
  private readonly scan: NumberScan = { value: 0, isInt: false };

  // The frame stack: depth -1 before the body's `[` and after its `]`.
  private depth = -1;
  private readonly frameKinds: number[] = [];
  private readonly framePositions: number[] = [];
  private readonly frameCounts: number[] = [];
  private readonly frameRoles: number[] = [];

  // A number, word or string cut by the end of a chunk.
  private carry: Uint8Array = new Uint8Array(64);
  private carryLength = 0;
  private carryKind = CARRY_NONE;
  private carryOffset = 0;
  private carryEscaped = false;

  // The set being read.
  private keyRole = ROLE_OTHER;
  private keyCount = 0;
  private minerUidGot: unknown = undefined;
  private startTimeGot: unknown = undefined;
  private predictionsIsArray = false;
  private predictionsGot: unknown = undefined;
  private pathCount = 0;
  private values: Float64Array = new Float64Array(0);
  private intIndices: Uint32Array = new Uint32Array(0);
  private intCount = 0;
  /** The first problem among the paths, in the validator's order (miner added at the end). */
  private pathProblem: PathSetProblem | undefined = undefined;
  // The path being read.
  private pathIndex = 0;
  private pathOffset = 0;
  /** Points of this path that go into `values`: nPoints, or 0 for a path beyond nPaths. */
  private pointLimit = 0;
  /** The first bad price of this path (-1: none yet) and what it was. */
  private badPoint = -1;
  private badPrice: unknown = undefined;

  constructor(prompt: PredictionBytesPrompt, options: PredictionBytesOptions) {
    const { nPaths, nPoints } = predictionLayout("createPredictionSetParser", prompt);
    this.nPaths = nPaths;
    this.nPoints = nPoints;
    this.shared = options.allocation?.shared === true;
    this.onlyMinerUid = options.minerUid;
    this.maxSets = options.maxSets ?? Infinity;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.carryKind !== CARRY_NONE) start = this.resumeCarry(chunk);
    if (start >= 0) this.run(chunk, start, chunk.length);
    this.offset += chunk.length;
  }

  finish(): ParsedPredictionSet[] {
    if (this.carryKind !== CARRY_NONE || !this.finished) {
      throw new JsonBytesSyntaxError("Unexpected end of input", this.offset);
    }
    return this.sets;
  }

  /** The state machine over `bytes[start … end]`; prices of a path go through `readPrices`. */
  private run(bytes: Uint8Array, start: number, end: number): void {
    let index = start;
    while (index < end) {
      const byte = bytes[index];
      if (byte === SPACE || byte === NEWLINE || byte === RETURN || byte === TAB) {
        index++;
        continue;
      }
      const depth = this.depth;
      if (depth < 0) {
        if (this.finished || byte !== OPEN_BRACKET) throw unexpectedByte(byte, this.offset + index);
        this.pushFrame(FRAME_TOP, ROLE_NESTED);
        index++;
        continue;
      }
      const kind = this.frameKinds[depth];
      const position = this.framePositions[depth];
      const isObject = kind === FRAME_SET || kind === FRAME_OBJECT;
      if (position === EXPECT_AFTER) {
        if (byte === COMMA) this.framePositions[depth] = isObject ? EXPECT_KEY : EXPECT_VALUE;
        else if (byte === (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) this.closeFrame();
        else throw unexpectedByte(byte, this.offset + index);
        index++;
      } else if (position === EXPECT_COLON) {
        if (byte !== COLON) throw unexpectedByte(byte, this.offset + index);
        this.framePositions[depth] = EXPECT_VALUE;
        index++;
      } else if (isObject && position !== EXPECT_VALUE) {
        if (byte === CLOSE_BRACE && position === EXPECT_FIRST) {
          this.closeFrame();
          index++;
        } else if (byte === QUOTE) {
          index = this.readString(bytes, index, end);
        } else {
          throw unexpectedByte(byte, this.offset + index);
        }
      } else if (byte === CLOSE_BRACKET && position === EXPECT_FIRST) {
        this.closeFrame();
        index++;
      } else {
        if (kind === FRAME_PATH) {
          const next = this.readPrices(bytes, index, end);
          if (next !== index) {
            index = next;
            continue;
          }
        }
        index = this.beginValue(bytes, index, end);
      }
    }
  }

  /**
   * The hot loop: prices of the current path, `price , price , …`, written straight into
   * `values`. Returns where it stopped: the end of the bytes, a closing bracket, or anything
   * else (a number cut by the chunk's end, a word, a string), which `run` then reads.
   */
  private readPrices(bytes: Uint8Array, start: number, end: number): number {
    const depth = this.depth;
    const values = this.values;
    const scan = this.scan;
    const limit = this.pointLimit;
    const pathOffset = this.pathOffset;
    let point = this.frameCounts[depth];
    let position = this.framePositions[depth];
    let index = start;
    for (;;) {
      // Inline the common lexeme, `[1-9][0-9]*(.[0-9]+)?` with at most 9 digits on each side of
      // the point and 15 in all, read in int32 arithmetic (a shorter dependency chain per digit
      // than a double's); integer·10^f + fraction is then an exact double and one division rounds
      // it as scanNumber would. Anything else (sign, leading 0, exponent, more digits, the last
      // 40 bytes of a chunk, so that the digit loops need no end check) goes to scanNumber.
      let next = index;
      let byte = bytes[index];
      let integer = 0;
      let integerDigits = 0;
      let fraction = 0;
      let fractionDigits = 0;
      let isInt = true;
      if (byte > ZERO && byte <= NINE && index + 40 <= end) {
        do {
          integer = (integer * 10 + (byte - ZERO)) | 0;
          integerDigits++;
          byte = bytes[++next];
        } while (byte >= ZERO && byte <= NINE);
        if (byte === DOT) {
          isInt = false;
          byte = bytes[++next];
          while (byte >= ZERO && byte <= NINE) {
            fraction = (fraction * 10 + (byte - ZERO)) | 0;
            fractionDigits++;
            byte = bytes[++next];
          }
          if (fractionDigits === 0) next = end;
        }
      } else {
        next = end;
      }
      let price: number;
      if (
        next < end &&
        integerDigits <= 9 &&
        fractionDigits <= 9 &&
        integerDigits + fractionDigits <= 15 &&
        (byte | 0x20) !== LOWER_E
      ) {
        price = isInt
          ? integer
          : (integer * POWERS_OF_TEN[fractionDigits] + fraction) / POWERS_OF_TEN[fractionDigits];
      } else {
        next = scanNumber(bytes, index, end, scan);
        if (next < 0) break;
        price = scan.value;
        isInt = scan.isInt;
      }
      if (point < limit) {
        values[pathOffset + point] = price;
        if (isInt) this.noteIntLexeme(pathOffset + point);
      }
      if (!(price !== 0 && Math.abs(price) < Infinity) && this.badPoint < 0) {
        this.badPoint = point;
        this.badPrice = price;
      }
      point++;
      position = EXPECT_AFTER;
      index = next;
      byte = bytes[index];
      // Compact JSON first: a comma right after the number, a digit right after the comma.
      if (byte !== COMMA) {
        while (byte === SPACE || byte === NEWLINE || byte === RETURN || byte === TAB) {
          if (++index >= end) break;
          byte = bytes[index];
        }
        if (index >= end || byte !== COMMA) break;
      }
      position = EXPECT_VALUE;
      if (++index >= end) break;
      byte = bytes[index];
      if (byte < ZERO || byte > NINE) {
        while (byte === SPACE || byte === NEWLINE || byte === RETURN || byte === TAB) {
          if (++index >= end) break;
          byte = bytes[index];
        }
        if (index >= end) break;
      }
    }
    this.frameCounts[depth] = point;
    this.framePositions[depth] = position;
    return index;
  }

  private noteIntLexeme(flatIndex: number): void {
    if (this.intCount === this.intIndices.length) {
      const grown = new Uint32Array(Math.max(64, this.intIndices.length * 2));
      grown.set(this.intIndices);
      this.intIndices = grown;
    }
    this.intIndices[this.intCount++] = flatIndex;
  }

  /** Starts the value at `bytes[start]`; returns the index after what it read. */
  private beginValue(bytes: Uint8Array, start: number, end: number): number {
    const byte = bytes[start];
    const role = this.expectedRole();
    if (byte === OPEN_BRACKET) {
      if (role === ROLE_PREDICTIONS) this.beginPredictions();
      else if (role === ROLE_PATH) this.beginPath();
      this.pushFrame(
        role === ROLE_PREDICTIONS
          ? FRAME_PREDICTIONS
          : role === ROLE_PATH
            ? FRAME_PATH
            : FRAME_ARRAY,
        role,
      );
      return start + 1;
    }
    if (byte === OPEN_BRACE) {
      if (role === ROLE_SET) this.beginSet();
      this.pushFrame(role === ROLE_SET ? FRAME_SET : FRAME_OBJECT, role);
      return start + 1;
    }
    if (byte === QUOTE) return this.readString(bytes, start, end);
    if (!isLexemeByte(byte)) throw unexpectedByte(byte, this.offset + start);
    let stop = start + 1;
    while (stop < end && isLexemeByte(bytes[stop])) stop++;
    if (stop === end) {
      this.startCarry(bytes, start, end, CARRY_LEXEME, false);
      return end;
    }
    this.completeLexeme(bytes, start, stop, this.offset + start);
    return stop;
  }

  /** Reads the string (key or value) at `bytes[start]`, or carries it when the chunk ends first. */
  private readString(bytes: Uint8Array, start: number, end: number): number {
    const stop = scanStringEnd(bytes, start + 1, end, false);
    if (stop < 0) {
      this.startCarry(bytes, start, end, CARRY_STRING, stop === STRING_OPEN_ESCAPED);
      return end;
    }
    this.completeString(bytes, start, stop, this.offset + start);
    return stop;
  }

  /**
   * A number or word `bytes[start … stop]`, whole; `bytes[stop]` is readable and ends it.
   * `startOffset` is the body offset of `bytes[start]`.
   */
  private completeLexeme(bytes: Uint8Array, start: number, stop: number, startOffset: number) {
    const first = bytes[start];
    const isNumber =
      (first >= 0x30 && first <= 0x39) || (first === 0x2d && bytes[start + 1] !== 0x49);
    if (isNumber) {
      const next = scanNumber(bytes, start, stop + 1, this.scan);
      if (next !== stop) {
        const fault = next === NUMBER_INCOMPLETE ? stop : next < 0 ? -2 - next : next;
        throw unexpectedByte(bytes[fault], startOffset + fault - start);
      }
      this.completeValue(this.scan.value, this.scan.isInt);
      return;
    }
    const value = literalValue(bytes, start, stop);
    if (value === undefined) throw unexpectedByte(first, startOffset);
    this.completeValue(value, false);
  }

  /** A string `bytes[start … stop]` (quotes included), whole: a key or a value. */
  private completeString(bytes: Uint8Array, start: number, stop: number, startOffset: number) {
    const fault = stringFaultIndex(bytes, start, stop);
    if (fault >= 0) throw unexpectedByte(bytes[fault], startOffset + fault - start);
    const depth = this.depth;
    const kind = this.frameKinds[depth];
    const position = this.framePositions[depth];
    if ((kind === FRAME_SET || kind === FRAME_OBJECT) && position !== EXPECT_VALUE) {
      if (kind === FRAME_SET) {
        this.keyCount++;
        this.keyRole = stringEquals(bytes, start, stop, "predictions")
          ? ROLE_PREDICTIONS
          : stringEquals(bytes, start, stop, "miner_uid")
            ? ROLE_MINER_UID
            : stringEquals(bytes, start, stop, "start_time")
              ? ROLE_START_TIME
              : ROLE_OTHER;
      }
      this.framePositions[depth] = EXPECT_COLON;
      return;
    }
    const role = this.expectedRole();
    const ignored = role === ROLE_OTHER || role === ROLE_NESTED || role === ROLE_SET;
    this.completeValue(ignored ? undefined : stringValue(bytes, start, stop), false);
  }

  /** The role of the value the current frame expects. */
  private expectedRole(): number {
    const kind = this.frameKinds[this.depth];
    if (kind === FRAME_TOP) return ROLE_SET;
    if (kind === FRAME_SET) return this.keyRole;
    if (kind === FRAME_PREDICTIONS) return ROLE_PATH;
    if (kind === FRAME_PATH) return ROLE_PRICE;
    return ROLE_NESTED;
  }

  /**
   * A value other than a set object, the predictions array or a path array has ended: keep what
   * its role needs (`value` is what an error message shows: the number, string, `array(n)`…).
   */
  private completeValue(value: unknown, isInt: boolean): void {
    const depth = this.depth;
    const role = this.expectedRole();
    const count = this.frameCounts[depth];
    if (role === ROLE_PRICE) {
      if (typeof value === "number") {
        if (count < this.pointLimit) {
          this.values[this.pathOffset + count] = value;
          if (isInt) this.noteIntLexeme(this.pathOffset + count);
        }
      }
      if (
        !(typeof value === "number" && value !== 0 && Math.abs(value) < Infinity) &&
        this.badPoint < 0
      ) {
        this.badPoint = count;
        this.badPrice = value;
      }
    } else if (role === ROLE_PATH) {
      this.pathProblem ??= {
        path: count,
        expected: `an array of ${this.nPoints} prices`,
        got: value,
      };
    } else if (role === ROLE_MINER_UID) {
      this.minerUidGot = value;
    } else if (role === ROLE_START_TIME) {
      this.startTimeGot = value;
    } else if (role === ROLE_PREDICTIONS) {
      this.predictionsIsArray = false;
      this.predictionsGot = value;
    } else if (role === ROLE_SET) {
      // Not an object: `record?.miner_uid` is undefined for it.
      this.keepSet({
        minerUid: undefined,
        startTime: undefined,
        nPaths: this.nPaths,
        nPoints: this.nPoints,
        values: new Float64Array(0),
        intLexemeIndices: new Uint32Array(0),
        error: new PathSetError({ subject: "miner_uid", expected: "an integer", got: undefined }),
        keyCount: 0,
      });
    }
    this.frameCounts[depth] = count + 1;
    this.framePositions[depth] = EXPECT_AFTER;
  }

  private pushFrame(kind: number, role: number): void {
    const depth = ++this.depth;
    this.frameKinds[depth] = kind;
    this.framePositions[depth] = EXPECT_FIRST;
    this.frameCounts[depth] = 0;
    this.frameRoles[depth] = role;
  }

  /** Closes the current frame (its closing bracket was read). */
  private closeFrame(): void {
    const depth = this.depth--;
    const kind = this.frameKinds[depth];
    const count = this.frameCounts[depth];
    const role = this.frameRoles[depth];
    if (kind === FRAME_TOP) {
      this.finished = true;
      return;
    }
    if (kind === FRAME_PATH) this.endPath(count);
    else if (kind === FRAME_PREDICTIONS) this.pathCount = count;
    else if (kind === FRAME_SET) this.endSet();
    if (kind === FRAME_ARRAY || kind === FRAME_OBJECT) {
      const ignored = role === ROLE_OTHER || role === ROLE_NESTED || role === ROLE_SET;
      // describeValue shows an array as `array(n)` from its length alone.
      this.completeValue(ignored ? undefined : kind === FRAME_ARRAY ? new Array(count) : {}, false);
    } else {
      this.frameCounts[this.depth]++;
      this.framePositions[this.depth] = EXPECT_AFTER;
    }
  }

  private beginSet(): void {
    if (++this.setsBegun > this.maxSets) {
      throw new RangeError(
        `createPredictionSetParser: the body holds more than ${this.maxSets} prediction sets (maxSets)`,
      );
    }
    this.keyRole = ROLE_OTHER;
    this.keyCount = 0;
    this.minerUidGot = undefined;
    this.startTimeGot = undefined;
    this.predictionsIsArray = false;
    this.predictionsGot = undefined;
    this.pathCount = 0;
    this.pathProblem = undefined;
    this.values = EMPTY_VALUES;
    this.intIndices = new Uint32Array(64);
    this.intCount = 0;
  }

  /** A `predictions` array begins (a repeated key's last value wins, as in JSON.parse). */
  private beginPredictions(): void {
    // Allocated at the set's first `predictions` array (a repeated key reuses it, zeroed).
    if (this.values === EMPTY_VALUES) {
      this.values = allocateValues(this.nPaths * this.nPoints, this.shared);
    } else {
      this.values.fill(0);
    }
    this.predictionsIsArray = true;
    this.predictionsGot = undefined;
    this.pathCount = 0;
    this.pathProblem = undefined;
    this.intCount = 0;
  }

  private beginPath(): void {
    const pathIndex = this.frameCounts[this.depth];
    this.pathIndex = pathIndex;
    this.pathOffset = pathIndex * this.nPoints;
    this.pointLimit = pathIndex < this.nPaths ? this.nPoints : 0;
    this.badPoint = -1;
    this.badPrice = undefined;
  }

  /** A path of `points` points has ended: its problem, in the validator's order (count first). */
  private endPath(points: number): void {
    if (this.pathProblem !== undefined) return;
    if (points !== this.nPoints) {
      this.pathProblem = {
        path: this.pathIndex,
        subject: "Number of time points is incorrect",
        expected: String(this.nPoints),
        got: points,
      };
    } else if (this.badPoint >= 0) {
      this.pathProblem = {
        path: this.pathIndex,
        point: this.badPoint,
        expected: PRICE_EXPECTED,
        got: this.badPrice,
      };
    }
  }

  /** A set's object has closed: its first failure in pathSetFromPrediction's order. */
  private endSet(): void {
    const minerUid = this.minerUidGot;
    const startTime = this.startTimeGot;
    let error: PathSetError | undefined;
    if (!Number.isInteger(minerUid)) {
      error = new PathSetError({ subject: "miner_uid", expected: "an integer", got: minerUid });
    } else {
      const uid = minerUid as number;
      if (!Number.isInteger(startTime)) {
        error = new PathSetError({
          minerUid: uid,
          subject: "start_time",
          expected: "an integer (Unix seconds)",
          got: startTime,
        });
      } else if (!this.predictionsIsArray) {
        error = new PathSetError({
          minerUid: uid,
          subject: "predictions",
          expected: "an array of paths",
          got: this.predictionsGot,
        });
      } else if (this.pathCount !== this.nPaths) {
        error = new PathSetError({
          minerUid: uid,
          subject: "Number of paths is incorrect",
          expected: String(this.nPaths),
          got: this.pathCount,
        });
      } else if (this.pathProblem !== undefined) {
        error = new PathSetError({ minerUid: uid, ...this.pathProblem });
      }
    }
    this.keepSet({
      minerUid: typeof minerUid === "number" ? minerUid : undefined,
      startTime: typeof startTime === "number" ? startTime : undefined,
      nPaths: this.nPaths,
      nPoints: this.nPoints,
      values: this.values,
      intLexemeIndices: this.intIndices.slice(0, this.intCount),
      error,
      keyCount: this.keyCount,
    });
  }

  /** Adds a finished set to the result, unless `options.minerUid` names another miner. */
  private keepSet(set: ParsedPredictionSet): void {
    if (this.onlyMinerUid === undefined || set.minerUid === this.onlyMinerUid) this.sets.push(set);
  }

  private startCarry(
    bytes: Uint8Array,
    start: number,
    end: number,
    kind: number,
    escaped: boolean,
  ): void {
    this.carryKind = kind;
    this.carryLength = 0;
    this.carryOffset = this.offset + start;
    this.carryEscaped = escaped;
    this.appendCarry(bytes, start, end);
  }

  private appendCarry(bytes: Uint8Array, start: number, end: number): void {
    const needed = this.carryLength + (end - start) + 1;
    if (needed > this.carry.length) {
      const grown = new Uint8Array(Math.max(needed, this.carry.length * 2));
      grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(bytes.subarray(start, end), this.carryLength);
    this.carryLength += end - start;
  }

  /**
   * Completes the carried number, word or string with the start of `chunk`; returns where the
   * chunk continues after it, or -1 when the whole chunk was carried too.
   */
  private resumeCarry(chunk: Uint8Array): number {
    const length = chunk.length;
    if (this.carryKind === CARRY_LEXEME) {
      let stop = 0;
      while (stop < length && isLexemeByte(chunk[stop])) stop++;
      this.appendCarry(chunk, 0, stop);
      if (stop === length) return -1;
      this.carryKind = CARRY_NONE;
      // The byte that ended the lexeme follows it, for scanNumber (appendCarry keeps room).
      this.carry[this.carryLength] = chunk[stop];
      this.completeLexeme(this.carry, 0, this.carryLength, this.carryOffset);
      return stop;
    }
    const stop = scanStringEnd(chunk, 0, length, this.carryEscaped);
    if (stop < 0) {
      this.appendCarry(chunk, 0, length);
      this.carryEscaped = stop === STRING_OPEN_ESCAPED;
      return -1;
    }
    this.appendCarry(chunk, 0, stop);
    this.carryKind = CARRY_NONE;
    this.completeString(this.carry, 0, this.carryLength, this.carryOffset);
    return stop;
  }
}
