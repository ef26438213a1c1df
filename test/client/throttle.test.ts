/** The client's `throttle` option: a pacer awaited before every attempt. */

import { describe, expect, it } from "vitest";
import { serveAndConnect } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";

const body = minimalBodies["/insights/liquidation"];

describe("throttle", () => {
  it("is awaited before every attempt, retries included", async () => {
    const waits: number[] = [];
    const { server, client } = await serveAndConnect([{ status: 503, body: "busy" }, { body }], {
      maxRetries: 1,
      throttle: async () => {
        waits.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 30));
      },
    });
    await client.insights.liquidation();
    expect(waits).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it("a throttle that rejects fails the call without sending", async () => {
    const { server, client } = await serveAndConnect([{ body }], {
      throttle: () => Promise.reject(new Error("no slot")),
    });
    await expect(client.insights.liquidation()).rejects.toThrow("no slot");
    expect(server.requests).toHaveLength(0);
  });
});
