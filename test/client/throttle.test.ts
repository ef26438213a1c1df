/** The client's `throttle` option: a pacer awaited before every attempt. */

import { describe, expect, it } from "vitest";
import { serveAndConnect } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";

const body = minimalBodies["/insights/liquidation"];

describe("throttle", () => {
  it("is awaited before every attempt, retries included: nothing is sent while it waits", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const { server, client } = await serveAndConnect([{ status: 503, body: "busy" }, { body }], {
      maxRetries: 1,
      retryBaseMs: 1,
      throttle: async () => {
        calls += 1;
        if (calls === 1) await gate;
      },
    });
    const call = client.insights.liquidation();
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(0);
    release();
    await call;
    expect(calls).toBe(2);
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
