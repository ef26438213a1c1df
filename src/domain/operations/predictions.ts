/** The prediction operations (`/v2/prediction/*`): miners' raw price paths. */
import { PREDICTION_ASSETS } from "../assets.ts";
import { codecOperation } from "../define-operation.ts";
import type { ParamSpec } from "../operation.ts";
import {
  paramSpec,
  timeIncrementSpec,
  timeLengthSpec,
  type MetamodelHistoricalParams,
  type PredictionHistoricalParams,
  type PredictionLatestParams,
  type PredictionParams,
} from "../params.ts";
import { predictionSetsCodec } from "../records/prediction-set.ts";

const commonParams: readonly ParamSpec[] = [
  paramSpec("asset", "string", true, "asset symbol", { allowed: PREDICTION_ASSETS }),
  timeIncrementSpec(true),
  timeLengthSpec(true),
];

const minerParam = paramSpec("miner", "integer", true, "miner uid (neuron_uid), repeated", {
  repeated: true,
  min: 0,
});

const startTimeParam = paramSpec("start_time", "time", true, "start time of the prediction");

const shared = {
  section: "predictions",
  pathShown: true,
  auth: true,
  credits: false,
  ranges: [],
  codec: predictionSetsCodec,
} as const;

/**
 * The predictions section of the operations table. The metamodel operations' parameters and
 * responses are not shown by the spec: pathlab gives them the common parameters (and a required
 * `start_time` for the historical one) and decodes arrays of prediction sets.
 * @example
 * predictionOperations.latest.params.map((param) => param.name) // => ["asset", "time_increment", "time_length", "miner", "limit"]
 */
export const predictionOperations = {
  best: codecOperation<PredictionParams>()({
    ...shared,
    path: "/v2/prediction/best",
    method: "best",
    summary: "Prediction set of the current top-ranked miner (array of one)",
    params: commonParams,
  }),
  latest: codecOperation<PredictionLatestParams>()({
    ...shared,
    path: "/v2/prediction/latest",
    method: "latest",
    summary: "Latest prediction sets of the requested miners",
    params: [
      ...commonParams,
      minerParam,
      paramSpec("limit", "integer", false, "earlier form", { default: 10, min: 1 }),
    ],
  }),
  historical: codecOperation<PredictionHistoricalParams>()({
    ...shared,
    path: "/v2/prediction/historical",
    method: "historical",
    summary: "Prediction sets of the requested miners for one start time",
    params: [...commonParams, minerParam, startTimeParam],
  }),
  metamodel: codecOperation<PredictionParams>()({
    ...shared,
    path: "/v2/prediction/metamodel",
    method: "metamodel",
    summary: "Metamodel paths (parameters and response not shown; decoded as prediction sets)",
    params: commonParams,
  }),
  metamodelHistorical: codecOperation<MetamodelHistoricalParams>()({
    ...shared,
    path: "/v2/prediction/metamodel/historical",
    method: "metamodelHistorical",
    summary: "Historical metamodel paths (parameters and response not shown; as prediction sets)",
    params: [...commonParams, startTimeParam],
  }),
} as const;
