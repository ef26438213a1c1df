/** The failure that ends a sync unit before anything of it is stored. */

import type { SyncFailureStage } from "./summary.ts";

/**
 * A failure that ends a sync unit: nothing of it is stored, and the summary records it at `stage`.
 * @example throw new UnitFailure("ensemble", "no valid path set among the 25 ranked miners of crypto-24h");
 */
export class UnitFailure extends Error {
  /** Where the unit failed. */
  readonly stage: SyncFailureStage;

  constructor(stage: SyncFailureStage, message: string) {
    super(message);
    this.name = "UnitFailure";
    this.stage = stage;
  }
}
