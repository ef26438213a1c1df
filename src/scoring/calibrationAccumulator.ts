/**
 * Calibration over many prompts: per miner, asset and horizon, the per-prompt rows of
 * {@link promptCalibration} (and the prompt CRPS) added up into a summary.
 *
 * Over 300 lines because the summary's types, the accumulator that fills them and the book of
 * accumulators by key are one public API (exported by the root entry), read together.
 */

import type { PromptCalibration } from "./promptCalibration.ts";
import type { PromptCrps } from "./scorePrompt.ts";

/**
 * Which miner, asset and horizon a calibration summary is about.
 * @example const key: CalibrationKey = { minerUid: 17, asset: "BTC", horizon: "24h" };
 */
export interface CalibrationKey {
  readonly minerUid: number;
  readonly asset: string;
  /** `24h`, `1h` (as {@link PromptCalibration.horizon}). */
  readonly horizon: string;
}

/**
 * Coverage and sharpness of one central-interval level over many prompts.
 * @example summary.coverage[0] // => { level: 0.5, observed: 0.49, meanWidth: 812.4, meanRelativeWidthBps: 119.5 }
 */
export interface CoverageSummary {
  /** Nominal level, e.g. 0.9. */
  readonly level: number;
  /** Fraction of observed points inside the interval (NaN with no points). */
  readonly observed: number;
  /** Mean interval width, price units (sharpness). */
  readonly meanWidth: number;
  /** Mean interval width relative to the ensemble median, basis points. */
  readonly meanRelativeWidthBps: number;
}

/**
 * A miner's calibration over the prompts added to a {@link CalibrationAccumulator}.
 * @example accumulator.summary().pitHistogram // => 10 fractions adding up to 1
 */
export interface CalibrationSummary extends CalibrationKey {
  /** Calibration rows added (prompts whose prices were valid). */
  readonly prompts: number;
  /** Observed points over those prompts. */
  readonly observedPoints: number;
  /** PIT counts per bin. */
  readonly pitCounts: number[];
  /** PIT counts as fractions of the observed points (uniform = 1/bins each; NaN with no points). */
  readonly pitHistogram: number[];
  /** Coverage and sharpness per level. */
  readonly coverage: CoverageSummary[];
  /** Mean step CRPS (basis points) per step t = 1 … (index t − 1) over prompts observing it. */
  readonly stepCrpsBps: number[];
  /** Prompts added with a valid prompt CRPS. */
  readonly scoredPrompts: number;
  /** Prompts added with a prompt CRPS of −1. */
  readonly invalidPrompts: number;
  /** Mean prompt CRPS over the valid ones (NaN with none). */
  readonly meanPromptCrps: number;
  /** Mean per-interval CRPS sum over the valid prompts, by interval name. */
  readonly intervalCrps: Record<string, number>;
}

/**
 * Adds up calibration rows and prompt CRPS of one miner, asset and horizon over many prompts; the
 * job stores the rows and the {@link CalibrationAccumulator.summary}. Counts and sums only, so
 * the order of `add` calls changes nothing but the last bits of means, and two accumulators merge.
 * @example
 * const accumulator = new CalibrationAccumulator({ minerUid: 17, asset: "BTC", horizon: "24h" });
 * accumulator.add(promptCalibration(pathSet, realized), scorePrompt(pathSet, realized, { competition: "crypto-24h" }));
 * accumulator.summary().coverage[2].observed // => close to 0.9 for a calibrated miner
 */
export class CalibrationAccumulator {
  /** The miner, asset and horizon. */
  readonly key: CalibrationKey;
  private levels: number[] | undefined;
  private prompts = 0;
  private observedPoints = 0;
  private pitCounts: number[] = [];
  private coveredCounts: number[] = [];
  private widthSums: number[] = [];
  private relativeWidthSums: number[] = [];
  private stepCrpsSums: number[] = [];
  private stepCrpsCounts: number[] = [];
  private scoredPrompts = 0;
  private invalidPrompts = 0;
  private crpsSum = 0;
  private intervalSums = new Map<string, number>();

  /**
   * An empty accumulator for `key`.
   * @param key - the miner, asset and horizon whose prompts it adds up.
   * @example new CalibrationAccumulator({ minerUid: 17, asset: "BTC", horizon: "24h" })
   */
  constructor(key: CalibrationKey) {
    this.key = { minerUid: key.minerUid, asset: key.asset, horizon: key.horizon };
  }

