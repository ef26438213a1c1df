/**
 * Each fault kind over real HTTP, and how pathlab's client reacts to it: retries (5xx, 429 with
 * Retry-After, truncated bodies, malformed JSON once) or a typed error (wrong shapes).
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConnectionError, ResponseDecodeError, ServerError } from "../../../src/client/errors.ts";
import type { ClientEvent } from "../../../src/client/events.ts";
import { DecodeError } from "../../../src/domain/errors.ts";
import type { RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { openSandbox, rawGet } from "./sandboxSetup.ts";

let sandbox: RunningSandbox;
let connect: Awaited<ReturnType<typeof openSandbox>>["connect"];
let uid: number;
let predictionParams: { asset: "ETH"; time_increment: 60; time_length: 3600; miner: number[] };

beforeAll(async () => {
  ({ sandbox, connect } = await openSandbox());
  uid = sandbox.world.minerUids[0];
  // Two miners with a valid submission for the latest ETH 1h prompt (no leaderboard needed).
  const start = sandbox.world.latestPromptStart("ETH", "1h") as number;
  const miners = sandbox.world.minerUids
    .filter(
      (candidate) =>
        sandbox.world.predictionSet(candidate, "ETH", start, 60, 3600).status === "valid",
    )
    .slice(0, 2);
  predictionParams = { asset: "ETH", time_increment: 60, time_length: 3600, miner: miners };
}, 60_000);

beforeEach(() => sandbox.setFaults([]));

const attempts = (events: ClientEvent[]) =>
  events.filter((event) => event.type === "request").length;

describe("faults over HTTP", () => {
  it("adds latency to the matching paths only", async () => {
    // A minute's latency on /validation/*: a call there is still unanswered once the sandbox has
    // received it and answered a call to another path; then it is given up.
    sandbox.setFaults("latency=60s,path=/validation/*");
    const controller = new AbortController();
    const { client } = connect({ signal: controller.signal, maxRetries: 0 });
    const received: string[] = [];
    const onRequest = (message: unknown) =>
      received.push(String((message as { request: IncomingMessage }).request.url));
    subscribe("http.server.request.start", onRequest);
    try {
      let answered = false;
      const delayed = client.validation.miner({ uid }).finally(() => (answered = true));
      await expect.poll(() => received.some((url) => url.startsWith("/validation/"))).toBe(true);
      await client.predictions.latest(predictionParams);
      expect(answered).toBe(false);
      controller.abort(new Error("given up"));
      await expect(delayed).rejects.toThrow("given up");
    } finally {
      unsubscribe("http.server.request.start", onRequest);
    }
  }, 60_000);

  it("5xx: the client retries and succeeds", async () => {
    sandbox.setFaults("5xx=every:2");
    const first = connect({ maxRetries: 2 });
    await first.client.validation.miner({ uid }); // request 1 passes
    await first.client.validation.miner({ uid }); // request 2 is a 5xx, its retry passes
    expect(attempts(first.events)).toBe(3);
    expect(first.events.find((event) => event.type === "retry")).toMatchObject({
      reason: "ServerError",
    });
  }, 30_000);

  it("5xx on every request exhausts the retries", async () => {
    sandbox.setFaults([{ path: "/validation/miner", serverError: 1 }]);
    const { client, events } = connect({ maxRetries: 2 });
    const error = await client.validation.miner({ uid }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect([500, 502, 503]).toContain((error as ServerError).status);
    expect((error as ServerError).bodyText).toMatch(/^sandbox fault: an injected 50[023]/);
    expect(attempts(events)).toBe(3);
  });

  it("429 bursts carry Retry-After, which the client waits for before succeeding", async () => {
    sandbox.setFaults("429burst=2,429every=10,retryafter=40ms");
    const raw = await rawGet(`${sandbox.url}/validation/miner?uid=${uid}`);
    expect(raw.status).toBe(429);
    expect(raw.headers.get("retry-after")).toBe("1");
    expect(raw.headers.get("retry-after-ms")).toBe("40");
    // A jitter draw of 0 waits exactly the Retry-After (the jitter is tested in test/client).
    const { client, events } = connect({ maxRetries: 3, random: () => 0 });
    const record = await client.validation.miner({ uid }); // 2nd of the burst, then passes
    expect(typeof record.validated).toBe("boolean");
    const retries = events.filter((event) => event.type === "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ reason: "RateLimitError", status: 429, delayMs: 40 });
  });

  it("truncated bodies close the connection early: ConnectionError, retried", async () => {
    sandbox.setFaults("truncate=1,path=/validation/miner");
    const { client, events } = connect({ maxRetries: 1 });
    const error = await client.validation.miner({ uid }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(attempts(events)).toBe(2);
    sandbox.setFaults("truncate=every:2,path=/validation/miner");
    const second = connect({ maxRetries: 1 });
    await second.client.validation.miner({ uid });
    await second.client.validation.miner({ uid });
    expect(attempts(second.events)).toBe(3);
  });

  it("truncates large prediction bodies too", async () => {
    sandbox.setFaults("truncate=1");
    const { client } = connect({ maxRetries: 0 });
    const error = await client.predictions.latest(predictionParams).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
  }, 30_000);

  it("malformed JSON is a ResponseDecodeError of kind json, retried within maxRetries", async () => {
    sandbox.setFaults("malformed=1,path=/validation/*");
    const { client, events } = connect({ maxRetries: 3 });
    const error = await client.validation.miner({ uid }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect((error as ResponseDecodeError).kind).toBe("json");
    expect(attempts(events)).toBe(4);
  });

  it("a missing field is a ResponseDecodeError of kind shape naming the field, not retried", async () => {
    sandbox.setFaults("missingfield=1");
    const { client, events } = connect({ maxRetries: 3 });
    const error = await client.validation.miner({ uid }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect((error as ResponseDecodeError).kind).toBe("shape");
    expect((error as ResponseDecodeError).cause).toBeInstanceOf(DecodeError);
    expect(((error as ResponseDecodeError).cause as DecodeError).jsonPath).toBe("validated");
    expect(attempts(events)).toBe(1);
    const sets = await client.predictions.latest(predictionParams).catch((caught) => caught);
    expect(((sets as ResponseDecodeError).cause as DecodeError).jsonPath).toBe("[0].miner_uid");
  }, 30_000);

  it("a NaN price is not JSON: ResponseDecodeError of kind json", async () => {
    sandbox.setFaults("nan=1");
    const raw = await rawGet(
      `${sandbox.url}/v2/prediction/latest?asset=ETH&time_increment=60&time_length=3600&miner=${predictionParams.miner[0]}`,
      { authorization: `Apikey ${sandbox.apiKey}` },
    );
    expect(raw.body.toString("latin1", 0, 200)).toMatch(/"predictions":\[\[[0-9.]+,NaN,/);
    const { client } = connect({ maxRetries: 0 });
    const error = await client.predictions.latest(predictionParams).catch((caught) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect((error as ResponseDecodeError).kind).toBe("json");
    const record = await client.validation.miner({ uid }).catch((caught) => caught);
    // A miner validation record has no number (response_time is a string): unchanged.
    expect(record).toMatchObject({ reason: expect.any(String) });
  }, 30_000);

  it("short paths (60 of 61 points) decode, since the paths are of equal length", async () => {
    sandbox.setFaults("shortpaths=1,path=/v2/prediction/*");
    const { client } = connect({ maxRetries: 0 });
    const sets = await client.predictions.latest(predictionParams);
    expect(sets.length).toBeGreaterThan(0);
    for (const set of sets) {
      expect(set.predictions).toHaveLength(1000);
      expect(set.predictions[0]).toHaveLength(60);
    }
    sandbox.setFaults([]);
    const whole = await client.predictions.latest(predictionParams);
    expect(whole[0].predictions[0]).toHaveLength(61);
    expect(whole[0].predictions[0].slice(0, 60)).toEqual(sets[0].predictions[0]);
  }, 30_000);

  it("rejects a fault text it cannot read, naming the item", () => {
    expect(() => sandbox.setFaults("5xx=lots")).toThrow(/parseFaults: rule 1, item "5xx=lots"/);
  });
});
