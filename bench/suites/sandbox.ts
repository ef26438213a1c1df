/**
 * The sandbox server's one large body: prediction sets as JSON (`/v2/prediction/*`), written by
 * `predictionSetJson` byte by byte, beside the readable `JSON.stringify` of nested arrays. The
 * issue's target for `/v2/prediction/latest` (10 miners, ≤ 1 s) is end to end: the world's
 * generation of the paths and the HTTP transfer come on top of what is timed here.
 */

import { predictionSetJson } from "../../src/sandbox/server/predictionSetJson.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

const START_TIME = 1772063100;

/** The readable form: nested arrays from the path-major prices, then JSON.stringify. */
function predictionSetNaive(minerUid: number, values: Float64Array): Buffer {
  const predictions: number[][] = [];
  for (let path = 0; path < PATHS_PER_MINER; path++) {
    predictions.push(Array.from(values.subarray(path * POINTS, (path + 1) * POINTS)));
  }
  return Buffer.from(JSON.stringify({ miner_uid: minerUid, start_time: START_TIME, predictions }));
}

export const suite = defineSuite({
  name: "sandbox",
  cases: (data) => {
    const nested = data.miners.map((values) =>
      Array.from({ length: PATHS_PER_MINER }, (_, path) =>
        Array.from(values.subarray(path * POINTS, (path + 1) * POINTS)),
      ),
    );
    return [
      {
        name: "predictionSetJson (one prediction set)",
        size: `${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () => predictionSetJson(17, START_TIME, data.miner0, PATHS_PER_MINER, POINTS),
        naive: () => predictionSetNaive(17, data.miner0),
      },
      {
        name: "/v2/prediction/latest body (10 sets, uncached)",
        size: `${MINERS} × ${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () =>
          data.miners.map((values, uid) =>
            predictionSetJson(uid, START_TIME, values, PATHS_PER_MINER, POINTS),
          ),
        naive: () => data.miners.map((values, uid) => predictionSetNaive(uid, values)),
        targetMs: 1000,
        note: "target is end to end (+ world generation, HTTP)",
      },
      {
        name: "  variant: JSON.stringify of ready nested arrays (10 sets)",
        size: `${MINERS} × ${PATHS_PER_MINER.toLocaleString("en")} × ${POINTS}`,
        pathlab: () =>
          nested.map((predictions, uid) =>
            Buffer.from(JSON.stringify({ miner_uid: uid, start_time: START_TIME, predictions })),
          ),
        note: "not used: the world's paths are Float64Arrays",
      },
    ] satisfies BenchCase[];
  },
});
