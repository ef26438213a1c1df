/**
 * Venue comparisons judged as a trader would (issue 24): after a real sync against the sandbox,
 * every market is marked decided or not, every hit market the service reports touched is
 * decided, the stored edges are exactly those that clear the spread, fee (0.07 p (1 − p)) and
 * rounding (half a cent), recomputed here in SQL from the stored prices, and the summary ranks
 * edges only among live markets with such an edge.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPathlab } from "../../cli/runPathlab.ts";

describe("venue comparisons: decided markets and tradable edges", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-venue-"));
  const database = join(directory, "venues.duckdb");
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const query = async (sql: string) => {
    const result = await runPathlab(["query", "--db", database, "--ndjson", sql]);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it("marks every market, and stores exactly the edges beyond the spread, fee and rounding", async () => {
    const sync = await runPathlab([
      "sync",
      "--now",
      "2026-11-20T10:00:00Z",
      "--assets",
      "BTC,ETH",
      "--db",
      database,
      "--json",
    ]);
    expect(sync.code, sync.stderr).toBe(0);
    const summary = JSON.parse(sync.stdout) as {
      venueEdges: {
        markets: number;
        decided: number;
        tradable: number;
        edges: { netEdge: number }[];
      };
    };

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