  /**
   * Adds one prompt: its calibration row (`undefined` when the miner's prices were invalid) and,
   * optionally, its prompt CRPS (−1 counts as invalid; valid ones add to the CRPS means).
   * Throws `RangeError` when the row is about another miner, asset or horizon, or has other
   * levels, bins or steps than the rows before it.
   * @param calibration - the prompt's calibration row, or `undefined` when the miner's prices were
   *   invalid.
   * @param score - the prompt's CRPS, its interval sums and invalid reason; the CRPS means leave
   *   the prompt out when omitted.
   * @example accumulator.add(row, score)
   */
  add(
    calibration: PromptCalibration | undefined,
    score?: Pick<PromptCrps, "crps" | "intervals" | "invalidReason">,
  ): void {
    if (calibration !== undefined) {
      this.checkKey(calibration);
      this.addCounts(
        calibration.levels,
        calibration.pitCounts,
        calibration.coveredCounts,
        calibration.widthSums,
        calibration.relativeWidthSumsBps,
        calibration.stepCrpsBps,
        calibration.stepCrpsBps.map((value) => (Number.isNaN(value) ? 0 : 1)),
        1,
        calibration.observedPoints,
      );
    }
    if (score !== undefined) {
      if (score.crps === -1) {
        this.invalidPrompts++;
      } else {
        this.scoredPrompts++;
        this.crpsSum += score.crps;
        for (const [name, sum] of Object.entries(score.intervals)) {
          this.intervalSums.set(name, (this.intervalSums.get(name) ?? 0) + sum);
        }
      }
    }
  }

  /**
   * Adds everything `other` (same key) has added.
   * @param other - an accumulator of the same miner, asset and horizon.
   * @example accumulator.merge(otherDay)
   */
  merge(other: CalibrationAccumulator): void {
    this.checkKey(other.key);
    if (other.levels !== undefined) {
      this.addCounts(
        other.levels,
        other.pitCounts,
        other.coveredCounts,
        other.widthSums,
        other.relativeWidthSums,
        other.stepCrpsSums,
        other.stepCrpsCounts,
        other.prompts,
        other.observedPoints,
      );
    }
    this.scoredPrompts += other.scoredPrompts;
    this.invalidPrompts += other.invalidPrompts;
    this.crpsSum += other.crpsSum;
    for (const [name, sum] of other.intervalSums) {
      this.intervalSums.set(name, (this.intervalSums.get(name) ?? 0) + sum);
    }
  }

  /**
   * The summary of what was added: PIT histogram, coverage and mean widths per level, mean CRPS
   * per step, mean prompt and interval CRPS.
   * @example accumulator.summary().pitHistogram
   */
  summary(): CalibrationSummary {
    const points = this.observedPoints;
    const levels = this.levels ?? [];
    const intervalCrps: Record<string, number> = {};
    for (const [name, sum] of this.intervalSums) intervalCrps[name] = sum / this.scoredPrompts;
    return {
      ...this.key,
      prompts: this.prompts,
      observedPoints: points,
      pitCounts: [...this.pitCounts],
      pitHistogram: this.pitCounts.map((count) => (points > 0 ? count / points : NaN)),
      coverage: levels.map((level, index) => ({
        level,
        observed: points > 0 ? this.coveredCounts[index] / points : NaN,
        meanWidth: points > 0 ? this.widthSums[index] / points : NaN,
        meanRelativeWidthBps: points > 0 ? this.relativeWidthSums[index] / points : NaN,
      })),
      stepCrpsBps: this.stepCrpsSums.map((sum, index) =>
        this.stepCrpsCounts[index] > 0 ? sum / this.stepCrpsCounts[index] : NaN,
      ),
      scoredPrompts: this.scoredPrompts,
      invalidPrompts: this.invalidPrompts,
      meanPromptCrps: this.scoredPrompts > 0 ? this.crpsSum / this.scoredPrompts : NaN,
      intervalCrps,
    };
  }

  private checkKey(other: CalibrationKey): void {
    const { minerUid, asset, horizon } = this.key;
    if (other.minerUid !== minerUid || other.asset !== asset || other.horizon !== horizon) {
      throw new RangeError(
        `CalibrationAccumulator of miner ${minerUid}, ${asset} ${horizon} cannot add miner ${other.minerUid}, ${other.asset} ${other.horizon}`,
      );
    }
  }

