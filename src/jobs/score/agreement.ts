/**
 * Whether pathlab's numbers equal the service's, and a tally of the verdicts for the run.
 */

import type { Agreement, ScoreDisagreement } from "./summary.ts";

/** Relative tolerance of an agreement (validator-exact: ≤ 1e-9 relative). */
const RELATIVE_TOLERANCE = 1e-9;

/**
 * Whether `ours` equals `service` within 1e-9 relative (or `absolute`); `not compared` when the
 * service has no such number.
 * @example agreementOf(1, 1 + 1e-12, 1e-9) // => "agree"
 */
export function agreementOf(
  ours: number | null,
  service: number | null,
  absolute: number,
): Agreement {
  if (service === null) return "not compared";
  if (ours === null) return "disagree";
  if (ours === service) return "agree";
  const difference = Math.abs(ours - service);
  const scale = Math.max(Math.abs(ours), Math.abs(service));
  return difference <= RELATIVE_TOLERANCE * scale || difference <= absolute ? "agree" : "disagree";
}

/**
 * One verdict of several: any disagreement wins, then any agreement.
 * @example combined(["agree", "not compared"]) // => "agree"
 */
export function combined(verdicts: readonly Agreement[]): Agreement {
  if (verdicts.includes("disagree")) return "disagree";
  if (verdicts.includes("agree")) return "agree";
  return "not compared";
}

/**
 * The counts of a run's verdicts and its disagreements.
 * @example const tally = new AgreementTally(); tally.add("agree", () => disagreement);
 */
export class AgreementTally {
  readonly counts = { agree: 0, disagree: 0, notCompared: 0 };
  readonly disagreements: ScoreDisagreement[] = [];

  /** Counts `verdict`; a disagreement is described by `describe` (called only then). */
  add(verdict: Agreement, describe: () => ScoreDisagreement): void {
    if (verdict === "agree") this.counts.agree++;
    else if (verdict === "not compared") this.counts.notCompared++;
    else {
      this.counts.disagree++;
      this.disagreements.push(describe());
    }
  }
}
