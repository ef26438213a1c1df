/**
 * A key the service refuses fails a score that needs the miners' path sets: the run is `failed`,
 * and the error names the operation and the service's reason. A wrong key and a key of the basic
 * tier (no raw path sets) are both refused; the service's reason tells them apart. On the unit
 * pool's threads as on the job's own thread.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScore } from "../../../src/jobs/score/score.ts";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";
import { temporaryFolder } from "../../store/helpers.ts";

const NOW = "2026-02-25T23:47:00Z";
const KEY = "sk-test-refused-right-51c0";
const BASIC = "sk-test-refused-basic-8e2a";
/** Two prompts of the high competition, each with scores at the sandbox's service. */
const RANGE = {
  from: "2026-02-25T22:40:00Z",
  to: "2026-02-25T23:20:00Z",
  competition: "crypto-1h",
} as const;

let sandbox: RunningSandbox;
let folder: string;
let remove: () => void;

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  sandbox = await startSandbox({
    ...SMALL_WORLD,
    seed: 42,
    now: NOW,
    apiKeys: [KEY],
    basicKeys: [BASIC],
  });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

/** The runs stored in `database`: status and failures. */
async function runsOf(database: string) {
  const store = await openStore(database, { readOnly: true });
  try {
    return (await queryRows(store, "select status, failures from runs order by id")).rows;
  } finally {
    await store.close();
  }
}

describe("score with a key the service refuses", () => {
  it.each([
    ["a wrong key", "sk-test-refused-wrong-77", 2, /invalid API key/],
    ["a wrong key, on the job's thread", "sk-test-refused-wrong-77", 0, /invalid API key/],
    ["a key of the basic tier", BASIC, 2, /this key has basic access/],
  ])(
    "%s fails the run, naming the operation and the service's reason",
    async (_case, apiKey, threads, reason) => {
      const database = join(folder, `refused-${apiKey.slice(-4)}-${threads}.duckdb`);
      const failure = await runScore({
        ...RANGE,
        ownOnly: false,
        database,
        baseUrl: sandbox.url,
        apiKey,
        threads,
      }).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failure?.name).toBe("AuthenticationError");
      expect(failure?.message).toMatch(
        /^\/v2\/prediction\/historical: HTTP 401 \(the API key was refused\): /,
      );
      expect(failure?.message).toMatch(reason);
      expect(failure?.message).not.toContain(apiKey);
      const runs = await runsOf(database);
      expect(runs).toHaveLength(1);
      expect(runs[0][0]).toBe("failed");
      expect(String(runs[0][1])).toContain("/v2/prediction/historical: HTTP 401");
    },
    120_000,
  );

  it("the right key scores the same range, every prompt of it (the refusal is the key's alone)", async () => {
    const database = join(folder, "right.duckdb");
    const summary = await runScore({
      ...RANGE,
      ownOnly: false,
      database,
      baseUrl: sandbox.url,
      apiKey: KEY,
      threads: 2,
    });
    expect(summary.failures).toEqual([]);
    expect((await runsOf(database))[0][0]).toBe("ok");
  }, 120_000);
});
