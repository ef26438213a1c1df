/**
 * Venue comparisons judged as a trader would (issue 24): after a real sync against an embedded
 * sandbox (the small world: the venues' markets do not depend on the miners' number), every
 * market is marked decided or not, every hit market the service reports touched is decided, the
 * stored edges are exactly those that clear the spread, fee (0.07 p (1 − p)) and rounding (half a
 * cent), recomputed here in SQL from the stored prices, and the summary ranks edges only among
 * live markets with such an edge.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { runSync } from "../../../src/jobs/sync/sync.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

describe("venue comparisons: decided markets and tradable edges", () => {
  let sandbox: EmbeddedSandbox;
  let folder: string;
  let remove: () => void;
  beforeAll(async () => {
    sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, now: "2026-11-20T10:00:00Z" });
    ({ folder, remove } = temporaryFolder());
  });
  afterAll(async () => {
    await sandbox?.close();
    remove?.();
  });
  const database = () => join(folder, "venues.duckdb");

  /** The rows of `sql` as objects by column name. */
  const query = async (sql: string) => {
    const store = await openStore(database(), { readOnly: true });
    try {
      const { columns, rows } = await queryRows(store, sql);
      return rows.map((row) =>
        Object.fromEntries(columns.map((column, index) => [column, row[index]])),
      );
    } finally {
      await store.close();
    }
  };

  it("marks every market, and stores exactly the edges beyond the spread, fee and rounding", async () => {
    const summary = await runSync({
      assets: ["BTC", "ETH"],
      database: database(),
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
    });
    expect(summary.exitCode, JSON.stringify(summary.failures)).toBe(0);

    const [counts] = await query(`select count(*) n, count(decided) judged,
      count(*) filter (decided) decided,
      count(*) filter (not decided and edge_side is not null) tradable from venue_comparisons`);
    expect(Number(counts.n)).toBeGreaterThan(40);
    expect(counts.judged).toBe(counts.n);
    expect(Number(counts.decided)).toBeGreaterThan(0);
    expect(Number(counts.tradable)).toBeGreaterThan(0);
    expect(summary.venueEdges).toMatchObject({
      markets: Number(counts.n),
      decided: Number(counts.decided),
      tradable: Number(counts.tradable),
    });

    // A hit level the service reports touched (current_outcome 1) is decided.
    const touched = await query(`select decided from venue_comparisons
      where kind = 'hit' and json_extract(record, '$.current_outcome')::INTEGER = 1`);
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.every((row) => row.decided === true)).toBe(true);

    // The edge, derived again from the stored prices.
    const mismatches = await query(`with derived as (
        select edge_side, net_edge,
          coalesce(recomputed_probability, service_probability) as model,
          case when best_ask_price > 0 and best_ask_price < 1 then
            model - best_ask_price - 0.07 * best_ask_price * (1 - best_ask_price) - 0.005 end as buy,
          case when best_bid_price > 0 and best_bid_price < 1 then
            best_bid_price - model - 0.07 * best_bid_price * (1 - best_bid_price) - 0.005 end as sell
        from venue_comparisons)
      select * from derived
      where edge_side is distinct from (case when buy > 0 then 'buy' when sell > 0 then 'sell' end)
        or abs(net_edge - (case when buy > 0 then buy else sell end)) > 1e-12`);
    expect(mismatches).toEqual([]);

    // The summary's edges: the largest among live tradable markets, largest first.
    const top = await query(`select net_edge from venue_comparisons
      where not decided and edge_side is not null order by net_edge desc limit 5`);
    expect(summary.venueEdges.edges.map((edge) => edge.netEdge)).toEqual(
      top.map((row) => row.net_edge),
    );
  }, 180_000);
});
