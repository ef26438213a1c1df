import diagnostics from "node:diagnostics_channel";
import { createServer, type Server } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSemaphore } from "../../../src/client/semaphore.ts";
import { inFetchLane } from "../../../src/jobs/harness/fetchLane.ts";
import { createClient } from "../../../src/client/create-client.ts";
import type { PathlabClient } from "../../../src/client/pathlab-client.ts";

let server: Server;
let baseUrl: string;
const agent = new Agent({ connections: 4 });
// What happened, in order: undici's channel reports each request's headers as they are written.
const events: string[] = [];
const onHeadersSent = (message: unknown) => {
  events.push(`sent ${(message as { request: { path: string } }).request.path}`);
};

beforeAll(async () => {
  // every request is answered; a 404 for the unit requests, which the test does not read
  server = createServer((request, response) => {
    response.statusCode = request.url?.startsWith("/insights/") === true ? 404 : 200;
    response.end(response.statusCode === 404 ? '{"detail":"not here"}' : "ok");
  });
  // kept-alive connections stay open through a slow run (undici closes them 2 s before this)
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  diagnostics.subscribe("undici:client:sendHeaders", onHeadersSent);
});

afterAll(async () => {
  diagnostics.unsubscribe("undici:client:sendHeaders", onHeadersSent);
  await agent.close();
  await new Promise((closed) => server.close(closed));
});

async function get(path: string): Promise<string> {
  const response = await request(`${baseUrl}${path}`, { dispatcher: agent });
  return response.body.text();
}

/** A unit's first requests, made as sync makes them: through the job's client, in parallel. */
function unitRequests(client: PathlabClient): Promise<unknown> {
  const params = { asset: "BTC", horizon: "24h" } as never;
  return Promise.allSettled([
    client.request("/insights/liquidation", params),
    client.request("/insights/lp-bounds", params),
  ]);
}

describe("inFetchLane", () => {
  it("runs the fetch and resolves with its result; without a lane, at once", async () => {
    expect(await inFetchLane(undefined, () => get("/alone"))).toBe("ok");
    expect(await inFetchLane(createSemaphore(1), () => get("/in-lane"))).toBe("ok");
    await expect(
      inFetchLane(createSemaphore(1), () => Promise.reject(new Error("fetch failed"))),
    ).rejects.toThrow("fetch failed");
  });

  it("writes the next unit's requests before the caller goes on to its recomputation", async () => {
    const client = createClient({ baseUrl, apiKey: "test-key", maxRetries: 0 });
    try {
      // open connections, as a sync has after its first unit: a new one also waits for its connect
      await unitRequests(client);
      await delay(20);
      const lane = createSemaphore(1);
      for (let round = 0; round < 5; round++) {
        events.length = 0;
        let finishFirst = () => {};
        const first = inFetchLane(lane, () => new Promise<void>((done) => (finishFirst = done)));
        const next = inFetchLane(lane, () => unitRequests(client));
        // the first unit's synchronous recomputation begins as soon as its fetch returns
        const firstUnit = first.then(() => events.push("first unit recomputes"));
        finishFirst();
        await firstUnit;
        await next;
        expect(events).toEqual([
          "sent /insights/liquidation?asset=BTC&horizon=24h",
          "sent /insights/lp-bounds?asset=BTC&horizon=24h",
          "first unit recomputes",
        ]);
      }
    } finally {
      await client.close();
    }
  });
});
