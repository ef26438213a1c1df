/**
 * One miner's prediction sets for a prompt, read from the response's bytes as they arrive
 * (`client.requestStreamed` with the paths layer's byte parser): each set straight into its
 * Float64Array, with no body text and no arrays of arrays. A body the fast reading does not take
 * as it is is decoded the general way instead (`JSON.parse` and the operation's decoder, on the
 * same bytes), so that it gets the records, errors and reasons it got before the fast reading:
 * a body that is not JSON, holds Python's `NaN` or `Infinity` (which `JSON.parse` refuses; any
 * `N` or `I` byte is taken for one), holds more sets than miners were asked for,
 * or has a set that fails `pathSetFromPrediction`'s checks (counts, a price that is not a finite
 * positive number, a `miner_uid` or `start_time` that is not an integer). For that the decoding
 * keeps a copy of the body until it ends: one body per request in flight, besides the sets.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import { DecodeAsUsual, type StreamedDecoder } from "../../client/streamed-decoder.ts";
import {
  pathSetFromPrediction,
  predictionLayout,
  type PredictionPrompt,
} from "../../paths/fromPrediction.ts";
import type { PathSet, PathSetAllocation } from "../../paths/pathSet.ts";
import {
  createPredictionSetParser,
  pathSetOfParsed,
  type ParsedPredictionSet,
  type PredictionBytesPrompt,
} from "../../paths/predictionBytes.ts";
import type { PredictionHistoricalParams } from "../../domain/params.ts";
import type { PredictionSet } from "../../domain/records/prediction-set.ts";
import { JsonNumberPrices } from "../../domain/responseValidation.ts";

/**
 * One set of a body, as {@link fetchPredictionSets} read it (from bytes, or the general way): the
 * same answers either way.
 * @example const pathSet = fetched.find((set) => set.minerUid === 17)?.pathSet();
 */
export interface FetchedPredictionSet {
  /** `miner_uid` as the body has it. */
  readonly minerUid: unknown;
  /** `start_time` as the body has it. */
  readonly startTime: unknown;
  /** The paths as the validator's response checks (`validateResponse`) read them. */
  validatorPaths(): unknown[];
  /** The set's PathSet, or the PathSetError `pathSetFromPrediction` throws for it. */
  pathSet(): PathSet;
}

/** What the decoder gives for a body it takes: every set valid by `pathSetFromPrediction`. */
interface ParsedSets {
  readonly parsed: readonly ParsedPredictionSet[];
}

/**
 * A decoder of prediction-set bodies for `client.requestStreamed` (see the module comment): a
 * fresh byte parser per attempt, and a {@link DecodeAsUsual} for a body it does not take. Throws
 * `RangeError` at once for prompt values that are not positive integers.
 * @example const fetched = await client.requestStreamed("/v2/prediction/historical", params, predictionSetsDecoder(prompt, {}, 1));
 */
export function predictionSetsDecoder(
  prompt: PredictionBytesPrompt,
  allocation: PathSetAllocation = {},
  maxSets = Infinity,
): StreamedDecoder<ParsedSets> {
  predictionLayout("predictionSetsDecoder", prompt);
  return {
    start() {
      const parser = createPredictionSetParser(prompt, { allocation, maxSets });
      const chunks: Buffer[] = [];
      let readable = true;
      return {
        push(chunk) {
          const copy = Buffer.from(chunk);
          chunks.push(copy);
          if (!readable) return;
          // Python's NaN and Infinity, which JSON.parse refuses (outside prices too).
          if (copy.includes(UPPER_N) || copy.includes(UPPER_I)) readable = false;
          else {
            try {
              parser.push(chunk);
            } catch (error) {
              // Not JSON, or more sets than asked for: the general decoding says what it says.
              if (!(error instanceof SyntaxError || error instanceof RangeError)) throw error;
              readable = false;
            }
          }
        },
        finish() {
          if (readable) {
            try {
              const sets = parser.finish();
              if (sets.every((set) => set.error === undefined)) return { parsed: sets };
            } catch (error) {
              if (!(error instanceof SyntaxError)) throw error;
            }
          }
          return new DecodeAsUsual(Buffer.concat(chunks));
        },
      };
    },
  };
}

const UPPER_N = 0x4e;
const UPPER_I = 0x49;

/**
 * Fetches `/v2/prediction/historical` for `params`, the sets read from bytes where the body allows
 * (see the module comment), each with its PathSet allocated as `allocation` says.
 * @example const fetched = await fetchPredictionSets(client, params, { asset: "BTC", timeIncrement: 300, timeLength: 86400 });
 */
export async function fetchPredictionSets(
  client: PathlabClient,
  params: PredictionHistoricalParams,
  prompt: PredictionPrompt,
  allocation: PathSetAllocation = {},
): Promise<FetchedPredictionSet[]> {
  const decoder = predictionSetsDecoder(prompt, allocation, params.miner?.length ?? Infinity);
  const fetched = await client.requestStreamed("/v2/prediction/historical", params, decoder);
  if (Array.isArray(fetched)) {
    return fetched.map((record: PredictionSet) => ({
      minerUid: record.miner_uid,
      startTime: record.start_time,
      validatorPaths: () => record.predictions as unknown[],
      pathSet: () => pathSetFromPrediction(record, prompt, allocation),
    }));
  }
  return fetched.parsed.map((parsed) => ({
    minerUid: parsed.minerUid,
    startTime: parsed.startTime,
    validatorPaths: () => validatorPaths(parsed),
    pathSet: () => pathSetOfParsed(parsed, prompt),
  }));
}

/**
 * The paths of a parsed set as the validator's response checks (`validateResponse`) read them,
 * the way `JSON.parse` reads the same text: every price a number, a whole one an int however it
 * was written (`JsonNumberPrices`, views of the set's values).
 * @example validateResponse([set.startTime, 300, ...validatorPaths(set)], prompt, { at })
 */
export function validatorPaths(set: ParsedPredictionSet): JsonNumberPrices[] {
  const { nPaths, nPoints, values } = set;
  const paths: JsonNumberPrices[] = [];
  for (let path = 0; path < nPaths; path++) {
    paths.push(new JsonNumberPrices(values.subarray(path * nPoints, (path + 1) * nPoints)));
  }
  return paths;
}
