/** The result of the validator's prompt score rule for one prompt (the validator's scoring rules). */

/**
 * The prompt scores of one prompt, as `promptScores` returns them (of `pathlab/scoring`, and of
 * the slow reference that checks it).
 * @example
 * const scores: PromptScores = { scores: [0, 10, 18, 18], fillValue: 28, lowestScore: 10, worstScore: 18 };
 */
export interface PromptScores {
  /** One score per miner, in the order of the raw values; 0 for the best miner. */
  readonly scores: number[];
  /** The value invalid miners get before the lowest is subtracted: p90 (legacy) or p95 (current). */
  readonly fillValue: number;
  /** The lowest capped-and-filled value, subtracted from all. */
  readonly lowestScore: number;
  /**
   * fillValue − lowestScore: an invalid miner's score, which back-fills the prompts a late miner
   * missed (`smoothedScores`). Under the current rule a capped outlier can score above it (10 ×
   * median can exceed p95 of the uncapped values).
   */
  readonly worstScore: number;
}
