/** Leaderboard rows: V1 (legacy, `/leaderboard/*`) and V2 (`/v2/leaderboard/*`, meta-leaderboards). */
import {
  arrayOf,
  finiteNumberCodec,
  integerCodec,
  objectOf,
  probabilityCodec,
  stringCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";

/**
 * A legacy V1 leaderboard row: on-chain metrics of one neuron.
 * @example
 * const top = rows.reduce((best, row) => (row.incentive > best.incentive ? row : best));
 */
export interface LeaderboardV1Row {
  updated_at: string;
  neuron_uid: number;
  /** Wallet address. */
  coldkey: string;
  ip_address: string;
  /** In [0,1]. */
  incentive: number;
  /** Per block. */
  emission: number;
  stake: number;
  /** In [0,1]. */
  rank: number;
  /** In [0,1]. */
  pruning_score: number;
}

/**
 * Codec of an array of {@link LeaderboardV1Row}.
 * @example
 * leaderboardV1RowsCodec.decode([], state) // => []
 */
export const leaderboardV1RowsCodec: Codec<LeaderboardV1Row[]> = arrayOf(
  objectOf<LeaderboardV1Row>({
    updated_at: timeCodec,
    neuron_uid: integerCodec,
    coldkey: stringCodec,
    ip_address: stringCodec,
    incentive: probabilityCodec,
    emission: finiteNumberCodec,
    stake: finiteNumberCodec,
    rank: probabilityCodec,
    pruning_score: probabilityCodec,
  }),
);

/**
 * A V2 leaderboard or meta-leaderboard row: rewards of one miner in the selected competition.
 * @example
 * const uids = rows.slice(0, 10).map((row) => row.neuron_uid);
 */
export interface LeaderboardV2Row {
  updated_at: string;
  neuron_uid: number;
  /** Wallet address (empty in the captured responses). */
  coldkey: string;
  ip_address: string;
  /** Higher means better forecasting. */
  rewards: number;
}

/**
 * Codec of an array of {@link LeaderboardV2Row}.
 * @example
 * leaderboardV2RowsCodec.decode(json, state)[0].neuron_uid // => 47
 */
export const leaderboardV2RowsCodec: Codec<LeaderboardV2Row[]> = arrayOf(
  objectOf<LeaderboardV2Row>({
    updated_at: timeCodec,
    neuron_uid: integerCodec,
    coldkey: stringCodec,
    ip_address: stringCodec,
    rewards: finiteNumberCodec,
  }),
);