  private addCounts(
    levels: readonly number[],
    pitCounts: readonly number[],
    coveredCounts: readonly number[],
    widthSums: readonly number[],
    relativeWidthSums: readonly number[],
    stepSums: readonly number[],
    stepCounts: readonly number[],
    prompts: number,
    observedPoints: number,
  ): void {
    if (this.levels === undefined) {
      this.levels = [...levels];
      this.pitCounts = new Array<number>(pitCounts.length).fill(0);
      this.coveredCounts = new Array<number>(levels.length).fill(0);
      this.widthSums = new Array<number>(levels.length).fill(0);
      this.relativeWidthSums = new Array<number>(levels.length).fill(0);
      this.stepCrpsSums = new Array<number>(stepSums.length).fill(0);
      this.stepCrpsCounts = new Array<number>(stepSums.length).fill(0);
    }
    const same = (a: readonly number[], b: readonly number[]) =>
      a.length === b.length && a.every((value, index) => value === b[index]);
    if (
      !same(this.levels, levels) ||
      this.pitCounts.length !== pitCounts.length ||
      this.stepCrpsSums.length !== stepSums.length
    ) {
      throw new RangeError(
        `CalibrationAccumulator requires rows of the same shape: levels [${this.levels.join(", ")}], ${this.pitCounts.length} bins, ${this.stepCrpsSums.length} steps; got levels [${levels.join(", ")}], ${pitCounts.length} bins, ${stepSums.length} steps`,
      );
    }
    for (let index = 0; index < pitCounts.length; index++)
      this.pitCounts[index] += pitCounts[index];
    for (let index = 0; index < levels.length; index++) {
      this.coveredCounts[index] += coveredCounts[index];
      this.widthSums[index] += widthSums[index];
      this.relativeWidthSums[index] += relativeWidthSums[index];
    }
    for (let index = 0; index < stepSums.length; index++) {
      if (stepCounts[index] === 0) continue;
      this.stepCrpsSums[index] += stepSums[index];
      this.stepCrpsCounts[index] += stepCounts[index];
    }
    this.prompts += prompts;
    this.observedPoints += observedPoints;
  }
}

/**
 * One {@link CalibrationAccumulator} per miner, asset and horizon, created on first use.
 * @example
 * const book = new CalibrationAccumulators();
 * book.add({ minerUid: 17, asset: "BTC", horizon: "24h" }, row, score);
 * book.summaries() // => one summary per key, in order of first use
 */
export class CalibrationAccumulators {
  private readonly byKey = new Map<string, CalibrationAccumulator>();

  /**
   * Adds a prompt's calibration row and prompt CRPS to the accumulator of `key`.
   * @param key - the miner, asset and horizon of the prompt.
   * @param calibration - the prompt's calibration row, or `undefined` when the miner's prices were
   *   invalid.
   * @param score - the prompt's CRPS, its interval sums and invalid reason; the CRPS means leave
   *   the prompt out when omitted.
   * @example book.add({ minerUid: 17, asset: "BTC", horizon: "24h" }, row, score)
   */
  add(
    key: CalibrationKey,
    calibration: PromptCalibration | undefined,
    score?: Pick<PromptCrps, "crps" | "intervals" | "invalidReason">,
  ): void {
    this.accumulatorOf(key).add(calibration, score);
  }

  /**
   * The accumulator of `key` (created empty when absent).
   * @param key - the miner, asset and horizon.
   * @example book.accumulatorOf({ minerUid: 17, asset: "BTC", horizon: "24h" }).summary()
   */
  accumulatorOf(key: CalibrationKey): CalibrationAccumulator {
    const text = JSON.stringify([key.minerUid, key.asset, key.horizon]);
    let accumulator = this.byKey.get(text);
    if (accumulator === undefined) {
      accumulator = new CalibrationAccumulator(key);
      this.byKey.set(text, accumulator);
    }
    return accumulator;
  }

  /**
   * Every key's summary, in order of first use.
   * @example book.summaries().length
   */
  summaries(): CalibrationSummary[] {
    return [...this.byKey.values()].map((accumulator) => accumulator.summary());
  }
}
