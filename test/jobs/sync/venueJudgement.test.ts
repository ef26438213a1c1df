/**
 * Venue comparisons judged as a trader would (issue 24): after a real sync against an embedded
 * sandbox (the small world: the venues' markets do not depend on the miners' number), every
 * market is marked decided or not, every hit market the service reports touched is decided, the
 * stored edges are exactly those that clear the spread, fee (0.07 p (1 − p)) and rounding (half a
 * cent), recomputed here in SQL from the stored prices, exactly the live ones beyond 2 standard
 * errors of the model (Monte-Carlo and between the miners) are tradable, and the summary ranks
 * edges only among live markets with such an edge, the tradable first.
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
      count(*) filter (not decided and edge_side is not null) beyond_spread,
      count(*) filter (tradable) tradable,
      count(recomputed_probability) recomputed,
      count(between_miner_standard_error) with_between_miners from venue_comparisons`);
    expect(Number(counts.n)).toBeGreaterThan(40);
    expect(counts.judged).toBe(counts.n);
    expect(Number(counts.decided)).toBeGreaterThan(0);
    expect(Number(counts.beyond_spread)).toBeGreaterThan(0);
    expect(summary.venueEdges).toMatchObject({
      markets: Number(counts.n),
      decided: Number(counts.decided),
      beyondSpread: Number(counts.beyond_spread),
      tradable: Number(counts.tradable),
    });
    // Every recomputed probability carries its spread between the miners (discrete touches).
    expect(counts.with_between_miners).toBe(counts.recomputed);

    // Tradable, derived again from the stored columns: live, an edge beyond the spread, and beyond
    // 2 standard errors (Monte-Carlo and between the miners); so no tradable edge lies within them.
    const misjudged = await query(`select market, tradable from venue_comparisons
      where tradable is distinct from coalesce(decided is not true and edge_side is not null
        and net_edge > 2 * sqrt(recomputed_standard_error ^ 2
          + between_miner_standard_error ^ 2), false)`);
    expect(misjudged).toEqual([]);
    const [within] = await query(`select count(*) n from venue_comparisons where tradable
      and net_edge <= 2 * sqrt(recomputed_standard_error ^ 2 + between_miner_standard_error ^ 2)`);
    expect(Number(within.n)).toBe(0);
    // The rule sets some edges apart: beyond the spread, but within the model's uncertainty.
    expect(Number(counts.tradable)).toBeLessThan(Number(counts.beyond_spread));

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

    // The summary's edges: the largest among live markets beyond the spread, tradable first.
    const top = await query(`select net_edge, tradable from venue_comparisons
      where not decided and edge_side is not null order by tradable desc, net_edge desc limit 5`);
    expect(
      summary.venueEdges.edges.map((edge) => ({ net_edge: edge.netEdge, tradable: edge.tradable })),
    ).toEqual(top);
  }, 180_000);
});
