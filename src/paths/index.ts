/**
 * pathlab/paths: path sets and ensembles as Float64Arrays and Arrow tables: a service's prediction
 * bytes parsed straight into one Float64Array per set, ensembles pooled from several miners, and
 * Arrow tables that share those arrays.
 *
 * The root entry `pathlab` re-exports it whole.
 * @module pathlab/paths
 */
export type { PathSet, PathSetAllocation } from "./pathSet.ts";
export { allocateValues } from "./pathSet.ts";
export { PathSetError } from "./pathSetError.ts";
export type { PathSetProblem } from "./pathSetError.ts";
export { pathSetFromPrediction } from "./fromPrediction.ts";
export type { PredictionPrompt } from "./fromPrediction.ts";
export {
  createPredictionSetParser,
  parsePredictionSetBytes,
  pathSetOfParsed,
  pathSetsFromPredictionBytes,
} from "./predictionBytes.ts";
export type {
  ParsedPredictionSet,
  PredictionBytesOptions,
  PredictionBytesPrompt,
  PredictionSetParser,
} from "./predictionBytes.ts";
export { toArrowTable, pathSetFromArrow, float64ValuesOf } from "./arrow.ts";
export type { ArrowPathSetMeta } from "./arrow.ts";
export { Ensemble, ensembleOf } from "./ensemble.ts";
export type { EnsembleMember, EnsembleOptions, RebaseMode } from "./ensemble.ts";
