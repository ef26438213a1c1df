import { getEventListeners } from "node:events";
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
    // aborted once the request is at the server, which answers 5 s later
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(server.answered, "the call ended before the server answered").toBe(0);
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

describe("a view of the client with its own signal (withSignal)", () => {
  it("its calls stop with the view's signal; the client's other calls go on", async () => {
    const { server, client } = await serveAndConnect(
      (request) => ({ body, headersDelayMs: request.query.has("days") ? 0 : 5000 }),
      { concurrency: 2 },
    );
    const controller = new AbortController();
    const unit = client.withSignal(controller.signal);
    const reason = new Error("the unit's deadline");
    const slow = unit.leaderboard.v2Latest();
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort(reason);
    await expect(slow).rejects.toBe(reason);
    expect(server.answered).toBe(0);
    // the view refuses later calls without sending them; the client itself is unaffected
    await expect(unit.leaderboard.v2Latest()).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
    await expect(
      client.request("/v2/meta-leaderboard/latest", { prompt_name: "crypto-1h", days: 14 }),
    ).resolves.toEqual(expect.any(Array));
    expect(server.requests).toHaveLength(2);
  });

  it("a call through a view leaves no listener behind on the view's signal", async () => {
    const { client } = await serveAndConnect([{ body }]);
    const controller = new AbortController();
    const unit = client.withSignal(controller.signal);
    await Promise.all(Array.from({ length: 20 }, () => unit.leaderboard.v2Latest()));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("also stops when the client's own signal aborts", async () => {
    const jobSignal = new AbortController();
    const { server, client } = await serveAndConnect([{ body, headersDelayMs: 5000 }], {
      signal: jobSignal.signal,
    });
    const unit = client.withSignal(new AbortController().signal);
    const call = unit.leaderboard.v2Latest();
    await expect.poll(() => server.requests.length).toBe(1);
    jobSignal.abort(new Error("interrupted"));
    await expect(call).rejects.toThrow("interrupted");
    expect(server.answered).toBe(0);
  });
});
