import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client/create-client.ts";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  PaymentRequiredError,
  RateLimitError,
  ResponseDecodeError,
  ServerError,
} from "../../src/client/errors.ts";
import type { ClientEvent } from "../../src/client/events.ts";
import { DecodeError } from "../../src/domain/errors.ts";
import { serveAndConnect } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";
import { startScriptedServer } from "./scripted-server.ts";

const body = minimalBodies["/insights/liquidation"];

/**
 * The waits before each retry, as the client's retry events report them: it sleeps exactly
 * `delayMs` after emitting one (how the wait is computed: test/client/retry.test.ts).
 */
function retryDelays(events: readonly ClientEvent[]): number[] {
  return events.flatMap((event) => (event.type === "retry" ? [event.delayMs] : []));
}

describe("retries", () => {
  it("503, 503, then 200: three attempts and the record", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ status: 503, body: "busy" }, { status: 503, body: "busy" }, { body }],
      { maxRetries: 2 },
    );
    const record = await client.insights.liquidation();
    expect(record.current_price).toBe(100);
    expect(server.requests).toHaveLength(3);
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.map((event) => [event.attempt, event.reason, event.status])).toEqual([
      [1, "ServerError", 503],
      [2, "ServerError", 503],
    ]);
    expect(events.map((event) => event.type)).toEqual([
      "request",
      "response",
      "retry",
      "request",
      "response",
      "retry",
      "request",
      "response",
    ]);
  });

  it("a 5xx that persists fails with ServerError after maxRetries + 1 attempts", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ status: 500, body: "Internal Server Error: database down" }],
      { maxRetries: 3 },
    );
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      operation: "/insights/liquidation",
      status: 500,
      bodyText: "Internal Server Error: database down",
    });
    expect((error as Error).message).toBe(
      '/insights/liquidation: HTTP 500 (server error): "Internal Server Error: database down"',
    );
    expect(server.requests).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: "failure", attempt: 4, reason: "ServerError" });
  });

  it("429 with Retry-After in seconds waits that long before retrying", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ status: 429, body: "slow down", headers: { "retry-after": "0.3" } }, { body }],
      { maxRetries: 1, random: () => 0 },
    );
    await client.insights.liquidation();
    expect(server.requests).toHaveLength(2);
    // With retryBaseMs 1 the backoff alone would wait under 1 ms.
    expect(retryDelays(events)).toEqual([300]);
  });

  it("retry-after-ms is honoured and wins over Retry-After", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ status: 503, headers: { "retry-after-ms": "250", "retry-after": "0" } }, { body }],
      { maxRetries: 1, random: () => 0 },
    );
    await client.insights.liquidation();
    expect(server.requests).toHaveLength(2);
    expect(retryDelays(events)).toEqual([250]);
  });

  it("Retry-After as an HTTP date is honoured", async () => {
    // A date an hour ahead, capped at retryMaxMs: the backoff alone would wait under 1 ms.
    const { server, client, events } = await serveAndConnect(
      () => ({
        status: server.requests.length === 1 ? 503 : 200,
        body: server.requests.length === 1 ? "maintenance" : body,
        headers: { "retry-after": new Date(Date.now() + 3_600_000).toUTCString() },
      }),
      { maxRetries: 1, retryMaxMs: 300 },
    );
    await client.insights.liquidation();
    expect(server.requests).toHaveLength(2);
    expect(retryDelays(events)).toEqual([300]);
  });

  it("a Retry-After longer than retryMaxMs is capped", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ status: 429, headers: { "retry-after": "3600" } }, { body }],
      { maxRetries: 1, retryMaxMs: 50 },
    );
    await client.insights.liquidation();
    expect(server.requests).toHaveLength(2);
    expect(events.find((event) => event.type === "retry")).toMatchObject({ delayMs: 50 });
  });

  it("a 429 that persists fails with RateLimitError carrying retryAfterMs", async () => {
    const { server, client } = await serveAndConnect(
      [{ status: 429, body: "too many requests", headers: { "retry-after": "0.05" } }],
      { maxRetries: 2 },
    );
    const error = await client.leaderboard.v2Latest().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 50 });
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    [400, BadRequestError, "unknown asset"],
    [404, BadRequestError, "Not Found"],
    [422, BadRequestError, "bad horizon"],
    [401, AuthenticationError, "Invalid API key"],
    [403, AuthenticationError, "Forbidden"],
    [402, PaymentRequiredError, "Insufficient credits"],
  ] as const)("HTTP %i is not retried and throws %o with the body", async (status, type, text) => {
    const { server, client } = await serveAndConnect([{ status, body: text }, { body }], {
      maxRetries: 3,
    });
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ operation: "/insights/liquidation", status, bodyText: text });
    expect((error as Error).message).toContain(`/insights/liquidation: HTTP ${status} (`);
    expect((error as Error).message).toContain(JSON.stringify(text));
    expect(server.requests).toHaveLength(1);
  });

  it("a long error body is kept truncated to 500 characters", async () => {
    const long = "e".repeat(1234);
    const { client } = await serveAndConnect([{ status: 400, body: long }]);
    const error = (await client.insights.liquidation().catch((caught: unknown) => caught)) as {
      bodyText: string;
    };
    expect(error.bodyText).toBe(`${"e".repeat(500)}… (734 more characters)`);
  });

  it("a reset connection is retried", async () => {
    const { server, client } = await serveAndConnect([{ reset: true }, { body }], {
      maxRetries: 1,
    });
    expect((await client.insights.liquidation()).current_price).toBe(100);
    expect(server.requests).toHaveLength(2);
  });

  it("a body shorter than its Content-Length is a ConnectionError, retried", async () => {
    const { server, client, events } = await serveAndConnect([{ body, truncate: true }, { body }], {
      maxRetries: 1,
    });
    expect((await client.insights.liquidation()).current_price).toBe(100);
    expect(server.requests).toHaveLength(2);
    expect(events.find((event) => event.type === "retry")).toMatchObject({
      reason: "ConnectionError",
    });
  });

  it("connections that keep failing end in ConnectionError after maxRetries + 1 attempts", async () => {
    const { server, client } = await serveAndConnect([{ reset: true }], { maxRetries: 2 });
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^\/insights\/liquidation: connection failed \(/);
    expect(server.requests).toHaveLength(3);
  });

  it("a refused connection is a ConnectionError with its code", async () => {
    const closed = await startScriptedServer([{ body }]);
    const baseUrl = closed.baseUrl;
    await closed.close();
    const attempts: number[] = [];
    const client = createClient({
      baseUrl,
      maxRetries: 1,
      retryBaseMs: 1,
      onEvent: (event) => event.type === "request" && attempts.push(event.attempt),
    });
    try {
      const error = await client.leaderboard.latest().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).code).toBe("ECONNREFUSED");
      expect(attempts).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });

  it("a 200 body that is not JSON is retried", async () => {
    const { server, client } = await serveAndConnect(
      [{ body: '{"current_price": 100, "da' }, { body }],
      { maxRetries: 3 },
    );
    expect((await client.insights.liquidation()).current_price).toBe(100);
    expect(server.requests).toHaveLength(2);
  });

  it("a 200 body that stays malformed fails with ResponseDecodeError after maxRetries + 1 attempts", async () => {
    const { server, client } = await serveAndConnect([{ body: "<html>proxy error</html>" }], {
      maxRetries: 3,
    });
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect(error).toMatchObject({ kind: "json", status: 200 });
    expect((error as Error).message).toMatch(
      /^\/insights\/liquidation: HTTP 200: body is not valid JSON \(24 bytes: /,
    );
    expect(server.requests).toHaveLength(4);
  });

  it("a malformed body after a 503 is retried (not only on the first attempt)", async () => {
    const { server, client, events } = await serveAndConnect(
      [{ status: 503, body: "busy" }, { body: '{"current_price": 100, "da' }, { body }],
      { maxRetries: 2 },
    );
    expect((await client.insights.liquidation()).current_price).toBe(100);
    expect(server.requests).toHaveLength(3);
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.map((event) => [event.attempt, event.reason])).toEqual([
      [1, "ServerError"],
      [2, "ResponseDecodeError"],
    ]);
  });

  it("a body cut short after a 429 is retried", async () => {
    const { server, client, events } = await serveAndConnect(
      [
        { status: 429, body: "slow down", headers: { "retry-after": "0" } },
        { body, truncate: true },
        { body: "<html>proxy error</html>" },
        { body },
      ],
      { maxRetries: 3 },
    );
    expect((await client.insights.liquidation()).current_price).toBe(100);
    expect(server.requests).toHaveLength(4);
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.map((event) => event.reason)).toEqual([
      "RateLimitError",
      "ConnectionError",
      "ResponseDecodeError",
    ]);
  });

  it("Retry-After waits are spread by the jitter: R plus up to 25 %", async () => {
    const draws = [0, 0.999];
    const { server, client, events } = await serveAndConnect(
      [
        { status: 429, headers: { "retry-after": "0.2" } },
        { status: 429, headers: { "retry-after": "0.2" } },
        { body },
      ],
      { maxRetries: 2, random: () => draws.shift() ?? 0.5 },
    );
    await client.insights.liquidation();
    expect(server.requests).toHaveLength(3);
    // Never sooner than the service asked.
    const delays = retryDelays(events);
    expect(delays[0]).toBe(200);
    expect(delays[1]).toBeCloseTo(249.95, 10);
  });

  it("a 200 body of the wrong shape is not retried and keeps the DecodeError as cause", async () => {
    const { server, client } = await serveAndConnect(
      [{ body: { current_price: "100", data: [] } }],
      { maxRetries: 3 },
    );
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect(error).toMatchObject({ kind: "shape", status: 200 });
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(DecodeError);
    expect(cause).toMatchObject({ jsonPath: "current_price" });
    expect((error as Error).message).toContain(
      "/insights/liquidation: HTTP 200: body does not match the record at current_price: expected",
    );
    expect(server.requests).toHaveLength(1);
  });
});
