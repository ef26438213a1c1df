/** The validation operations: scores, prompts and realized prices. Public (no API key). */
import { PROMPT_NAMES } from "../assets.ts";
import { DEFAULT_PATHS } from "../default-paths.ts";
import { codecOperation } from "../define-operation.ts";
import {
  competitionSpec,
  paramSpec,
  timeIncrementSpec,
  timeLengthSpec,
  validationAssetSpec,
  type MinerValidationParams,
  type MultiAssetMinutesParams,
  type PromptsParams,
  type RealizedPathParams,
  type ScoresHistoricalParams,
  type ScoresLatestParams,
  type SmoothedScoresParams,
  type UidHoldersParams,
} from "../params.ts";
import {
  minerValidationCodec,
  multiAssetMinuteRowsCodec,
  promptListCodec,
  realizedPathCodec,
  scoreRowsCodec,
  smoothedScoreRowsCodec,
  uidHolderRowsCodec,
} from "../records/validation.ts";

const shared = { section: "validation", auth: false, credits: false } as const;

const from = paramSpec("from", "time", true, "start of the range (ISO 8601 time or date)");
const to = paramSpec("to", "time", true, "end of the range (ISO 8601 time or date)");
const minerUid = paramSpec("miner_uid", "integer", false, "miner uid", { min: 0 });

/**
 * The validation section of the operations table. Range limits: smoothed scores `to` ≤ `from` + 7
 * days; uid holders ≤ 30 days and multi-asset minutes ≤ 2 days, `to` being an inclusive UTC day;
 * historical scores and prompts only require `to` not before `from`.
 * @example
 * validationOperations.smoothedScores.ranges[0].maxDays // => 7
 */
export const validationOperations = {
  miner: codecOperation<MinerValidationParams>()({
    ...shared,
    path: DEFAULT_PATHS.minerValidation,
    method: "miner",
    summary: "Whether a miner's latest submission passed validation, and why not",
    pathShown: false,
    params: [paramSpec("uid", "integer", true, "miner uid", { min: 0 })],
    ranges: [],
    codec: minerValidationCodec,
  }),
  scoresLatest: codecOperation<ScoresLatestParams>()({
    ...shared,
    path: DEFAULT_PATHS.scoresLatest,
    method: "scoresLatest",
    summary: "Latest prompt scores",
    pathShown: false,
    params: [validationAssetSpec(), timeIncrementSpec(false), timeLengthSpec(false)],
    ranges: [],
    codec: scoreRowsCodec,
  }),
  scoresHistorical: codecOperation<ScoresHistoricalParams>()({
    ...shared,
    path: DEFAULT_PATHS.scoresHistorical,
    method: "scoresHistorical",
    summary: "Prompt scores in a time range",
    pathShown: true,
    params: [
      from,
      to,
      minerUid,
      validationAssetSpec(),
      timeIncrementSpec(false),
      timeLengthSpec(false),
    ],
    ranges: [{ from: "from", to: "to" }],
    codec: scoreRowsCodec,
  }),
  uidHolders: codecOperation<UidHoldersParams>()({
    ...shared,
    path: DEFAULT_PATHS.uidHolders,
    method: "uidHolders",
    summary: "Hotkeys that held each uid, when first seen",
    pathShown: false,
    params: [from, to],
    ranges: [{ from: "from", to: "to", maxDays: 30, inclusiveDay: true }],
    codec: uidHolderRowsCodec,
  }),
  smoothedScores: codecOperation<SmoothedScoresParams>()({
    ...shared,
    path: DEFAULT_PATHS.smoothedScores,
    method: "smoothedScores",
    summary: "Smoothed scores and reward weights per miner and competition",
    pathShown: false,
    params: [
      from,
      to,
      minerUid,
      competitionSpec(),
      paramSpec("prompt_name", "string", false, "deprecated alias of competition", {
        allowed: PROMPT_NAMES,
      }),
    ],
    ranges: [{ from: "from", to: "to", maxDays: 7 }],
    codec: smoothedScoreRowsCodec,
  }),
  prompts: codecOperation<PromptsParams>()({
    ...shared,
    path: DEFAULT_PATHS.prompts,
    method: "prompts",
    summary: "Start times of the validator's prompts in a time range",
    pathShown: false,
    params: [from, to, timeIncrementSpec(true), timeLengthSpec(true), validationAssetSpec()],
    ranges: [{ from: "from", to: "to" }],
    codec: promptListCodec,
  }),
  realizedPath: codecOperation<RealizedPathParams>()({
    ...shared,
    path: DEFAULT_PATHS.realizedPath,
    method: "realizedPath",
    summary: "Realized prices on a prompt's grid",
    pathShown: false,
    params: [
      paramSpec("start_time", "time", true, "prompt start time"),
      timeIncrementSpec(true),
      timeLengthSpec(true),
      validationAssetSpec(),
    ],
    ranges: [],
    codec: realizedPathCodec,
  }),
  multiAssetMinutes: codecOperation<MultiAssetMinutesParams>()({
    ...shared,
    path: DEFAULT_PATHS.multiAssetMinutes,
    method: "multiAssetMinutes",
    summary: "Minutes in which several assets were scored, with their save order",
    pathShown: false,
    params: [from, to, timeLengthSpec(false)],
    ranges: [{ from: "from", to: "to", maxDays: 2, inclusiveDay: true }],
    codec: multiAssetMinuteRowsCodec,
  }),
} as const;
