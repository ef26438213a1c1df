import { describe, expect, it } from "vitest";
import { serveAndConnect } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";

const body = minimalBodies["/v2/leaderboard/latest"];

describe("the client's signal", () => {
  it("cancels an attempt in flight: the call rejects with the signal's reason, unretried", async () => {
    const controller = new AbortController();
    const { server, client, events } = await serveAndConnect([{ body, headersDelayMs: 5000 }], {
      signal: controller.signal,
      maxRetries: 3,
    });
    const reason = new Error("stop now");
    const call = client.leaderboard.v2Latest();
    setTimeout(() => controller.abort(reason), 100);
    const started = performance.now();
    await expect(call).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(4000);
    expect(server.requests).toHaveLength(1);
    expect(events.filter((event) => event.type === "retry")).toEqual([]);
  });

  it("ends a wait before a retry, and refuses later calls without sending them", async () => {
    const controller = new AbortController();
    const { server, client, events } = await serveAndConnect([{ status: 503, body: "busy" }], {
      signal: controller.signal,
      maxRetries: 3,
      retryBaseMs: 10_000,
      retryMaxMs: 10_000,
    });
    const call = client.leaderboard.v2Latest();
    const retrying = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (events.some((event) => event.type === "retry")) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    await retrying;
    controller.abort(new Error("interrupted"));
    await expect(call).rejects.toThrow("interrupted");
    expect(server.requests).toHaveLength(1);
    await expect(client.leaderboard.v2Latest()).rejects.toThrow("interrupted");
    expect(server.requests).toHaveLength(1);
  });

  it("takes many calls in flight on one signal without a listener warning", async () => {
    const controller = new AbortController();
    const { client } = await serveAndConnect([{ status: 503, body: "busy" }, { body }], {
      signal: controller.signal,
      concurrency: 32,
      maxRetries: 2,
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      await Promise.all(Array.from({ length: 30 }, () => client.leaderboard.v2Latest()));
      await new Promise((resolve) => setTimeout(resolve, 50)); // warnings are emitted on a later tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });
});
