/**
 * What `pathlab score` reports: per competition a leaderboard recomputed the validator's way next
 * to the service's numbers, the prompts scored, the candidate's placing, and agreement counts.
 */

import type { ServiceInfo } from "../../service/serviceInfo.ts";
import type { RecordReplaySummary } from "../../service/replay.ts";

/**
 * Whether a recomputed number equals the service's: `agree` (equal within 1e-9 relative), `disagree`
 * (a bug on one side), or `not compared` (the service has no such number).
 * @example const verdict: Agreement = "agree";
 */
export type Agreement = "agree" | "disagree" | "not compared";

/**
 * One miner's line of a competition's leaderboard.
 * @example const row: ScoreLeaderboardRow = summary.competitions[0].leaderboard[0];
 */
export interface ScoreLeaderboardRow {
  /** 1 = highest reward weight (lowest smoothed score). */
  readonly rank: number;
  readonly minerUid: number;
  /** The uid's holder at the update (a uid that changed hands is a new miner); null when not read. */
  readonly hotkey: string | null;
  /** pathlab's smoothed score; `null` when the miner has none (no scored prompt). */
  readonly smoothedScore: number | null;
  readonly rewardWeight: number | null;
  readonly serviceSmoothedScore: number | null;
  readonly serviceRewardWeight: number | null;
  /** The service's leaderboard `rewards` for the miner at the same update, if it showed one. */
  readonly leaderboardRewards: number | null;
  /** Mean prompt CRPS over the miner's valid prompts in the range (pathlab's); null when none. */
  readonly meanCrps: number | null;
  /** Observed coverage of the central 90% interval over the miner's prompts; null when none. */
  readonly coverage90: number | null;
  /** Prompts of the range with pathlab's score for the miner, and how many agreed with the service. */
  readonly prompts: number;
  readonly promptsAgreeing: number;
  /** Of its prompts, those on the service's CRPS (path set not available, or `--own-only`). */
  readonly serviceCrpsPrompts: number;
  /** Agreement of the miner's smoothed score, reward weight and leaderboard rewards together. */
  readonly agreement: Agreement;
}

/**
 * Where the candidate model would have ranked on one prompt (1 = lowest CRPS), or why not.
 * @example const placing: CandidatePlacing = { asset: "BTC", startTime: "2026-02-25T23:45:00Z", file: "btc.json", crps: 812.5, rank: 3, of: 14, reason: undefined };
 */
export interface CandidatePlacing {
  readonly asset: string;
  readonly startTime: string;
  readonly file: string;
  readonly crps: number | null;
  readonly rank: number | null;
  /** Entries ranked, the candidate included. */
  readonly of: number;
  readonly reason: string | undefined;
}

/**
 * The candidate's placing in one competition: per prompt, and with its smoothed score among the
 * network's (the prompt scores recomputed with the candidate in each pool).
 * @example summary.competitions[0].candidate?.smoothedRank
 */
export interface CandidateResult {
  /** One placing per candidate file that answers a prompt of the competition. */
  readonly prompts: readonly CandidatePlacing[];
  /** Prompts of its assets it has no file for: scored as a miner that did not answer (the fill). */
  readonly promptsNotAnswered: number;
  readonly smoothedScore: number | null;
  /** Its share of the competition's rewards at the update (softmax of the smoothed scores). */
  readonly rewardWeight: number | null;
  /** Its rank by reward weight among the miners holding uids at the update; null without a score. */
  readonly smoothedRank: number | null;
  readonly of: number;
  /** Its rank, smoothed score and reward weight at every update of the range (`rank_history`), oldest first. */
  readonly trajectory: readonly {
    readonly updatedAt: string;
    readonly rank: number;
    readonly of: number;
    readonly smoothedScore: number;
    readonly rewardWeight: number;
    /** False while the update's window reaches before the range (`rank_history.window_in_range`). */
    readonly windowInRange: boolean;
  }[];
}

/**
 * One competition's results.
 * @example summary.competitions.find((competition) => competition.competition === "crypto-1h")?.leaderboard
 */
