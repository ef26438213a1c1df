/**
 * pathlab's default paths for the operations whose path the spec does not show. This is the one place
 * they are decided; the operations built on them have `pathShown: false`, and a client may override
 * them for a deployment that uses other paths.
 *
 * | Operation                            | Default path                        | Shown by the spec |
 * |--------------------------------------|-------------------------------------|-------------------|
 * | Latest meta-leaderboard              | `/v2/meta-leaderboard/latest`       | no                |
 * | Meta-leaderboard history             | `/v2/meta-leaderboard/historical`   | no                |
 * | Miner validation status              | `/validation/miner`                 | no                |
 * | Latest scores                        | `/validation/scores/latest`         | no                |
 * | Historical scores                    | `/validation/scores/historical`     | yes (listed here for completeness) |
 * | Miners that took a uid               | `/validation/uid-holders`           | no                |
 * | Smoothed scores and reward weights   | `/validation/smoothed-scores`       | no                |
 * | Validator prompts                    | `/validation/prompts`               | no                |
 * | Realized price path                  | `/validation/realized-path`         | no                |
 * | Multi-asset scoring minutes          | `/validation/multi-asset-minutes`   | no                |
 *
 * The metamodel paths `/v2/prediction/metamodel` and `/v2/prediction/metamodel/historical` ARE shown
 * by the spec (only their parameters and responses are not): pathlab gives them the common prediction
 * parameters (plus a required `start_time` for the historical one) and decodes their responses as
 * arrays of prediction sets.
 * @example
 * DEFAULT_PATHS.smoothedScores // => "/validation/smoothed-scores"
 */
export const DEFAULT_PATHS = {
  metaLeaderboardLatest: "/v2/meta-leaderboard/latest",
  metaLeaderboardHistorical: "/v2/meta-leaderboard/historical",
  minerValidation: "/validation/miner",
  scoresLatest: "/validation/scores/latest",
  scoresHistorical: "/validation/scores/historical",
  uidHolders: "/validation/uid-holders",
  smoothedScores: "/validation/smoothed-scores",
  prompts: "/validation/prompts",
  realizedPath: "/validation/realized-path",
  multiAssetMinutes: "/validation/multi-asset-minutes",
} as const;

/**
 * Paths of the live deployment that differ from {@link DEFAULT_PATHS}: the validator's newer
 * smoothed-scores endpoint, `/rewards/scores?prompt_name=<competition>`, which the network's
 * public backtester reads (the validator's dated rules). Jobs run under the live naming use these unless the
 * caller's `paths` say otherwise; the sandbox serves them beside the defaults.
 * @example
 * LIVE_PATHS["/validation/smoothed-scores"] // => "/rewards/scores"
 */
export const LIVE_PATHS: Readonly<Record<string, string>> = Object.freeze({
  [DEFAULT_PATHS.smoothedScores]: "/rewards/scores",
});
