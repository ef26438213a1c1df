/**
 * pathlab/paths: path sets and ensembles as Float64Arrays and Arrow tables: a service's prediction
 * bytes parsed straight into one Float64Array per set, ensembles pooled from several miners, and
 * Arrow tables that share those arrays.
 *
 * The root entry `pathlab` re-exports it whole.
 * @module pathlab/paths
 */
export * from "./pathSet.ts";
export * from "./pathSetError.ts";
export { pathSetFromPrediction } from "./fromPrediction.ts";
export type { PredictionPrompt } from "./fromPrediction.ts";
export * from "./predictionBytes.ts";
export * from "./arrow.ts";
export * from "./ensemble.ts";
