/**
 * Key tiers and retention over real HTTP, as the live service has them: a basic key gets 401 on
 * the raw prediction paths and everything else; an elevated key gets the paths; prediction sets
 * older than the days kept are refused, naming the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { openSandbox, rawGet, TEST_NOW } from "./sandboxSetup.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  ({ sandbox } = await openSandbox({ apiKeys: ["sk-elevated"], basicKeys: ["sk-basic"] }));
}, 60_000);
afterAll(async () => sandbox?.close());

const as = (key: string) => ({ authorization: `Apikey ${key}` });
const nowUnix = Date.parse(TEST_NOW) / 1000;

/** A BTC 1h prompt start `daysBack` days before the clock (1h prompts of BTC every 20 minutes). */
async function promptStartBefore(daysBack: number): Promise<string> {
  const from = new Date((nowUnix - daysBack * 86400) * 1000).toISOString();
  const to = new Date((nowUnix - daysBack * 86400 + 3600) * 1000).toISOString();
  const answer = await rawGet(
    `${sandbox.url}/validation/prompts?asset=BTC&time_increment=60&time_length=3600&from=${from}&to=${to}`,
    as("sk-elevated"),
  );
  expect(answer.status, answer.body.toString()).toBe(200);
  return (JSON.parse(answer.body.toString()) as { start_times: string[] }).start_times[0];
}

const historical = (start: string) =>
  `/v2/prediction/historical?asset=BTC&time_increment=60&time_length=3600&miner=1&start_time=${start}`;

describe("key tiers", () => {
  it("a basic key gets 401 on raw prediction paths, naming why, and the insights as usual", async () => {
    const start = await promptStartBefore(1);
    const refused = await rawGet(sandbox.url + historical(start), as("sk-basic"));
    expect(refused.status).toBe(401);
    expect(refused.body.toString()).toBe(
      "this key has basic access: raw prediction paths (/v2/prediction/…) need an elevated key",
    );
    const insight = await rawGet(`${sandbox.url}/insights/liquidation?asset=BTC`, as("sk-basic"));
    expect(insight.status).toBe(200);
    const elevated = await rawGet(sandbox.url + historical(start), as("sk-elevated"));
    expect(elevated.status, elevated.body.toString()).toBe(200);
  }, 60_000);
});

describe("retention", () => {
  it("prediction sets of the last 11 days are served; older ones are refused with the limit", async () => {
    const recent = await rawGet(
      sandbox.url + historical(await promptStartBefore(10)),
      as("sk-elevated"),
    );
    expect(recent.status, recent.body.toString()).toBe(200);
    const old = await promptStartBefore(12);
    const refused = await rawGet(sandbox.url + historical(old), as("sk-elevated"));
    expect(refused.status).toBe(400);
    expect(refused.body.toString()).toContain(
      `parameter "start_time": expected a prompt start within the 11 days prediction sets are kept (from 2026-11-09T12:00:00.000Z), got "${old}"`,
    );
  }, 60_000);
});
