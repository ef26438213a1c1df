/**
 * Ingest: a prediction-set response body (bytes, in 64 KiB chunks as undici delivers them) →
 * PathSet, parsed straight from the bytes (`src/paths/predictionBytes.ts`), beside the path the
 * client took before (the body as text with the key redacted, JSON.parse, the operation's decoder,
 * pathSetFromPrediction) and numpy (`json.loads` + `np.asarray`).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactSecrets } from "../../src/client/redact.ts";
import { pathSetFromPrediction } from "../../src/paths/fromPrediction.ts";
import { pathSetsFromPredictionBytes } from "../../src/paths/predictionBytes.ts";
import { createRandom } from "../../src/reference/random.ts";
import { neutralNaming } from "../../src/domain/naming.ts";
import { operationByPath } from "../../src/domain/operations.ts";
import type { PredictionSet } from "../../src/domain/records/prediction-set.ts";
import { defineSuite, PATHS_PER_MINER, POINTS, TIME_INCREMENT } from "../harness.ts";

const PROMPT = { asset: "BTC", timeIncrement: TIME_INCREMENT, timeLength: 86400 };
const CHUNK_BYTES = 65536;

/** The file (in the bench data folder) of the mixed-digits body, which the numpy peer reads too. */
export const MIXED_BODY_FILE = "ingest-mixed.json";

/**
 * miner 0's prices as miners write them: 80 % with 6–9 significant digits, 20 % with 1–17
 * (Python's repr of an unrounded float has 16–17), as a `/v2/prediction/latest` body.
 */
function mixedDigitsBody(values: Float64Array): string {
  const random = createRandom(20261126);
  const predictions: number[][] = [];
  for (let path = 0; path < PATHS_PER_MINER; path++) {
    const row: number[] = [];
    for (let point = 0; point < POINTS; point++) {
      const digits =
        random.uniform() < 0.8
          ? 6 + Math.floor(random.uniform() * 4)
          : 1 + Math.floor(random.uniform() * 17);
      const price = values[path * POINTS + point] * (1 + random.uniform() * 1e-6);
      row.push(Number(price.toPrecision(digits)));
    }
    predictions.push(row);
  }
  return JSON.stringify([{ miner_uid: 17, start_time: 1772063100, predictions }]);
}

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    chunks.push(bytes.subarray(start, start + CHUNK_BYTES));
  }
  return chunks;
}

const utf8 = new TextDecoder("utf-8");

const OPERATION = operationByPath("/v2/prediction/historical");
const SECRETS = ["sk-bench-0123456789abcdef"];

/**
 * The client's path before reading bytes: the whole body as text with the key redacted, JSON.parse,
 * the operation's decoder (every number checked), then pathSetFromPrediction.
 */
function todaysPath(chunks: readonly Uint8Array[], length: number) {
  const body = new Uint8Array(length);
  let offset = 0;
  for (let index = 0; index < chunks.length; index++) {
    body.set(chunks[index], offset);
    offset += chunks[index].length;
  }
  const json = JSON.parse(redactSecrets(utf8.decode(body), SECRETS)) as unknown;
  const sets = OPERATION.decode(json, { naming: neutralNaming }) as PredictionSet[];
  return pathSetFromPrediction(sets[0], PROMPT);
}

export const suite = defineSuite({
  name: "ingest",
  cases: (data) => {
    const mixedText = mixedDigitsBody(data.miner0);
    writeFileSync(join(data.directory, MIXED_BODY_FILE), mixedText);
    const bodies = [
      { label: "8 significant digits", bytes: new TextEncoder().encode(data.predictionJson) },
      { label: "mixed 1–17 digits", bytes: new TextEncoder().encode(mixedText) },
    ];
    return bodies.flatMap(({ label, bytes }, index) => {
      const chunks = chunksOf(bytes);
      const parsed = JSON.parse(utf8.decode(bytes)) as unknown;
      const size = `1,000 × 289 (${(bytes.length / 1e6).toFixed(1)} MB)`;
      return [
        {
          name: `body bytes → PathSet, ${label}`,
          size,
          pathlab: () => pathSetsFromPredictionBytes(chunks, PROMPT)[0],
          naive: () => todaysPath(chunks, bytes.length),
          peer: { script: "ingest", case: index === 0 ? "bytes_to_array" : "mixed_bytes_to_array" },
          note: "naive = the client's path before: text, redaction, JSON.parse, decoder, PathSet",
        },
        {
          name: `  JSON.parse alone (TextDecoder included), ${label}`,
          size,
          pathlab: () => JSON.parse(utf8.decode(bytes)) as unknown,
          note: "reference",
        },
        {
          name: `  the operation's decoder alone (every number checked), ${label}`,
          size,
          pathlab: () => OPERATION.decode(parsed, { naming: neutralNaming }),
          targetMs: 10,
        },
      ];
    });
  },
});
