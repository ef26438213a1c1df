/** The prediction set record of `/v2/prediction/*`: one miner's simulated price paths. */
import {
  arrayOf,
  failDecode,
  finiteNumberArrayCodec,
  integerCodec,
  objectOf,
  refine,
  type Codec,
} from "../decode.ts";

/**
 * One miner's paths for one prompt: 1,000 paths of 289 points (24 h at 300 s) in the spec.
 * @example
 * const record: PredictionSet = { miner_uid: 47, start_time: 1772063100, predictions: [[67676.6, 67680.1]] };
 */
export interface PredictionSet {
  miner_uid: number;
  /** Unix seconds. */
  start_time: number;
  /** Paths of equal length (checked when decoding), finite prices. */
  predictions: number[][];
}

/** Paths as an array of finite-number arrays, all of the same length. */
const pathsCodec: Codec<number[][]> = refine(arrayOf(finiteNumberArrayCodec), (paths, state) => {
  if (paths.length === 0) return;
  const points = paths[0].length;
  for (let index = 1; index < paths.length; ++index) {
    if (paths[index].length !== points) {
      state.path.push(index);
      failDecode(state, `${points} points like predictions[0]`, paths[index]);
    }
  }
});

/**
 * Codec of {@link PredictionSet}. Decoding 1000 × 289 numbers is one plain loop per path.
 * @example
 * predictionSetCodec.decode({ miner_uid: 1, start_time: 0, predictions: [[1, 2]] }, state).predictions[0][1] // => 2
 */
export const predictionSetCodec: Codec<PredictionSet> = objectOf<PredictionSet>({
  miner_uid: integerCodec,
  start_time: integerCodec,
  predictions: pathsCodec,
});

/**
 * Codec of the prediction operations' responses: an array of {@link PredictionSet}.
 * @example
 * predictionSetsCodec.decode([], state) // => []
 */
export const predictionSetsCodec: Codec<PredictionSet[]> = arrayOf(predictionSetCodec);
