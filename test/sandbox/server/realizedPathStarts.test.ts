/**
 * The realized-path operation answers only at prompt starts, as the live service does, and
 * `fetchMinuteCloses` builds minute closes from those requests alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { coveringStarts, fetchMinuteCloses } from "../../../src/jobs/sync/fetchMinuteCloses.ts";
import type { PathlabClient } from "../../../src/client/pathlab-client.ts";
import type { ClientExchange } from "../../../src/client/exchange.ts";
import type { RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { openSandbox, rawGet } from "./sandboxSetup.ts";

let sandbox: RunningSandbox;
let client: PathlabClient;
const exchanges: ClientExchange[] = [];

beforeAll(async () => {
  const opened = await openSandbox();
  sandbox = opened.sandbox;
  ({ client } = opened.connect({ onExchange: (exchange) => exchanges.push(exchange) }));
});

const iso = (unix: number) => new Date(unix * 1000).toISOString().replace(".000Z", "Z");

function realizedUrl(asset: string, startUnix: number, increment = 60, length = 3600): string {
  const query = new URLSearchParams({
    asset,
    start_time: iso(startUnix),
    time_increment: String(increment),
    time_length: String(length),
  });
  return `${sandbox.url}/validation/realized-path?${query}`;
}

describe("the sandbox's realized-path operation", () => {
  it("answers at a prompt start of the asset and shape, and refuses any other start with 400", async () => {
    const start = sandbox.world.latestPromptStart("ETH", "1h") as number;
    expect((await rawGet(realizedUrl("ETH", start))).status).toBe(200);
    const off = await rawGet(realizedUrl("ETH", start + 60));
    expect(off.status).toBe(400);
    expect(off.body.toString()).toContain(
      `parameter "start_time": expected the start of a 1h prompt of ETH (realized paths are answered at prompt starts only`,
    );
    // A 1h start is not a 24h start: the shape decides which prompts count.
    const daily = sandbox.world.latestPromptStart("ETH", "24h") as number;
    expect((await rawGet(realizedUrl("ETH", daily, 300, 86400))).status).toBe(200);
    expect((await rawGet(realizedUrl("ETH", daily + 1200, 300, 86400))).status).toBe(400);
  });
});

describe("fetchMinuteCloses", () => {
  it("equals the sandbox's minute closes over 27 hours, asking realized paths only at prompt starts", async () => {
    const to = sandbox.world.nowUnix - 600;
    const from = to - 27 * 3600;
    exchanges.length = 0;
    const closes = await fetchMinuteCloses(client, "SOL", from, to);
    for (let minute = Math.floor(from / 60) * 60; minute <= to; minute += 60) {
      expect(closes.minuteClose(minute)).toBe(sandbox.world.minuteClose("SOL", minute));
    }
    const requested = exchanges
      .filter((exchange) => exchange.operation === "/validation/realized-path")
      .map((exchange) => {
        expect(exchange.status).toBe(200);
        return Date.parse(new URLSearchParams(exchange.query).get("start_time")!) / 1000;
      });
    expect(requested.length).toBeGreaterThanOrEqual(27);
    expect(requested.length).toBeLessThanOrEqual(28);
    for (const start of requested) {
      expect(sandbox.world.promptStarts("SOL", "1h", start, start)).toEqual([start]);
    }
  });

  it("coveringStarts picks the fewest starts that reach every minute, and leaves gaps no start covers", () => {
    expect(coveringStarts([0, 1200, 2400, 3600, 4800], 600, 5400, 3600)).toEqual([0, 3600]);
    expect(coveringStarts([0, 1200, 2400, 3600, 4800], 3660, 3660, 3600)).toEqual([3600]);
    // A 2-hour gap in the prompts: the next start after it is taken.
    expect(coveringStarts([0, 10800], 0, 14400, 3600)).toEqual([0, 10800]);
    expect(coveringStarts([], 0, 3600, 3600)).toEqual([]);
    expect(coveringStarts([7200], 0, 3600, 3600)).toEqual([]);
  });
});
