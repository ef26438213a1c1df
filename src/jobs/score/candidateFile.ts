/**
 * The user's own model for `pathlab score --candidate DIR` and `pathlab validate FILE…`: every
 * `*.json` file is one answer to one prompt, checked with the validator's rules and reason strings
 * (the spec's `validateResponse`, under the format rule in force at the prompt's start), read as
 * Python reads it (`1.0` is a float, `1` an int).
 *
 * A file has one of two layouts:
 * - `record`: the spec's prediction-set record plus the prompt it answers,
 *   `{ "asset": "BTC", "time_increment": 300, "time_length": 86400, "start_time": 1772063100,
 *   "miner_uid": -1, "predictions": [[…289 prices…], …1000 paths…] }` (`miner_uid` optional);
 * - `response`: what a miner sends the validator, `[1772063100, 300, [p0, …], …1000 paths…]`.
 *   It names its start time and increment; the asset is the file name up to its first `-` (or up
 *   to `.json`): `BTC-2026-03-01T00-00.json` answers a BTC prompt; the length follows from the
 *   increment (60 → 3600, a 1h prompt; 300 → 86400, a 24h prompt). *
 * Reading and validating a file is `readCandidateFile.ts`.
 */

import type { PathSet } from "../../paths/pathSet.ts";

/**
 * The `miner_uid` a candidate's path sets carry in pathlab's results and store.
 * @example CANDIDATE_MINER_UID // => -1
 */
export const CANDIDATE_MINER_UID = -1;

/**
 * One candidate file: its layout (see this module's header: `record`, or `response` whose asset
 * comes from the file name), the prompt it answers, the validator's verdict, and either its path
 * set or the reason it was rejected (the validator's words, e.g. `Number of paths is incorrect:
 * expected 1000, got 999`, or what makes the file unreadable).
 * @example const file: CandidateFile = { file: "btc.json", layout: "record", asset: "BTC", timeIncrement: 300, timeLength: 86400, startTimeUnix: 1772063100, validation: "CORRECT", pathSet, reason: undefined };
 */
export interface CandidateFile {
  /** The file's name (without its folder). */
  readonly file: string;
  /** `undefined` when the file is neither layout (not JSON, or another value). */
  readonly layout: "record" | "response" | undefined;
  readonly asset: string | undefined;
  readonly timeIncrement: number | undefined;
  readonly timeLength: number | undefined;
  readonly startTimeUnix: number | undefined;
  /** The validator's verdict (`CORRECT` or its reason); `undefined` when the prompt is unknown. */
  readonly validation: string | undefined;
  readonly pathSet: PathSet | undefined;
  /**
   * Why the file is not a valid path set; `undefined` when it is. The validator's reason when it
   * rejects the file; for a file it accepts whose prices cannot be scored (a zero price, which
   * scores −1 on the network), what pathlab's paths layer objects to.
   */
  readonly reason: string | undefined;
}

/**
 * How `readCandidateFile` validates: under the format rule of `atUnix` instead of the
 * prompt's start.
 * @example const options: CandidateReadOptions = { atUnix: Date.UTC(2026, 6, 1) / 1000 };
 */
export interface CandidateReadOptions {
  /** When the file is validated, in Unix seconds: its format rule is the one in force then. */
  readonly atUnix?: number;
}

/**
 * A candidate file whose prompt is not known (yet): every field but its name and layout empty.
 * @example unknownPrompt("BTC-a.json", undefined).asset // => undefined
 * @internal
 */
export function unknownPrompt(file: string, layout: CandidateFile["layout"]) {
  return {
    file,
    layout,
    asset: undefined,
    timeIncrement: undefined,
    timeLength: undefined,
    startTimeUnix: undefined,
    validation: undefined,
    pathSet: undefined,
  };
}
