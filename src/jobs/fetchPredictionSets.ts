/**
 * One miner's prediction sets for a prompt, read from the response's bytes as they arrive
 * (`client.requestStreamed` with the paths layer's byte parser): each set straight into its
 * Float64Array, with no body text and no arrays of arrays. A body the fast reading does not take
 * as it is (not JSON, or a set that fails `pathSetFromPrediction`'s checks: counts, a price that
 * is not a finite positive number, a `miner_uid` or `start_time` that is not an integer) is decoded
 * the general way instead (`JSON.parse` and the operation's decoder, on the same bytes), so that
 * it gets exactly the records, errors and reasons it always got. For that the decoding keeps a copy
 * of the body until it ends: one body per request in flight, besides the sets.
 */

import type { PathlabClient } from "../client/pathlab-client.ts";
import { DecodeAsUsual, type StreamedDecoder } from "../client/streamed-decoder.ts";
import type { PathSetAllocation } from "../paths/pathSet.ts";
import {
  createPredictionSetParser,
  type ParsedPredictionSet,
  type PredictionBytesPrompt,
} from "../paths/predictionBytes.ts";
import type { PredictionHistoricalParams } from "../spec/params.ts";
import { PythonFloat } from "../spec/pythonJson.ts";
import type { PredictionSet } from "../spec/records/prediction-set.ts";

/**
 * What {@link fetchPredictionSets} read: the sets parsed from bytes, every one of them valid by
 * `pathSetFromPrediction`'s checks (`parsed`), or the records of a body that was not, decoded the
 * general way (`records`).
 * @example if (fetched.kind === "parsed") fetched.sets[0].values.length // => 289000
 */
export type FetchedPredictionSets =
  | { readonly kind: "parsed"; readonly sets: readonly ParsedPredictionSet[] }
  | { readonly kind: "records"; readonly sets: readonly PredictionSet[] };

type ParsedSets = Extract<FetchedPredictionSets, { kind: "parsed" }>;

/**
 * A decoder of prediction-set bodies for `client.requestStreamed` (see the module comment): a
 * fresh byte parser per attempt, and a {@link DecodeAsUsual} for a body it does not take.
 * @example const fetched = await client.requestStreamed("/v2/prediction/historical", params, predictionSetsDecoder(prompt));
 */
export function predictionSetsDecoder(
  prompt: PredictionBytesPrompt,
  allocation: PathSetAllocation = {},
): StreamedDecoder<ParsedSets> {
  return {
    start() {
      const parser = createPredictionSetParser(prompt, { allocation });
      const chunks: Buffer[] = [];
      let readable = true;
      return {
        push(chunk) {
          chunks.push(Buffer.from(chunk));
          if (!readable) return;
          try {
            parser.push(chunk);
          } catch (error) {
            // Not JSON: JSON.parse will say so in its own words.
            if (!(error instanceof SyntaxError)) throw error;
            readable = false;
          }
        },
        finish() {
          if (readable) {
            try {
              const sets = parser.finish();
              if (sets.every((set) => set.error === undefined)) return { kind: "parsed", sets };
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

/**
 * Fetches `/v2/prediction/historical` for `params` (see the module comment).
 * @example const fetched = await fetchPredictionSets(client, params, { timeIncrement: 300, timeLength: 86400 });
 */
export async function fetchPredictionSets(
  client: PathlabClient,
  params: PredictionHistoricalParams,
  prompt: PredictionBytesPrompt,
  allocation: PathSetAllocation = {},
): Promise<FetchedPredictionSets> {
  const decoder = predictionSetsDecoder(prompt, allocation);
  const fetched = await client.requestStreamed("/v2/prediction/historical", params, decoder);
  return Array.isArray(fetched) ? { kind: "records", sets: fetched } : fetched;
}

/**
 * The paths of a parsed set as the validator's response checks read them (`validateResponse`):
 * a path whose prices were all written with a fraction or an exponent is a Float64Array view
 * (Python floats); a path with prices written as integers is an array whose integers are numbers
 * (Python ints) and whose whole floats are {@link PythonFloat}s, as Python's `json.loads` reads
 * them.
 * @example validateResponse([set.startTime, 300, ...pythonPaths(set)], prompt, { at })
 */
export function pythonPaths(set: ParsedPredictionSet): (Float64Array | unknown[])[] {
  const { nPaths, nPoints, values, intLexemeIndices } = set;
  const paths: (Float64Array | unknown[])[] = [];
  let nextInt = 0;
  for (let path = 0; path < nPaths; path++) {
    const start = path * nPoints;
    const end = start + nPoints;
    if (nextInt >= intLexemeIndices.length || intLexemeIndices[nextInt] >= end) {
      paths.push(values.subarray(start, end));
      continue;
    }
    const prices: unknown[] = [];
    for (let index = start; index < end; index++) {
      const value = values[index];
      if (nextInt < intLexemeIndices.length && intLexemeIndices[nextInt] === index) {
        prices.push(value);
        nextInt++;
      } else {
        prices.push(Number.isInteger(value) ? new PythonFloat(value) : value);
      }
    }
    paths.push(prices);
  }
  return paths;
}