export interface CompetitionScores {
  /** The competition's name in the era of the range (`low`/`high` before 2026-06-23). */
  readonly competition: string;
  /** The validator's era at the update compared (the validator's dated rules), e.g. `2026-07-23 SP500 replaces SPYX, …`. */
  readonly era: string;
  /** Every era the range's prompts were scored in, oldest first (one unless it crosses a change). */
  readonly eras: readonly string[];
  /** Its share of the rewards and softmax β at that update. */
  readonly rewardShare: number;
  readonly softmaxBeta: number;
  /** Scoring intervals used for its prompts (name → seconds). */
  readonly intervals: Readonly<Record<string, number>>;
  readonly timeIncrement: number;
  readonly timeLength: number;
  /** The update the smoothed scores are compared at (the service's latest in the range), ISO. */
  readonly asOf: string | null;
  /**
   * Prompts the service scored in the smoothed window that the range (or `--assets`) left out;
   * when above 0 the smoothed scores, reward weights and leaderboard are not compared.
   */
  readonly windowPromptsMissing: number;
  readonly promptsScored: number;
  /** Prompts in the range not scored, counted by why (`not scored yet`, `no score rows at the service`). */
  readonly promptsSkipped: Readonly<Record<string, number>>;
  /** Prompts whose asset has no path sets at the prediction operations: checked on the service's CRPS only. */
  readonly promptsWithoutPathSets: number;
  /** Miner entries on the service's CRPS, by why (not served, unreadable, `--own-only`, …). */
  readonly serviceCrps: Readonly<Record<string, number>>;
  /** Validator updates of the range in `rank_history`. */
  readonly updates: number;
  readonly leaderboard: readonly ScoreLeaderboardRow[];
  readonly candidate: CandidateResult | undefined;
}

/**
 * A loud disagreement between pathlab and the service: which number, both values.
 * @example summary.disagreements[0] // => { what: "crps", where: "crypto-24h BTC 2026-…", minerUid: 17, ours: 812.5, service: 812.7 }
 */
export interface ScoreDisagreement {
  readonly what: string;
  readonly where: string;
  readonly minerUid: number;
  readonly ours: number | null;
  readonly service: number | null;
}

/**
 * A part of a score run that failed and was left out (a prompt whose inputs could not be fetched
 * after the retries, a competition's comparison), with the reason.
 * @example summary.failures[0] // => { where: "crypto-1h BTC 2026-11-21T09:20:00Z", reason: "/validation/realized-path: HTTP 503: …" }
 */
export interface ScoreFailure {
  readonly where: string;
  readonly reason: string;
}

/**
 * Candidate files that failed validation, with the validator's reason string.
 * @example summary.rejectedCandidateFiles[0].reason // => "Number of paths is incorrect: expected 1000, got 999"
 */
export interface RejectedCandidateFile {
  readonly file: string;
  readonly reason: string;
}

/**
 * The summary of one `pathlab score` run.
 * @example const { exitCode, competitions } = await runScore({ from, to });
 */
export interface ScoreSummary extends RecordReplaySummary {
  readonly command: "score";
  readonly runId: number;
  /** The DuckDB file written (`:memory:` when the run wrote a lake). */
  readonly database: string;
  /** The lake written (`score --lake`). */
  readonly lake?: string;
  /** With `skipStored`: the prompts of the range left out because they were stored already. */
  readonly promptsAlreadyStored?: number;
  readonly service: ServiceInfo;
  readonly from: string;
  readonly to: string;
  readonly durationMs: number;
  readonly competitions: readonly CompetitionScores[];
  readonly agreement: {
    readonly agree: number;
    readonly disagree: number;
    readonly notCompared: number;
  };
  readonly disagreements: readonly ScoreDisagreement[];
  /** Prompts (or comparisons) that failed and were left out, with the reason; the rest was scored. */
  readonly failures: readonly ScoreFailure[];
  /** Whether only the candidate was recomputed (every miner on the service's CRPS). */
  readonly ownOnly: boolean;
  readonly rejectedCandidateFiles: readonly RejectedCandidateFile[];
  /** Candidate files that answer no prompt of the range, with the reason. */
  readonly unmatchedCandidateFiles: readonly RejectedCandidateFile[];
  /** 0 everything agrees, 1 a disagreement, a failed prompt, or a candidate file that answers no prompt. */
  readonly exitCode: number;
}

/**
 * Progress of a `score` run, for progress bars.
 * @example const onEvent = (event: ScoreEvent) => event.type === "prompt" && console.error(event.asset);
 */
export type ScoreEvent =
  | { readonly type: "plan"; readonly competition: string; readonly prompts: number }
  | {
      readonly type: "prompt";
      readonly competition: string;
      readonly asset: string;
      readonly startTime: string;
      readonly done: number;
      readonly of: number;
      readonly miners: number;
    };
