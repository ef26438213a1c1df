/**
 * A sandbox on compute threads answers as one that computes on its own thread: the same bytes
 * for bodies, refusals (400) and wrong-shape faults, under concurrent requests of several assets
 * and miners, which both threads share; and it refuses a bad thread count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startComputeThreads } from "../../../src/sandbox/server/computeThreads.ts";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { operationByPath } from "../../../src/domain/operations.ts";
import { rawGet, TEST_NOW, TEST_SEED } from "./sandboxSetup.ts";

const apiKeys = ["sk-threads"];
const headers = { authorization: "Apikey sk-threads" };
let plain: RunningSandbox;
let threaded: RunningSandbox;

beforeAll(async () => {
  const options = { seed: TEST_SEED, now: TEST_NOW, apiKeys };
  [plain, threaded] = await Promise.all([
    startSandbox(options),
    startSandbox({ ...options, computeThreads: 2 }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([plain?.close(), threaded?.close()]);
});

/** Requests of two assets and several miners: insights, prediction sets, refusals. */
function requests(sandbox: RunningSandbox): string[] {
  const uids = sandbox.world.minerUids.slice(0, 6);
  const start = (asset: string) =>
    new Date((sandbox.world.latestPromptStart(asset, "1h") as number) * 1000).toISOString();
  return [
    "/insights/lp-bounds?asset=SOL&horizon=1h",
    "/insights/volatility?asset=ETH&horizon=1h",
    ...uids.map(
      (uid) =>
        `/v2/prediction/historical?asset=SOL&start_time=${encodeURIComponent(start("SOL"))}&time_increment=60&time_length=3600&miner=${uid}`,
    ),
    ...uids.map(
      (uid) =>
        `/v2/prediction/historical?asset=ETH&start_time=${encodeURIComponent(start("ETH"))}&time_increment=60&time_length=3600&miner=${uid}`,
    ),
    "/v2/meta-leaderboard/latest?prompt_name=crypto-1h",
    // 400: no prompt starts then (the handler's refusal, raised in a compute thread)
    "/v2/prediction/historical?asset=SOL&start_time=2026-11-20T11:59:30Z&time_increment=60&time_length=3600&miner=1",
    // 400: a parameter the server's thread refuses before any thread computes
    "/insights/lp-bounds?asset=NOPE",
  ];
}

describe("compute threads", () => {
  it("answer every request with the status and bytes of a sandbox on one thread", async () => {
    const paths = requests(plain);
    expect(requests(threaded)).toEqual(paths);
    // the threaded server gets them all at once (several assets and miners in flight), the
    // plain one in the same order one by one: the answers do not depend on the interleaving
    const concurrent = await Promise.all(paths.map((path) => rawGet(threaded.url + path, headers)));
    const statuses = new Set<number>();
    for (const [index, path] of paths.entries()) {
      const expected = await rawGet(plain.url + path, headers);
      const got = concurrent[index];
      statuses.add(expected.status);
      expect(got.status, path).toBe(expected.status);
      expect(got.body.equals(expected.body), `${path}: ${got.body.toString().slice(0, 200)}`).toBe(
        true,
      );
    }
    expect([...statuses].sort()).toEqual([200, 400]);
  }, 120_000);

  it("apply the server's wrong-shape faults to the bodies they compute", async () => {
    // every 2nd prediction body loses its last point; the fault counters are the server's, so the
    // two servers decide alike when they get the same requests in the same order
    const faults = "shortpaths=every:2,path=/v2/prediction/*";
    plain.setFaults(faults);
    threaded.setFaults(faults);
    try {
      const predictions = requests(plain).filter(
        (path) => path.startsWith("/v2/prediction/") && !path.includes("11:59:30"),
      );
      let shortened = 0;
      let whole = 0;
      for (const path of predictions) {
        const [expected, got] = [
          await rawGet(plain.url + path, headers),
          await rawGet(threaded.url + path, headers),
        ];
        expect(got.status, path).toBe(200);
        expect(got.body.equals(expected.body), path).toBe(true);
        const sets = JSON.parse(got.body.toString()) as { predictions: number[][] }[];
        // a miner without a valid submission has no set ([])
        if (sets.length > 0 && sets[0].predictions[0].length === 60) shortened += 1;
        if (sets.length > 0 && sets[0].predictions[0].length === 61) whole += 1;
      }
      expect(shortened).toBeGreaterThan(0);
      expect(whole).toBeGreaterThan(0);
    } finally {
      plain.setFaults("");
      threaded.setFaults("");
    }
  }, 120_000);

  it("spread the requests of two assets and several miners over both threads", async () => {
    const threads = startComputeThreads(2, {
      world: { seed: TEST_SEED, nowUnix: Date.parse(TEST_NOW) / 1000 },
      computer: {},
    });
    try {
      // the untyped form, as the server hands operations over
      const realized = operationByPath("/validation/realized-path" as string);
      const predictions = operationByPath("/v2/prediction/historical" as string);
      const startOf = (asset: string) =>
        new Date((plain.world.latestPromptStart(asset, "1h") as number) * 1000).toISOString();
      const answers = await Promise.all([
        threads.answer(
          realized,
          {
            asset: "BTC",
            start_time: startOf("BTC"),
            time_increment: 60,
            time_length: 3600,
          },
          undefined,
        ),
        threads.answer(
          realized,
          {
            asset: "ETH",
            start_time: startOf("ETH"),
            time_increment: 60,
            time_length: 3600,
          },
          undefined,
        ),
        ...plain.world.minerUids.slice(0, 8).map((uid) =>
          threads.answer(
            predictions,
            {
              asset: "SOL",
              start_time: startOf("SOL"),
              time_increment: 60,
              time_length: 3600,
              miner: [uid],
            },
            undefined,
          ),
        ),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      const completed = threads.completedTasks();
      expect(completed.reduce((sum, count) => sum + count, 0)).toBe(answers.length);
      expect(Math.min(...completed)).toBeGreaterThan(0);
    } finally {
      await threads.close();
    }
  }, 120_000);

  it("refuses a thread count that is not a whole number from 0 to 64", async () => {
    await expect(startSandbox({ computeThreads: -1 })).rejects.toThrow(
      /computeThreads must be a whole number from 0 to 64, got -1/,
    );
    await expect(startSandbox({ computeThreads: 1.5 })).rejects.toThrow(/got 1\.5/);
    await expect(startSandbox({ computeThreads: 65 })).rejects.toThrow(/got 65/);
  });
});
