/**
 * Child process of the crash test: opens the store at argv[2], starts a unit's transaction, writes
 * ten path sets and an insight into it, prints "inside" and waits to be killed before committing.
 */
import { insertInsights } from "../../../src/store/insights.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { insertPathSets } from "../../../src/store/pathSets.ts";
import { randomPathSet } from "../helpers.ts";

const [path] = process.argv.slice(2);
const store = await openStore(path);
await store.withTransaction(async (connection) => {
  const entries = Array.from({ length: 10 }, (_, miner) => ({
    pathSet: randomPathSet(miner, 1000, 289),
    source: "child",
    fetchedAtUnix: 1772063117,
  }));
  await insertPathSets(connection, entries, null);
  const place = {
    asset: "BTC",
    horizon: "24h",
    forecastStartTimeUnix: 1772063100,
    runId: null,
  } as const;
  await insertInsights(connection, place, [
    { operation: "/insights/liquidation", source: "recomputed", record: { current_price: 1 } },
  ]);
  console.log("inside");
  setInterval(() => undefined, 60_000); // keeps the process alive until the test kills it
  await new Promise(() => undefined);
});
