import { Agent, errors } from "undici";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client/create-client.ts";
import { TimeoutError } from "../../src/client/errors.ts";
import { serveAndConnect } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";

const body = minimalBodies["/v2/leaderboard/latest"];

async function failure(promise: Promise<unknown>): Promise<TimeoutError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TimeoutError);
  return error as TimeoutError;
}

describe("timeouts", () => {
  it("slow response headers end in TimeoutError (headers) after headersTimeoutMs", async () => {
    const { server, client } = await serveAndConnect([{ body, headersDelayMs: 3000 }], {
      headersTimeoutMs: 100,
      maxRetries: 0,
    });
    // the server would answer after 3 s: the error is the client's own, at the limit it names
    const error = await failure(client.leaderboard.v2Latest());
    expect(error).toMatchObject({
      phase: "headers",
      timeoutMs: 100,
      operation: "/v2/leaderboard/latest",
    });
    expect(error.message).toMatch(
      /^\/v2\/leaderboard\/latest: timed out after 100 ms waiting for the response headers \(headersTimeoutMs\): GET http:\/\/127\.0\.0\.1:\d+\/v2\/leaderboard\/latest$/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("a stalled body ends in TimeoutError (body) after bodyTimeoutMs", async () => {
    const { client } = await serveAndConnect([{ body, bodyDelayMs: 3000 }], {
      bodyTimeoutMs: 100,
      maxRetries: 0,
    });
    const error = await failure(client.leaderboard.v2Latest());
    expect(error).toMatchObject({ phase: "body", timeoutMs: 100 });
  });

  it("timeoutMs bounds the whole attempt even when the phase limits are longer", async () => {
    const { client } = await serveAndConnect([{ body, headersDelayMs: 60, bodyDelayMs: 3000 }], {
      timeoutMs: 150,
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 10_000,
      maxRetries: 0,
    });
    const error = await failure(client.leaderboard.v2Latest());
    expect(error).toMatchObject({ phase: "attempt", timeoutMs: 150 });
    expect(error.message).toContain("timed out after 150 ms for the whole attempt (timeoutMs)");
  });

  it("a timed-out attempt is retried", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ body, headersDelayMs: 3000 }, { body }],
      { headersTimeoutMs: 100, maxRetries: 1 },
    );
    const rows = await client.leaderboard.v2Latest();
    expect(rows[0].rewards).toBe(0.12);
    expect(server.requests).toHaveLength(2);
    expect(events.find((event) => event.type === "retry")).toMatchObject({
      reason: "TimeoutError",
    });
  });

  it("a connect timeout of the dispatcher is a TimeoutError (connect)", async () => {
    // A connector that reports undici's own connect timeout, as a blackholed address would.
    let connects = 0;
    const dispatcher = new Agent({
      connect: (_options, callback) => {
        connects += 1;
        callback(new errors.ConnectTimeoutError(), null);
      },
    });
    const client = createClient({
      baseUrl: "http://127.0.0.1:9",
      dispatcher,
      connectTimeoutMs: 250,
      maxRetries: 1,
      retryBaseMs: 1,
    });
    try {
      const error = await failure(client.leaderboard.latest());
      expect(error).toMatchObject({ phase: "connect", timeoutMs: 250 });
      expect(error.message).toContain("timed out after 250 ms connecting (connectTimeoutMs)");
      expect(connects).toBe(2);
    } finally {
      await client.close();
      await dispatcher.close();
    }
  });
});
