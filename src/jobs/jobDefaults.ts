/** The defaults of pathlab's jobs, kept apart so that the command line can show them cheaply. */

import { PREDICTION_ASSETS } from "../spec/assets.ts";

/**
 * The database a sync writes, and `query` and `export` read, when none is named.
 * @example DEFAULT_DATABASE // => "./pathlab.duckdb"
 */
export const DEFAULT_DATABASE = "./pathlab.duckdb";

/**
 * The assets a sync covers by default: every asset whose paths the prediction operations serve
 * (the spec's `BTC ETH SOL XAU SPYX NVDAX`, and `TSLAX AAPLX GOOGLX` of an earlier description).
 * Other insight assets (`XRP`, `HYPE`, `WTIOIL`, `SPCX`) have no path sets to recompute from.
 * @example DEFAULT_SYNC_ASSETS.includes("SPYX") // => true
 */
export const DEFAULT_SYNC_ASSETS: readonly string[] = PREDICTION_ASSETS;

/**
 * Units a sync works on at once by default. Two keep both cores busy (one unit recomputes and
 * stores while the next one's requests are served) without holding more than two units' arrays
 * (about 150 MB for a 24h unit: its ensemble and the previous prompt's, re-based and step-major).
 * @example DEFAULT_SYNC_CONCURRENCY // => 2
 */
export const DEFAULT_SYNC_CONCURRENCY = 2;
