// Shown and run in docs/library.md: scripts/docs.mjs checks both; tsc checks the types.
import { createClient, RateLimitError } from "pathlab/client";
import { InvalidParamsError, liveNaming } from "pathlab/domain";

const client = createClient({
  baseUrl: process.env.PATHLAB_BASE_URL!,
  apiKey: process.env.PATHLAB_API_KEY,
  naming: liveNaming, // the deployment names venue A `polymarket` and the model `synth`
});

const liquidation = await client.insights.liquidation({ asset: "BTC", horizon: "24h" });
console.log(liquidation.data[0].long_liquidation_probability["24"]);

const board = await client.leaderboard.v2Latest({ prompt_name: "crypto-24h" });
const top = board.slice(0, 10).map((row) => row.neuron_uid);
const sets = await client.predictions.latest({
  asset: "BTC",
  time_increment: 300,
  time_length: 86400,
  miner: top, // sent as miner=…&miner=…
});
console.log(sets.map((set) => [set.miner_uid, set.predictions.length]));

// the same call through the generic entry point, keyed by the spec's path:
const same = await client.request("/insights/liquidation", { asset: "BTC" });
console.log(same.current_price === liquidation.current_price);

try {
  // at most 7 days: throws before sending (an asset an operation does not support is a type error)
  await client.validation.smoothedScores({ from: "2026-11-01", to: "2026-11-20" });
} catch (error) {
  if (error instanceof InvalidParamsError) console.error(error.message); // nothing was sent
  if (error instanceof RateLimitError) console.error(error.retryAfterMs);
}
// the last values the service reported, if any
console.log(client.credits?.remaining, client.rateLimit?.limit);
await client.close();
