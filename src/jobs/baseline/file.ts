/**
 * The files `pathlab baseline` writes: their names, their JSON text (the candidate layout read by
 * `scoreCandidate.ts`, prices rounded as miners round), the mark that tells pathlab's own files
 * from the user's, the folder's check before a run, and the atomic write.
 */

import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { roundPrice } from "../../domain/priceFormat.ts";
import type { BaselineModel } from "../../paths/baselinePaths.ts";
import { CANDIDATE_MINER_UID } from "../score/candidate.ts";
import { UsageError } from "../../service/usageError.ts";

/**
 * The first field of every file `pathlab baseline` writes; a file that does not start with it is
 * not overwritten without `--force`.
 * @example BASELINE_GENERATOR // => "pathlab baseline"
 */
export const BASELINE_GENERATOR = "pathlab baseline";

const FILE_HEAD = `{"generator":${JSON.stringify(BASELINE_GENERATOR)}`;

/**
 * The prompt and model a baseline file answers, as its JSON fields say them.
 * @example
 * const head: BaselineFileHead = {
 *   model: "gbm", modelSeed: 1, stepVolatility: 0.0006, asset: "BTC", timeIncrement: 60,
 *   timeLength: 3600, startTimeUnix: 1795251600,
 * };
 */
export interface BaselineFileHead {
  readonly model: BaselineModel;
  readonly modelSeed: number;
  /** σ of one step's log return that the paths were simulated with. */
  readonly stepVolatility: number;
  readonly asset: string;
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly startTimeUnix: number;
}

/**
 * The file name of a prompt's baseline: `<ASSET>-<start, ISO 8601 basic format>-<horizon>.json`.
 * The asset comes first, up to the first `-` (the candidate reader takes it from there for the
 * miner-response layout); the horizon keeps a 1h and a 24h prompt of the same start apart; the
 * basic format has no `:`, which some file systems and tools refuse.
 * @example baselineFileName("BTC", 1795251600, 3600) // => "BTC-20261121T090000Z-1h.json"
 */
export function baselineFileName(asset: string, startTimeUnix: number, timeLength: number): string {
  const basic = new Date(startTimeUnix * 1000).toISOString().replace(/[-:]|\.\d+/g, "");
  const horizon = timeLength % 3600 === 0 ? `${timeLength / 3600}h` : `${Math.round(timeLength)}s`;
  return `${asset}-${basic}-${horizon}.json`;
}

/**
 * The JSON text of a baseline file: `generator`, `model`, `model_seed`, `step_volatility`, then
 * the candidate layout (`asset`, `time_increment`, `time_length`, `start_time`, `miner_uid`,
 * `predictions`), every price rounded with `roundPrice` (8 significant digits, as miners round).
 * `values` is path-major (`nPaths × nPoints`, a PathSet's `values`). Built with one join per path
 * and one for the file (about 3 MB for 1,000 × 289 prices). Throws `RangeError` for a `values`
 * of the wrong length.
 * @example baselineFileText(head, Float64Array.of(100, 101.000000001), 1, 2).endsWith('"predictions":[[100,101]]}\n') // => true
 */
export function baselineFileText(
  head: BaselineFileHead,
  values: Float64Array,
  nPaths: number,
  nPoints: number,
): string {
  if (values.length !== nPaths * nPoints) {
    throw new RangeError(
      `baselineFileText requires values.length = nPaths × nPoints = ${nPaths * nPoints}, got ${values.length}`,
    );
  }
  const prices = new Array<string>(nPoints);
  const paths = new Array<string>(nPaths);
  for (let path = 0; path < nPaths; ++path) {
    const offset = path * nPoints;
    for (let point = 0; point < nPoints; ++point) {
      prices[point] = String(roundPrice(values[offset + point]));
    }
    paths[path] = `[${prices.join(",")}]`;
  }
  const fields = [
    FILE_HEAD,
    `"model":${JSON.stringify(head.model)}`,
    `"model_seed":${head.modelSeed}`,
    `"step_volatility":${head.stepVolatility}`,
    `"asset":${JSON.stringify(head.asset)}`,
    `"time_increment":${head.timeIncrement}`,
    `"time_length":${head.timeLength}`,
    `"start_time":${head.startTimeUnix}`,
    `"miner_uid":${CANDIDATE_MINER_UID}`,
    `"predictions":[${paths.join(",")}]}\n`,
  ];
  return fields.join(",");
}

/**
 * What is at `file`: nothing, a file `pathlab baseline` wrote (it starts with the generator
 * field), or something else (another file, a folder). Reads the first bytes only.
 * @example await existingFileKind("out/BTC-20261121T090000Z-1h.json") // => "none"
 */
export async function existingFileKind(file: string): Promise<"none" | "baseline" | "other"> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "none" : "other";
  }
  try {
    const head = Buffer.alloc(FILE_HEAD.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.toString("utf8") === FILE_HEAD ? "baseline" : "other";
  } catch {
    return "other"; // a folder, or unreadable
  } finally {
    await handle.close();
  }
}

/**
 * Writes `text` to `file` through a temporary file beside it and a rename, so that an interrupted
 * run leaves either the old file or the whole new one.
 * @example await writeFileAtomically("out/BTC-20261121T090000Z-1h.json", text);
 */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Creates the folder `out` and checks the files `names` that a run will write in it: returns how
 * many exist already (to be replaced). Throws a `UsageError` when the folder cannot be
 * created, or naming the first file that `pathlab baseline` did not write, unless `force`.
 * @example const replaced = await prepareBaselineFolder("out", ["BTC-20261121T090000Z-1h.json"], false);
 */
export async function prepareBaselineFolder(
  out: string,
  names: readonly string[],
  force: boolean,
): Promise<number> {
  try {
    await mkdir(out, { recursive: true });
  } catch (error) {
    throw new UsageError(
      `baseline: --out: cannot create the folder ${JSON.stringify(out)}: ${(error as Error).message}`,
    );
  }
  const kinds = await Promise.all(names.map((name) => existingFileKind(join(out, name))));
  const foreign = names.filter((_, index) => kinds[index] === "other");
  if (foreign.length > 0 && !force) {
    const first = join(out, foreign[0]);
    throw new UsageError(
      foreign.length === 1
        ? `baseline: ${first} exists and was not written by pathlab baseline; pass --force to overwrite it, or choose another --out`
        : `baseline: ${first} and ${foreign.length - 1} more exist and were not written by pathlab baseline; pass --force to overwrite them, or choose another --out`,
    );
  }
  return kinds.filter((kind) => kind !== "none").length;
}
