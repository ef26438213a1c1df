import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { finishRun, startRun } from "../../src/store/runs.ts";
import { withoutSecrets } from "../../src/store/withoutSecrets.ts";
import { writeUnit } from "../../src/store/writeUnit.ts";
import { temporaryFolder } from "./helpers.ts";
import { completeUnit } from "./units.ts";

let remove: () => void;
let path: string;

beforeEach(() => {
  let folder: string;
  ({ folder, remove } = temporaryFolder());
  path = join(folder, "pathlab.duckdb");
});
afterEach(() => remove());

const KEY = "sk-live-Zq8/w+3ExAMPLE=key";

/** How many values, in every column of every table, contain `needle` (cast to text). */
async function occurrences(store: Store, needle: string): Promise<number> {
  const columns = await queryRows(
    store,
    `select table_name, column_name from duckdb_columns()
     where database_name = current_database() and schema_name = 'main'`,
  );
  let found = 0;
  for (const [table, column] of columns.rows) {
    const { rows } = await queryRows(
      store,
      `select count(*) from "${String(table)}" where strpos(cast("${String(column)}" as varchar), $needle) > 0`,
      { needle },
    );
    found += Number(rows[0][0]);
  }
  return found;
}

describe("runs", () => {
  it("a run is recorded running, then with its status, finish time and failures", async () => {
    const store = await openStore(path);
    const run = await startRun(store, {
      command: "sync",
      args: { assets: ["BTC", "ETH"], horizons: ["24h"] },
      startedAtUnix: 1772063100,
    });
    const running = await queryRows(
      store,
      "select command, args, status, failures, finished_at, epoch(started_at) from runs",
    );
    expect(running.rows).toEqual([
      ["sync", '{"assets":["BTC","ETH"],"horizons":["24h"]}', "running", "[]", null, 1772063100],
    ]);
    await finishRun(store, run, {
      status: "partial",
      failures: [{ unit: "ETH 24h", reason: "HTTP 503 after 4 attempts" }],
      finishedAtUnix: 1772063160,
    });
    const finished = await queryRows(
      store,
      "select status, failures, epoch(finished_at) from runs",
    );
    expect(finished.rows).toEqual([
      ["partial", '[{"unit":"ETH 24h","reason":"HTTP 503 after 4 attempts"}]', 1772063160],
    ]);
    await store.close();
  });

  it("the API key reaches no column of any table, whatever form the arguments take", async () => {
    const store = await openStore(path);
    const marker = "marker-4f1c";
    const run = await startRun(store, {
      command: "sync",
      args: {
        argv: ["sync", "--api-key", KEY, `--api-key=${KEY}`, "--assets", marker],
        apiKey: KEY,
        PATHLAB_API_KEY: KEY,
        options: { token: KEY, baseUrl: `http://127.0.0.1:8080/?key=${encodeURIComponent(KEY)}` },
        headers: { Authorization: `Apikey ${KEY}` },
        note: `retrying with ${KEY} after 401`,
      },
      secrets: [KEY],
    });
    await writeUnit(store, { ...completeUnit(), runId: run.id });
    await finishRun(store, run, {
      status: "failed",
      failures: [{ unit: "BTC 1h", reason: `401 for key ${KEY}`, url: `http://h/?api_key=${KEY}` }],
    });
    expect(await occurrences(store, KEY)).toBe(0);
    expect(await occurrences(store, encodeURIComponent(KEY))).toBe(0);
    expect(await occurrences(store, "Zq8/w+3ExAMPLE")).toBe(0); // no fragment either
    // the search does find what is stored: the marker, in runs.args
    expect(await occurrences(store, marker)).toBe(1);
    const { rows } = await queryRows(store, "select args, failures from runs");
    expect(JSON.parse(String(rows[0][0]))).toEqual({
      argv: ["sync", "--api-key", "[REDACTED]", "--api-key=[REDACTED]", "--assets", marker],
      options: { baseUrl: "http://127.0.0.1:8080/?key=[REDACTED]" },
      headers: {},
      note: "retrying with [REDACTED] after 401",
    });
    expect(JSON.parse(String(rows[0][1]))).toEqual([
      { unit: "BTC 1h", reason: "401 for key [REDACTED]", url: "http://h/?api_key=[REDACTED]" },
    ]);
    await store.close();
  });
});

describe("withoutSecrets", () => {
  it("withoutSecrets drops secret-named properties in any case or separator style", () => {
    expect(
      withoutSecrets(
        {
          apiKey: 1,
          api_key: 2,
          "api-key": 3,
          API_KEY: 4,
          key: 5,
          accessToken: 6,
          password: 7,
          keys: 8,
          monkey: 9,
        },
        [],
      ),
    ).toEqual({ keys: 8, monkey: 9 });
  });

  it("withoutSecrets leaves values alone when there is nothing secret", () => {
    const args = {
      assets: ["BTC"],
      concurrency: 4,
      now: "2026-02-25T23:45:00Z",
      json: true,
      db: null,
    };
    expect(withoutSecrets(args, ["sk-long-secret"])).toEqual(args);
  });

  it("withoutSecrets does not search for secrets shorter than 4 characters", () => {
    expect(withoutSecrets("a cat", ["a"])).toBe("a cat");
  });
});
