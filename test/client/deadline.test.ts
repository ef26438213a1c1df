/**
 * The overall deadline of a call (`deadlineMs`) against a real server on 127.0.0.1 that drips its
 * body one byte at a time: no per-chunk timeout fires, and the deadline ends the call.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/client/create-client.ts";
import { TimeoutError } from "../../src/client/errors.ts";
import type { ClientEvent } from "../../src/client/events.ts";
import type { ClientOptions } from "../../src/client/options.ts";
import { serveAndConnect, testApiKey } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A server that sends 200 at once, then one byte of `[` every `intervalMs` for ever. */
async function startDripServer(intervalMs: number): Promise<{ baseUrl: string; requests: number }> {
  const state = { baseUrl: "", requests: 0 };
  const server = createServer((_request, response) => {
    state.requests += 1;
    response.writeHead(200, { "content-type": "application/json" });
    response.flushHeaders();
    const timer = setInterval(() => response.write("["), intervalMs);
    response.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function connect(baseUrl: string, options: Partial<ClientOptions>) {
  const events: ClientEvent[] = [];
  const client = createClient({
    baseUrl,
    apiKey: testApiKey,
    retryBaseMs: 1,
    onEvent: (event) => events.push(event),
    ...options,
  });
  cleanups.push(() => client.close());
  return { client, events };
}

async function deadlineFailure(promise: Promise<unknown>): Promise<TimeoutError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ phase: "deadline" });
  return error as TimeoutError;
}

describe("deadline", () => {
  it("a server that drips bytes hits the deadline although no per-attempt limit fires", async () => {
    const server = await startDripServer(20);
    const { client, events } = connect(server.baseUrl, {
      deadlineMs: 500,
      timeoutMs: 60_000,
      bodyTimeoutMs: 60_000,
      maxRetries: 5,
    });
    const error = await deadlineFailure(client.leaderboard.v2Latest());
    expect(error).toMatchObject({ operation: "/v2/leaderboard/latest", timeoutMs: 500 });
    expect(error.message).toMatch(
      /^\/v2\/leaderboard\/latest: timed out after 500 ms for the whole call, all attempts and waits \(deadlineMs\): GET http:\/\/127\.0\.0\.1:\d+\/v2\/leaderboard\/latest$/,
    );
    // The deadline is final: no retry followed.
    expect(server.requests).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: "failure", reason: "TimeoutError", attempt: 1 });
  });

  it("attempts that time out one after another end at the deadline, not after every retry", async () => {
    const server = await startDripServer(20);
    const { client, events } = connect(server.baseUrl, {
      deadlineMs: 700,
      timeoutMs: 200,
      maxRetries: 50,
    });
    const error = await deadlineFailure(client.leaderboard.v2Latest());
    expect(error.timeoutMs).toBe(700);
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.every((event) => event.reason === "TimeoutError")).toBe(true);
    // Far fewer than the 51 attempts the retry budget allows.
    expect(server.requests).toBeLessThan(10);
  });

  it("a retry whose wait would pass the deadline is not waited for", async () => {
    const body = minimalBodies["/v2/leaderboard/latest"];
    const { server, client, events } = await serveAndConnect(
      [{ status: 429, body: "slow down", headers: { "retry-after": "3600" } }, { body }],
      { deadlineMs: 2000, retryMaxMs: 60_000, maxRetries: 2 },
    );
    const error = await deadlineFailure(client.leaderboard.v2Latest());
    expect(error).toMatchObject({ status: 429, timeoutMs: 2000 });
    expect(error.message).toContain(
      "timed out after 2000 ms for the whole call, all attempts and waits (deadlineMs): " +
        "no time left for another retry; last failure: /v2/leaderboard/latest: HTTP 429",
    );
    expect((error.cause as Error).name).toBe("RateLimitError");
    expect(server.requests).toHaveLength(1);
    expect(events.filter((event) => event.type === "retry")).toHaveLength(0);
  });

  it("deadlineMs is checked when the client is created", () => {
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", deadlineMs: 0 })).toThrow(
      'createClient: option "deadlineMs": expected a number of milliseconds > 0',
    );
  });
});
