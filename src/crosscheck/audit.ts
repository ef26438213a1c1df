/**
 * `audit`: the service's insight records checked against themselves, without path sets. Each
 * record's own rules (`auditChecks.ts`, `optionChecks.ts`), then what two records of one snapshot
 * must agree on: the LP probabilities with the terminal percentiles, and the options' forward with
 * the percentiles at the expiry.
 */

import type { LiquidationRecord } from "../domain/records/liquidation.ts";
import type { LpBoundsRecord, LpProbabilitiesRecord } from "../domain/records/lp.ts";
import type { OptionPricingRecord } from "../domain/records/option-pricing.ts";
import {
  PERCENTILE_KEYS,
  type PredictionPercentilesRecord,
} from "../domain/records/percentiles.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import {
  checkLiquidation,
  checkLpBounds,
  checkLpProbabilities,
  checkPercentiles,
  FindingList,
  type AuditFinding,
} from "./auditChecks.ts";
import { checkOptions } from "./optionChecks.ts";

/**
 * The records of one asset to audit together; any may be missing. `percentiles` is the 24h
 * prediction percentiles record (289 steps of 5 minutes).
 * @example const snapshot: AuditSnapshot = { asset: "BTC", records: { liquidation, percentiles } };
 */
export interface AuditSnapshot {
  readonly asset: string;
  /** The snapshot's forecast start (ISO 8601), when known beyond the records' own. */
  readonly forecastStartTime?: string;
  readonly records: {
    readonly liquidation?: LiquidationRecord;
    readonly lpBounds?: LpBoundsRecord;
    readonly lpProbabilities?: LpProbabilitiesRecord;
    readonly options?: OptionPricingRecord;
    readonly percentiles?: PredictionPercentilesRecord;
  };
}

/**
 * What `auditSnapshot` found: the comparisons made, the violations, and the checks between
 * records that could not be made, with the reason.
 * @example const report: AuditReport = { asset: "BTC", compared: 412, findings: [], skipped: [] };
 */
export interface AuditReport {
  readonly asset: string;
  /** The snapshot's forecast start, when known. */
  readonly forecastStartTime?: string;
  readonly compared: number;
  readonly findings: readonly AuditFinding[];
  readonly skipped: readonly string[];
}

/**
 * How far the LP probabilities may be from the terminal percentiles' CDF, interpolated linearly
 * between the nine percentiles: the interpolation of a smooth CDF between points 0.15 apart
 * errs by up to a few hundredths.
 * @example LP_PERCENTILE_TOLERANCE // => 0.05
 */
export const LP_PERCENTILE_TOLERANCE = 0.05;

const STEP_SECONDS = 300;
/** The horizon of the simulation the option prices are computed from. */
const SIMULATED_HOURS = 24;

/**
 * Audits one snapshot: each record's own checks, and, when two records share the snapshot (the
 * same current price, to 1e-9 relative), the checks between them:
 * - the 24h probability above each LP level against 1 − the CDF of the last step's percentiles,
 *   interpolated linearly (levels inside the 0.5 % and 99.5 % percentiles), within
 *   {@link LP_PERCENTILE_TOLERANCE};
 * - the forward of the option prices (C − P + K) between the 0.35 and 0.65 percentiles at the
 *   expiry, when a record gives the forecast start and the expiry falls within the 24 h.
 * When the forecast start is known, an option expiry after the 24 h simulation ends is a finding
 * (its size in days): the prices then come from the 24 h terminal distribution (the live BTC
 * record's monthly expiry usually lies weeks after it).
 * @param snapshot - the asset and the records the service gave at one moment; any of them may be
 *   absent.
 * @example auditSnapshot({ asset: "BTC", records: { percentiles } }).findings // => []
 */
