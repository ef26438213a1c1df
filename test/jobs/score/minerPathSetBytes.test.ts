/**
 * `fetchMinerPathSet` reading path sets from bytes, against a scripted server on 127.0.0.1: each
 * kind of body gets the outcome it got when bodies were read with `JSON.parse` (the expected
 * outcomes below are that reading's: its verdicts, reasons and errors), bodies the sandbox never
 * sends included.
 */

import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../../src/client/create-client.ts";
import { fetchMinerPathSet } from "../../../src/jobs/score/minerPathSet.ts";
import { startScriptedServer, type ScriptedServer } from "../../client/scripted-server.ts";

const START = 1772063100;
/** A BTC 1h prompt: 1,000 paths of 61 points. */
const PROMPT = {
  asset: "BTC",
  startUnix: START,
  timeIncrement: 60,
  timeLength: 3600,
  minerUid: 17,
};
const LEGACY = { responseFormatFromUnix: null };

const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/**
 * A body of one set for miner 17: `count` paths of 61 points, each point's JSON text
 * `price(path, point)`, then `extra` (more fields) in the set's object.
 */
function body(price: (path: number, point: number) => string, count = 1000, extra = ""): string {
  const paths = Array.from(
    { length: count },
    (_, path) => `[${Array.from({ length: 61 }, (_, point) => price(path, point)).join(",")}]`,
  ).join(",");
  return `[{"miner_uid":17,"start_time":${START},"predictions":[${paths}]${extra}}]`;
}

async function fetchFrom(text: string, eraSettings = {}) {
  const server = await startScriptedServer([{ body: text }]);
  servers.push(server);
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: "sk-test-bytes-123456",
    maxRetries: 0,
  });
  try {
    return await fetchMinerPathSet(client, PROMPT, {}, eraSettings);
  } finally {
    await client.close();
  }
}

describe("fetchMinerPathSet from bytes", () => {
  it("reads a valid set into its path set", async () => {
    const fetched = await fetchFrom(
      body((path, point) => (point === 1 ? `${67000 + path}.25` : "67676.5")),
    );
    expect(fetched.kind).toBe("path set");
    if (fetched.kind !== "path set") return;
    expect(fetched.pathSet.values.length).toBe(61_000);
    expect(Array.from(fetched.pathSet.values.subarray(61, 63))).toEqual([67676.5, 67001.25]);
  });

  it("gives a zero price the validator's −1", async () => {
    const fetched = await fetchFrom(
      body((path, point) => (path === 3 && point === 1 ? "0" : "67676.5")),
    );
    expect(fetched).toEqual({
      kind: "scored -1",
      reason: "price 0 at path 3, point 1: the validator scores −1",
    });
  });

  it("gives a wrong path count the validator's reason", async () => {
    const fetched = await fetchFrom(body(() => "67676.5", 999));
    expect(fetched).toEqual({
      kind: "invalid",
      reason: "Number of paths is incorrect: expected 1000, got 999",
    });
  });

  it("finds a body with Python's NaN, even outside the prices, unreadable as JSON.parse did", async () => {
    for (const text of [
      body((path, point) => (path === 5 && point === 1 ? "NaN" : "67676.5")),
      body(() => "67676.5", 1000, ',"note":NaN'),
    ]) {
      const fetched = await fetchFrom(text);
      expect(fetched.kind).toBe("invalid");
      expect(fetched.kind === "invalid" && fetched.reason).toMatch(
        /^path set unreadable: \/v2\/prediction\/historical: HTTP 200: body is not valid JSON \(\d+ bytes: /,
      );
    }
  });

  it("reads whole floats as JSON.parse does: 12345678.0 passes the legacy digit rule as an int", async () => {
    const fetched = await fetchFrom(
      body((_path, point) => (point === 0 ? "12345678.0" : "12345679")),
      LEGACY,
    );
    expect(fetched.kind).toBe("path set");
    const tooMany = await fetchFrom(
      body((_path, point) => (point === 0 ? "12345678.5" : "12345679")),
      LEGACY,
    );
    expect(tooMany).toEqual({
      kind: "invalid",
      reason: "Price format is incorrect: too many digits 12345678.5",
    });
  });

  it("finds no set in an empty answer, and takes the asked miner's among several", async () => {
    expect(await fetchFrom("[]")).toEqual({
      kind: "unavailable",
      reason: "no path set served for the prompt",
    });
    const other = body(() => "1.5").replace('"miner_uid":17', '"miner_uid":18');
    const two = `${other.slice(0, -1)},${body(() => "3.5").slice(1)}`;
    const fetched = await fetchFrom(two);
    expect(fetched.kind).toBe("path set");
    if (fetched.kind === "path set") expect(fetched.pathSet.values[0]).toBe(3.5);
  });
});
