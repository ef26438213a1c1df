/** The leaderboard operations: V1 (legacy), V2 and the meta-leaderboards. Public (no API key). */
import { DEFAULT_PATHS } from "../default-paths.ts";
import { codecOperation } from "../define-operation.ts";
import {
  paramSpec,
  promptNameSpec,
  type LeaderboardHistoricalParams,
  type LeaderboardParams,
  type MetaLeaderboardHistoricalParams,
  type MetaLeaderboardParams,
  type NoParams,
  type TimeWindowParams,
} from "../params.ts";
import { leaderboardV1RowsCodec, leaderboardV2RowsCodec } from "../records/leaderboard.ts";

const shared = { section: "leaderboard", auth: false, credits: false } as const;

const promptName = promptNameSpec("low (= crypto-24h), high (= crypto-1h) or a competition");
const startTime = (description: string) => paramSpec("start_time", "time", true, description);
const endTime = paramSpec("end_time", "time", true, "end of the window");
const days = paramSpec("days", "integer", false, "days of incentives aggregated", {
  default: 14,
  min: 1,
});
/** `end_time` may not precede `start_time` (no maximum length is stated). */
const windowOrder = [{ from: "start_time", to: "end_time" }] as const;

/**
 * The leaderboard section of the operations table.
 * @example
 * leaderboardOperations.v2Latest.params[0].default // => "low"
 */
export const leaderboardOperations = {
  latest: codecOperation<NoParams>()({
    ...shared,
    path: "/leaderboard/latest",
    method: "latest",
    summary: "V1 (legacy) leaderboard: on-chain metrics per neuron",
    pathShown: true,
    params: [],
    ranges: [],
    codec: leaderboardV1RowsCodec,
  }),
  historical: codecOperation<TimeWindowParams>()({
    ...shared,
    path: "/leaderboard/historical",
    method: "historical",
    summary: "V1 (legacy) leaderboard rows over a window",
    pathShown: true,
    params: [startTime("start of the window"), endTime],
    ranges: windowOrder,
    codec: leaderboardV1RowsCodec,
  }),
  v2Latest: codecOperation<LeaderboardParams>()({
    ...shared,
    path: "/v2/leaderboard/latest",
    method: "v2Latest",
    summary: "V2 leaderboard: rewards per miner in a competition",
    pathShown: true,
    params: [promptName],
    ranges: [],
    codec: leaderboardV2RowsCodec,
  }),
  v2Historical: codecOperation<LeaderboardHistoricalParams>()({
    ...shared,
    path: "/v2/leaderboard/historical",
    method: "v2Historical",
    summary: "V2 leaderboard rows over a window",
    pathShown: true,
    params: [startTime("start of the window"), endTime, promptName],
    ranges: windowOrder,
    codec: leaderboardV2RowsCodec,
  }),
  metaLatest: codecOperation<MetaLeaderboardParams>()({
    ...shared,
    path: DEFAULT_PATHS.metaLeaderboardLatest,
    method: "metaLatest",
    summary: "Meta-leaderboard: miners' incentives aggregated over `days`",
    pathShown: false,
    params: [days, promptName],
    ranges: [],
    codec: leaderboardV2RowsCodec,
  }),
  metaHistorical: codecOperation<MetaLeaderboardHistoricalParams>()({
    ...shared,
    path: DEFAULT_PATHS.metaLeaderboardHistorical,
    method: "metaHistorical",
    summary: "Meta-leaderboard as of a start time",
    pathShown: false,
    params: [startTime("time of the meta-leaderboard"), promptName, days],
    ranges: [],
    codec: leaderboardV2RowsCodec,
  }),
} as const;
