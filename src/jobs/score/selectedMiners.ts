/**
 * The miners a score run recomputes from their path sets, as its `--miners` says.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import type { CompetitionName } from "../../domain/competitions.ts";
import { ENSEMBLE_DAYS } from "../../domain/insightConventions.ts";
import type { MinerSelection } from "./options.ts";

/**
 * The uids of `miners` in `competition`: the meta-leaderboard's first N now (`top`), the uids
 * given, or `undefined` for every miner the service scored (`all`).
 * @example await selectedMiners(client, { top: 10 }, "crypto-24h") // => [47, 12, …]
 */
export async function selectedMiners(
  client: PathlabClient,
  miners: MinerSelection,
  competition: CompetitionName,
): Promise<readonly number[] | undefined> {
  if (miners === "all") return undefined;
  if ("uids" in miners) return miners.uids;
  const rows = await client.request("/v2/meta-leaderboard/latest", {
    days: ENSEMBLE_DAYS,
    prompt_name: competition as "crypto-1h",
  });
  return rows.slice(0, miners.top).map((row) => row.neuron_uid);
}
