/**
 * Test helper: the captured responses of the live deployment (`../shared/fixtures/captured` from the
 * repository root), each with the operation path it belongs to.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { OperationPath } from "../../src/domain/operations.ts";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the captured responses live. */
export const capturedFolder = path.resolve(repositoryRoot, "../shared/fixtures/captured");

/** Whether the captured responses are present (CI has `shared/` beside the clone). */
export const capturedExists = existsSync(capturedFolder);

if (!capturedExists) {
  console.warn(`captured fixtures missing at ${capturedFolder}: fixture tests are skipped`);
}

/** Operation of each folder (polymarket files are mapped by name below). */
const FOLDER_OPERATIONS: Record<string, OperationPath> = {
  liquidation: "/insights/liquidation",
  lp_bounds: "/insights/lp-bounds",
  lp_probabilities: "/insights/lp-probabilities",
  option_pricing: "/insights/option-pricing",
  prediction_percentiles: "/insights/prediction-percentiles",
  volatility: "/insights/volatility",
  leaderboard: "/v2/leaderboard/latest",
};

const UP_DOWN_OPERATIONS: Record<string, OperationPath> = {
  daily: "/insights/venuea/up-down/daily",
  hourly: "/insights/venuea/up-down/hourly",
  "15min": "/insights/venuea/up-down/15min",
  "5min": "/insights/venuea/up-down/5min",
};

/** One captured response. */
export interface CapturedFile {
  /** `folder/file.json`. */
  readonly name: string;
  readonly operation: OperationPath;
  readonly json: unknown;
}

function operationOf(folder: string, file: string): OperationPath {
  if (folder === "polymarket") {
    if (file === "range.json") return "/insights/venuea/range/daily";
    const window = /^up_down_(daily|hourly|15min|5min)_[A-Z]+\.json$/.exec(file)?.[1];
    if (window !== undefined) return UP_DOWN_OPERATIONS[window];
  } else if (Object.hasOwn(FOLDER_OPERATIONS, folder)) {
    return FOLDER_OPERATIONS[folder];
  }
  throw new Error(`captured file ${folder}/${file} belongs to no known operation`);
}

/** Every captured JSON file with its operation (empty when the folder is missing). */
export function capturedFiles(): CapturedFile[] {
  if (!capturedExists) return [];
  const files: CapturedFile[] = [];
  for (const folder of readdirSync(capturedFolder, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(path.join(capturedFolder, folder.name)).sort()) {
      if (!file.endsWith(".json")) continue;
      const text = readFileSync(path.join(capturedFolder, folder.name, file), "utf8");
      files.push({
        name: `${folder.name}/${file}`,
        operation: operationOf(folder.name, file),
        json: JSON.parse(text),
      });
    }
  }
  return files;
}

/** One captured file's parsed JSON (a fresh copy each call, safe to mutate). */
export function readCaptured(name: string): unknown {
  return JSON.parse(readFileSync(path.join(capturedFolder, name), "utf8"));
}
