/**
 * Bounded reading against real servers on 127.0.0.1: an endless body is cut off at the limit with
 * memory bounded, an oversized Content-Length is refused unread, limits per operation.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { defaultBodyLimits, defaultMaxBodyBytes, mebibyte } from "../../src/client/body-limits.ts";
import { createClient } from "../../src/client/create-client.ts";
import { ResponseTooLargeError } from "../../src/client/errors.ts";
import type { ClientEvent } from "../../src/client/events.ts";
import type { ClientOptions } from "../../src/client/options.ts";
import type { PathlabClient } from "../../src/client/pathlab-client.ts";
import { serveAndConnect, testApiKey } from "./client-test-setup.ts";
import { minimalBodies } from "./minimal-bodies.ts";

/** What a streaming server saw of the response it was writing. */
interface StreamLog {
  bytesWritten: number;
  /** Resolves when the client closed the connection (the server's response closed unfinished). */
  readonly closed: Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A server that answers 200 and writes the same 64 KiB chunk for ever (with backpressure, so its own
 * memory stays flat), with the given headers; it stops when the connection closes.
 */
async function startEndlessServer(
  headers: Record<string, string | number>,
): Promise<{ baseUrl: string; log: StreamLog }> {
  const chunk = Buffer.alloc(64 * 1024, 0x31); // "1111…": valid JSON digits, never ending
  let markClosed: () => void = () => {};
  const log: StreamLog = {
    bytesWritten: 0,
    closed: new Promise<void>((resolve) => (markClosed = resolve)),
  };
  const server: Server = createServer((_request, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "application/json", ...headers });
    response.on("close", markClosed);
    const pump = () => {
      while (!response.destroyed) {
        log.bytesWritten += chunk.byteLength;
        if (!response.write(chunk)) {
          response.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

function connect(baseUrl: string, options: Partial<ClientOptions> = {}): PathlabClient {
  const client = createClient({ baseUrl, apiKey: testApiKey, retryBaseMs: 1, ...options });
  cleanups.push(() => client.close());
  return client;
}

async function tooLarge(promise: Promise<unknown>): Promise<ResponseTooLargeError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  return error as ResponseTooLargeError;
}

describe("bounded reading", () => {
  it("an endless body is cut off at the limit, not retried, and memory stays bounded", async () => {
    const limitBytes = 64 * mebibyte;
    const { baseUrl, log } = await startEndlessServer({});
    const client = connect(baseUrl, { maxBodyBytes: limitBytes, maxRetries: 3 });
    // Warm up (modules, connection pool, stream machinery) so that the baseline holds them.
    const warmUp = connect(baseUrl, { maxBodyBytes: mebibyte });
    await tooLarge(warmUp.predictions.best({ asset: "BTC", ...predictionParams }));
    const baselineRss = process.memoryUsage.rss();
    let peakRss = baselineRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, 5);
    try {
      const error = await tooLarge(client.predictions.best({ asset: "BTC", ...predictionParams }));
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      expect(error).toMatchObject({
        operation: "/v2/prediction/best",
        status: 200,
        limitBytes,
        declaredBytes: undefined,
      });
      expect(error.receivedBytes).toBeGreaterThan(limitBytes);
      expect(error.receivedBytes).toBeLessThanOrEqual(limitBytes + mebibyte);
      expect(error.message).toMatch(
        /^\/v2\/prediction\/best: HTTP 200: response body over the limit of 64 MiB \(67108864 bytes\) for this operation \(maxBodyBytes\): cut off after \d+ bytes: GET http:\/\/127\.0\.0\.1:\d+\/v2\/prediction\/best\?/,
      );
      // The client closed the connection: the server's write loop ended.
      await log.closed;
      // Not retried: one request only (the server would send the same again).
      expect(log.bytesWritten).toBeGreaterThan(limitBytes);
    } finally {
      clearInterval(sampler);
    }
    // The whole process (client and the server in it) grew by less than 3× the limit; unbounded
    // reading reached gigabytes here within seconds. Measured: 70–84 MiB for this 64 MiB limit (the
    // body held up to the limit, plus read buffers not yet collected).
    expect(peakRss - baselineRss).toBeLessThan(3 * limitBytes);
  });

  it("an oversized Content-Length is refused before reading: the server sees the socket closed", async () => {
    const declaredBytes = 2 * 1024 * mebibyte;
    const { baseUrl, log } = await startEndlessServer({ "content-length": declaredBytes });
    const client = connect(baseUrl, { maxRetries: 3 });
    const error = await tooLarge(client.leaderboard.v2Latest());
    expect(error).toMatchObject({
      operation: "/v2/leaderboard/latest",
      status: 200,
      limitBytes: defaultBodyLimits.other,
      declaredBytes,
      receivedBytes: undefined,
    });
    expect(error.message).toContain(
      "/v2/leaderboard/latest: HTTP 200: response body over the limit of 8 MiB (8388608 bytes) " +
        "for this operation (maxBodyBytes): Content-Length 2147483648 refused unread: GET http://127.0.0.1:",
    );
    await log.closed;
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: "ResponseTooLargeError",
      limitBytes: defaultBodyLimits.other,
      declaredBytes,
    });
  });

  it("a body exactly at the limit is read; one byte over is refused", async () => {
    const body = JSON.stringify(minimalBodies["/insights/liquidation"]);
    const bytes = Buffer.byteLength(body);
    const { client: atLimit } = await serveAndConnect([{ body }], {
      maxBodyBytes: { "/insights/liquidation": bytes },
    });
    expect((await atLimit.insights.liquidation()).current_price).toBe(100);
    const { client: belowLimit, server } = await serveAndConnect([{ body }], {
      maxBodyBytes: { "/insights/liquidation": bytes - 1 },
      maxRetries: 3,
    });
    const error = await tooLarge(belowLimit.insights.liquidation());
    expect(error).toMatchObject({ limitBytes: bytes - 1, declaredBytes: bytes });
    expect(server.requests).toHaveLength(1);
  });

  it("a chunked body (no Content-Length) under the limit is read whole", async () => {
    const body = JSON.stringify(minimalBodies["/insights/liquidation"]);
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const third = Math.ceil(body.length / 3);
      response.write(body.slice(0, third));
      setTimeout(() => {
        response.write(body.slice(third, 2 * third));
        response.end(body.slice(2 * third));
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const events: ClientEvent[] = [];
    const client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      maxBodyBytes: Buffer.byteLength(body),
      onEvent: (event) => events.push(event),
    });
    expect((await client.insights.liquidation()).current_price).toBe(100);
    expect(events.find((event) => event.type === "response")).toMatchObject({
      bytes: Buffer.byteLength(body),
    });
  });

  it("an error status with an oversized body is refused the same way", async () => {
    const { client } = await serveAndConnect([{ status: 503, body: "x".repeat(2000) }], {
      maxBodyBytes: 1000,
      maxRetries: 3,
    });
    const error = await tooLarge(client.insights.liquidation());
    expect(error).toMatchObject({ status: 503, limitBytes: 1000, declaredBytes: 2000 });
  });

  it("defaultMaxBodyBytes gives predictions and ranges room and everything else 8 MiB", () => {
    expect(defaultMaxBodyBytes("/v2/prediction/latest")).toBe(64 * mebibyte);
    expect(defaultMaxBodyBytes("/v2/prediction/historical")).toBe(64 * mebibyte);
    expect(defaultMaxBodyBytes("/validation/scores/historical")).toBe(256 * mebibyte);
    expect(defaultMaxBodyBytes("/v2/leaderboard/historical")).toBe(64 * mebibyte);
    expect(defaultMaxBodyBytes("/validation/smoothed-scores")).toBe(64 * mebibyte);
    expect(defaultMaxBodyBytes("/insights/liquidation")).toBe(8 * mebibyte);
    expect(defaultMaxBodyBytes("/v2/leaderboard/latest")).toBe(8 * mebibyte);
  });

  it("maxBodyBytes is checked when the client is created", () => {
    const baseUrl = "http://127.0.0.1:9";
    expect(() => createClient({ baseUrl, maxBodyBytes: -1 })).toThrow(
      'createClient: option "maxBodyBytes": expected an integer number of bytes ≥ 0, got -1',
    );
    expect(() => createClient({ baseUrl, maxBodyBytes: 1.5 })).toThrow(TypeError);
    expect(() =>
      createClient({ baseUrl, maxBodyBytes: { "/no/such": 5 } as ClientOptions["maxBodyBytes"] }),
    ).toThrow(
      'createClient: option "maxBodyBytes": expected keys that are spec paths of operations, got "/no/such"',
    );
    expect(() =>
      createClient({ baseUrl, maxBodyBytes: { "/insights/liquidation": Number.NaN } }),
    ).toThrow('option "maxBodyBytes["/insights/liquidation"]"');
  });
});

const predictionParams = { time_increment: 300, time_length: 86400 } as const;
