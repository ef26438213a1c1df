/** Access over real HTTP: 401, 402, 429 with Retry-After, public operations, 400/404 string bodies. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  MissingApiKeyError,
  PaymentRequiredError,
  RateLimitError,
} from "../../../src/client/errors.ts";
import { defaultSandboxApiKey } from "../../../src/sandbox/sandboxDefaults.ts";
import type { RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { openSandbox, rawGet, TEST_SEED } from "./sandboxSetup.ts";

let sandbox: RunningSandbox;
let connect: Awaited<ReturnType<typeof openSandbox>>["connect"];

beforeAll(async () => {
  ({ sandbox, connect } = await openSandbox({
    apiKeys: ["sk-rich", "sk-poor", "sk-busy"],
    credits: { "sk-poor": 2 },
    rateLimit: { requests: 1000, windowMs: 60_000 },
  }));
}, 60_000);

const insight = "/insights/venuea/up-down/5min?asset=BTC";

describe("access", () => {
  it("derives the default key from the seed and accepts it", async () => {
    expect(defaultSandboxApiKey(TEST_SEED)).toMatch(/^sk-sandbox-[0-9a-f]{16}$/);
    expect(defaultSandboxApiKey(TEST_SEED)).toBe(defaultSandboxApiKey(TEST_SEED));
    expect(defaultSandboxApiKey(TEST_SEED + 1)).not.toBe(defaultSandboxApiKey(TEST_SEED));
    expect(sandbox.apiKey).toBe("sk-rich");
  });

  it("answers 401 with a string body for a missing or invalid key", async () => {
    const missing = await rawGet(sandbox.url + insight);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(missing.body.toString()).toMatch(/^missing API key/);
    const invalid = await rawGet(sandbox.url + insight, { authorization: "Apikey sk-guess" });
    expect(invalid.status).toBe(401);
    expect(invalid.body.toString()).toMatch(/^invalid API key/);
    const { client } = connect({ apiKey: "sk-guess" });
    await expect(client.venueA.upDownFiveMinute({ asset: "BTC" })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    const { client: keyless } = connect({ apiKey: undefined });
    await expect(keyless.venueA.upDownFiveMinute({ asset: "BTC" })).rejects.toBeInstanceOf(
      MissingApiKeyError,
    );
  }, 30_000);

  it("serves leaderboards and validation without a key (public)", async () => {
    const { client } = connect({ apiKey: undefined });
    const rows = await client.leaderboard.v2Latest({ prompt_name: "crypto-1h" });
    expect(Array.isArray(rows)).toBe(true);
    const record = await client.validation.miner({ uid: sandbox.world.minerUids[0] });
    expect(typeof record.validated).toBe("boolean");
    expect(client.rateLimit?.limit).toBe(1000);
  }, 60_000);

  it("consumes one credit per insights request, reports them, then answers 402", async () => {
    const { client } = connect({ apiKey: "sk-poor", maxRetries: 0 });
    await client.venueA.upDownFiveMinute({ asset: "BTC" });
    expect(client.credits).toMatchObject({ limit: 2, remaining: 1, used: 1 });
    // Predictions and leaderboards cost nothing.
    await client.leaderboard.v2Latest({ prompt_name: "crypto-1h" });
    expect(sandbox.world.minerUids.length).toBeGreaterThan(0);
    await client.venueA.upDownFiveMinute({ asset: "BTC" });
    expect(client.credits?.remaining).toBe(0);
    const error = await client.venueA.upDownFiveMinute({ asset: "BTC" }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).status).toBe(402);
    expect((error as PaymentRequiredError).bodyText).toMatch(/^out of credits/);
  }, 60_000);

  it("a request the sandbox refuses with 400 costs no credit", async () => {
    const { client } = connect({ apiKey: "sk-rich", maxRetries: 0 });
    await client.venueA.upDownFiveMinute({ asset: "BTC" });
    const before = client.credits?.remaining as number;
    const future = new Date(Date.parse(sandbox.now) + 3_600_000);
    const error = await client.venueA
      .upDownFiveMinute({ asset: "BTC", start_time: future })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).bodyText).toContain(
      `parameter "start_time": expected a time not after the sandbox's clock (now = ${sandbox.now}`,
    );
    await client.venueA.upDownFiveMinute({ asset: "BTC" });
    expect(client.credits?.remaining).toBe(before - 1);
  }, 60_000);

  it("answers 400 with a string body naming the problem, as the client's own checks would", async () => {
    const headers = { authorization: "Apikey sk-rich" };
    const cases: [string, string][] = [
      [
        "/insights/option-pricing?asset=XAU",
        '/insights/option-pricing: parameter "asset": expected one of BTC',
      ],
      [
        "/insights/liquidation?horizon=2h",
        'parameter "horizon": expected one of 1h, 24h, got "2h"',
      ],
      ["/insights/liquidation?start_time=soon", 'parameter "start_time": expected ISO 8601 time'],
      [
        "/v2/prediction/best?asset=BTC&time_increment=300",
        'parameter "time_length": expected one of 86400, 3600 (required), got missing',
      ],
      [
        "/v2/prediction/best?asset=BTC&time_increment=300&time_length=3600",
        'parameter "time_length": expected 86400 with time_increment 300',
      ],
      [
        "/validation/smoothed-scores?from=2026-11-01&to=2026-11-10",
        'parameter "to": expected a time at most 7 days after from',
      ],
      [
        "/validation/multi-asset-minutes?from=2026-11-01&to=2026-11-05",
        "at most 2 days after from",
      ],
      [
        "/v2/leaderboard/latest?prompt_name=medium",
        'parameter "prompt_name": expected one of low, high',
      ],
      [
        "/v2/leaderboard/latest?limit=5",
        'parameter "limit": expected no such parameter; known: prompt_name',
      ],
    ];
    for (const [path, message] of cases) {
      const response = await rawGet(sandbox.url + path, headers);
      expect(response.status, path).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(response.body.toString()).toContain(message);
    }
  }, 30_000);

  it("answers 404 for an unknown path (with the path of its naming) and 405 for other methods", async () => {
    const unknown = await rawGet(`${sandbox.url}/insights/nowhere`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.toString()).toMatch(/^no operation at \/insights\/nowhere/);
    const live = await rawGet(`${sandbox.url}/insights/polymarket/range/daily`);
    expect(live.status).toBe(404);
    expect(live.body.toString()).toContain("use /insights/venuea/range/daily");
    const post = await fetch(`${sandbox.url}/v2/leaderboard/latest`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a key's window is used up; other keys are unaffected", async () => {
    const { sandbox: limited, connect: connectLimited } = await openSandbox({
      apiKeys: ["sk-one", "sk-two"],
      rateLimit: { requests: 2, windowMs: 60_000 },
    });
    const { client } = connectLimited({ apiKey: "sk-one", maxRetries: 0 });
    await client.validation.miner({ uid: limited.world.minerUids[0] });
    expect(client.rateLimit).toMatchObject({ limit: 2, remaining: 1 });
    await client.validation.miner({ uid: limited.world.minerUids[0] });
    const error = await client.validation
      .miner({ uid: limited.world.minerUids[0] })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(429);
    // Retry-After: the rest of the 60 s window (whole seconds); Retry-After-Ms exactly.
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(50_000);
    expect((error as RateLimitError).retryAfterMs).toBeLessThanOrEqual(60_000);
    const raw = await rawGet(`${limited.url}/validation/miner?uid=${limited.world.minerUids[0]}`, {
      authorization: "Apikey sk-one",
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThanOrEqual(50);
    expect(raw.headers.get("x-ratelimit-remaining")).toBe("0");
    const { client: other } = connectLimited({ apiKey: "sk-two", maxRetries: 0 });
    await expect(
      other.validation.miner({ uid: limited.world.minerUids[0] }),
    ).resolves.toBeDefined();
  }, 60_000);
});