export function auditSnapshot(snapshot: AuditSnapshot): AuditReport {
  const { liquidation, lpBounds, lpProbabilities, options, percentiles } = snapshot.records;
  const lists: FindingList[] = [];
  const skipped: string[] = [];
  if (percentiles !== undefined) lists.push(checkPercentiles(percentiles));
  if (liquidation !== undefined) lists.push(checkLiquidation(liquidation));
  if (lpProbabilities !== undefined) lists.push(checkLpProbabilities(lpProbabilities));
  if (lpBounds !== undefined) lists.push(checkLpBounds(lpBounds));
  const optionList = options === undefined ? undefined : checkOptions(options);
  if (optionList !== undefined) lists.push(optionList);
  const terminal = percentiles?.forecast_future.percentiles.at(-1);
  if (lpProbabilities !== undefined && percentiles !== undefined && terminal !== undefined) {
    const levels = lpProbabilities.data["24h"];
    if (!samePrice(lpProbabilities.current_price, percentiles.current_price)) {
      skipped.push(
        `LP probabilities against the percentiles: other snapshots (current price ${lpProbabilities.current_price} and ${percentiles.current_price})`,
      );
    } else if (levels !== undefined) {
      const list = new FindingList("/insights/lp-probabilities");
      for (const [level, above] of Object.entries(levels.probability_above)) {
        const cdf = percentileCdf(terminal, Number(level));
        if (cdf === undefined) continue;
        list.expect(
          "LP probabilities agree with the terminal percentiles",
          `data["24h"].probability_above["${level}"]`,
          Math.abs(above - (1 - cdf)),
          LP_PERCENTILE_TOLERANCE,
          `${above} against ${(1 - cdf).toFixed(4)} from the percentiles`,
        );
      }
      lists.push(list);
    }
  }
  const start = options?.forecast_start_time ?? snapshot.forecastStartTime;
  if (options !== undefined && start !== undefined) lists.push(checkExpiry(options, start));
  if (options !== undefined && optionList !== undefined && percentiles !== undefined) {
    const reason = forwardCheck(options, percentiles, start, optionList.forward, lists);
    if (reason !== undefined)
      skipped.push(`the options' forward against the percentiles: ${reason}`);
  }
  return {
    asset: snapshot.asset,
    ...(snapshot.forecastStartTime !== undefined && {
      forecastStartTime: snapshot.forecastStartTime,
    }),
    compared: lists.reduce((sum, list) => sum + list.compared, 0),
    findings: lists.flatMap((list) => list.findings),
    skipped,
  };
}

/**
 * The option prices come from the 24 h simulation: an expiry after its end is priced from the
 * terminal distribution, as if the price stopped moving there. A finding whose size is the days
 * between the simulation's end and the expiry.
 */
function checkExpiry(options: OptionPricingRecord, start: string): FindingList {
  const list = new FindingList("/insights/option-pricing");
  const endMs = parseIsoTimeMs(start) + SIMULATED_HOURS * 3_600_000;
  const days = (parseIsoTimeMs(options.expiry_time) - endMs) / 86_400_000;
  list.expect(
    "the expiry within the 24 h the prices are simulated over",
    "expiry_time",
    days,
    0,
    `${options.expiry_time} is ${days.toFixed(2)} days after the simulation ends ` +
      `(${new Date(endMs).toISOString().replace(".000", "")}): priced from the 24h terminal distribution`,
  );
  return list;
}

/** The forward check (see `auditSnapshot`); returns why it was not made, if it was not. */
function forwardCheck(
  options: OptionPricingRecord,
  percentiles: PredictionPercentilesRecord,
  start: string | undefined,
  forward: number,
  lists: FindingList[],
): string | undefined {
  if (!samePrice(options.current_price, percentiles.current_price)) {
    return `other snapshots (current price ${options.current_price} and ${percentiles.current_price})`;
  }
  if (start === undefined) return "the forecast start is not known (the records do not give it)";
  const seconds = (parseIsoTimeMs(options.expiry_time) - parseIsoTimeMs(start)) / 1000;
  const steps = percentiles.forecast_future.percentiles;
  const index = Math.round(seconds / STEP_SECONDS);
  if (!(index >= 1 && index < steps.length)) {
    return `the expiry ${options.expiry_time} is not within the percentiles' 24 h from ${start}`;
  }
  const step = steps[index];
  const list = new FindingList("/insights/option-pricing");
  const size = Math.max(step["0.35"] - forward, forward - step["0.65"]);
  list.expect(
    "the options' forward within the central percentiles at the expiry",
    "call_options",
    size,
    0,
    `C − P + K = ${forward}, percentiles 0.35–0.65 at the expiry ${step["0.35"]}–${step["0.65"]}`,
  );
  lists.push(list);
  return undefined;
}

/** The CDF at `price` from one step's percentiles, linear between them; undefined outside. */
function percentileCdf(step: Record<string, number>, price: number): number | undefined {
  for (let k = 1; k < PERCENTILE_KEYS.length; ++k) {
    const [lowKey, highKey] = [PERCENTILE_KEYS[k - 1], PERCENTILE_KEYS[k]];
    const [low, high] = [step[lowKey], step[highKey]];
    if (price < low || price > high || high === low) continue;
    const [p, q] = [Number(lowKey), Number(highKey)];
    return p + ((q - p) * (price - low)) / (high - low);
  }
  return undefined;
}

function samePrice(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}
