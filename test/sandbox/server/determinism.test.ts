/**
 * Two sandboxes with the same seed and clock answer byte for byte the same, whether a sandbox
 * computes on its own thread or on compute threads; another seed does not.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { openSandbox, rawGet, TEST_SEED } from "./sandboxSetup.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

let first: RunningSandbox;
let second: RunningSandbox;
let threaded: RunningSandbox;
let otherSeed: RunningSandbox;

beforeAll(async () => {
  // The same API key on all three, so that only the seed differs between the worlds; the small
  // world, as determinism does not depend on the miners' number.
  const options = { ...SMALL_WORLD, apiKeys: ["sk-determinism"] };
  first = (await openSandbox(options)).sandbox;
  second = (await openSandbox(options)).sandbox;
  threaded = (await openSandbox({ ...options, computeThreads: 2 })).sandbox;
  otherSeed = (await openSandbox({ ...options, seed: TEST_SEED + 1 })).sandbox;
}, 60_000);

const paths = (sandbox: RunningSandbox): string[] => {
  const start = new Date((sandbox.world.latestPromptStart("SOL", "1h") as number) * 1000);
  const uids = sandbox.world.minerUids
    .slice(0, 4)
    .map((uid) => `miner=${uid}`)
    .join("&");
  return [
    "/v2/meta-leaderboard/latest?prompt_name=crypto-1h",
    "/validation/scores/latest?asset=ETH&time_increment=60&time_length=3600",
    `/validation/realized-path?asset=SOL&start_time=${encodeURIComponent(start.toISOString())}&time_increment=60&time_length=3600`,
    `/v2/prediction/latest?asset=ETH&time_increment=60&time_length=3600&${uids}`,
    "/insights/prediction-percentiles?asset=ETH&horizon=1h",
    "/insights/venuea/up-down/5min?asset=ETH",
    "/insights/venueb/hourly?asset=ETH",
  ];
};

describe("determinism", () => {
  it("the same seed and now give byte-identical bodies on three servers (one on 2 compute threads)", async () => {
    expect(paths(first)).toEqual(paths(second));
    for (const path of paths(first)) {
      const headers = { authorization: "Apikey sk-determinism" };
      const [a, b, c] = await Promise.all([
        rawGet(first.url + path, headers),
        rawGet(second.url + path, headers),
        rawGet(threaded.url + path, headers),
      ]);
      expect(a.status, `${path}: ${a.body.toString().slice(0, 200)}`).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.byteLength).toBeGreaterThan(2);
      expect(a.body.equals(b.body), path).toBe(true);
      expect(c.body.equals(a.body), path).toBe(true);
    }
  }, 60_000);

  it("a second request is answered identically (from the cache) and another seed differs", async () => {
    const headers = { authorization: "Apikey sk-determinism" };
    const path = "/insights/prediction-percentiles?asset=ETH&horizon=1h";
    const once = await rawGet(first.url + path, headers);
    const again = await rawGet(first.url + path, headers);
    expect(again.body.equals(once.body)).toBe(true);
    // Another seed, another market (a cheap body: no leaderboard to compute).
    const realized =
      "/validation/realized-path?asset=BTC&start_time=2026-11-20T10:00:00Z&time_increment=60&time_length=3600";
    const [mine, other] = await Promise.all([
      rawGet(first.url + realized),
      rawGet(otherSeed.url + realized),
    ]);
    expect(other.status).toBe(200);
    expect(other.body.equals(mine.body)).toBe(false);
  }, 60_000);
});
