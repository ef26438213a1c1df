/**
 * `record` and `replay` of the sync and score jobs, with real parts: the embedded sandbox over real
 * HTTP on 127.0.0.1, real recording files, the replay server over real HTTP, real DuckDB files in
 * a temp folder. A replay stores exactly what the recorded run stored, needs no sandbox, names the
 * requests its recording cannot answer, and no recorded file holds the API key.
 */

import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORDING_FILE, type RecordedExchange } from "../../src/service/record.ts";
import { runScore } from "../../src/jobs/score/score.ts";
import { runSync } from "../../src/jobs/sync/sync.ts";
import { runJob } from "../../src/jobs/harness/runJob.ts";
import { UsageError } from "../../src/service/usageError.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { scoreRows, syncRows } from "../jobs/storedRows.ts";
import { liveNaming } from "../../src/domain/naming.ts";
import { SMALL_WORLD } from "../smallWorld.ts";

const NOW = "2026-02-25T23:47:00Z";
const KEY = "sk-test-record-7d3a91c0e2b84f56";
const SELECTION = { assets: ["BTC"], horizons: ["24h", "1h"] };
/** Fast retries: the sandbox's faults are immediate. */
const CLIENT = { retryBaseMs: 10, retryMaxMs: 200 };

let folder: string;
let remove: () => void;
const recording = () => join(folder, "recording");

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
});
afterAll(() => remove?.());

/** Every file of `directory` as text. */
function filesOf(directory: string): { name: string; text: string }[] {
  return readdirSync(directory).map((name) => ({
    name,
    text: readFileSync(join(directory, name), "utf8"),
  }));
}

// The embedded sandbox that the jobs start (the whole network), as the recordings describe it, is
// the point of the recordings here.
describe("sync --record then --replay", () => {
  let recorded: Awaited<ReturnType<typeof runSync>>;
  let replayed: Awaited<ReturnType<typeof runSync>>;

  beforeAll(async () => {
    recorded = await runSync({
      ...SELECTION,
      database: join(folder, "recorded.duckdb"),
      now: NOW,
      seed: 42,
      sandboxMiners: SMALL_WORLD.miners,
      apiKey: KEY,
      client: CLIENT,
      record: recording(),
    });
    replayed = await runSync({
      ...SELECTION,
      database: join(folder, "replayed.duckdb"),
      client: CLIENT,
      replay: recording(),
    });
  }, 240_000);

  it("records every response, in a described layout", () => {
    expect(recorded.failures).toEqual([]);
    expect(recorded.exitCode).toBe(0);
    const info = JSON.parse(readFileSync(join(recording(), RECORDING_FILE), "utf8"));
    expect(info).toMatchObject({
      format: "pathlab-recording",
      version: 2,
      command: "sync",
      clock: "2026-02-25T23:47:00.000Z",
      service: { kind: "embedded sandbox", seed: 42, now: "2026-02-25T23:47:00.000Z" },
      naming: { venueA: expect.any(String), venueB: expect.any(String) },
      complete: true,
      exchanges: recorded.totals.requests,
    });
    expect(info.service.baseUrl).toBeUndefined();
    expect(recorded.record).toEqual({
      directory: recording(),
      exchanges: recorded.totals.requests,
    });
    const names = readdirSync(recording()).filter((name) => name !== RECORDING_FILE);
    expect(names.filter((name) => name.endsWith(".json"))).toHaveLength(recorded.totals.requests);
    expect(names.filter((name) => name.endsWith(".body"))).toHaveLength(recorded.totals.requests);
    expect(names).toContain("000001-v2-meta-leaderboard-latest.json");
    const first = JSON.parse(
      readFileSync(join(recording(), "000001-v2-meta-leaderboard-latest.json"), "utf8"),
    ) as RecordedExchange;
    expect(first).toMatchObject({
      sequence: 1,
      operation: "/v2/meta-leaderboard/latest",
      method: "GET",
      path: "/v2/meta-leaderboard/latest",
      status: 200,
      headers: { "content-type": expect.stringContaining("application/json") },
    });
    expect(first.query).toMatch(/days=14/);
    const body = readFileSync(join(recording(), "000001-v2-meta-leaderboard-latest.body"));
    expect(first.bodyBytes).toBe(body.length);
    expect(Array.isArray(JSON.parse(body.toString("utf8")))).toBe(true);
  });

  it("never writes the API key", () => {
    const files = filesOf(recording());
    expect(files.length).toBeGreaterThan(2);
    expect(files.filter((file) => file.text.includes(KEY)).map((file) => file.name)).toEqual([]);
    expect(files.filter((file) => /authorization/i.test(file.text))).toEqual([]);
  });

  it("replays without the network or the sandbox, answering every request", () => {
    expect(replayed.failures).toEqual([]);
    expect(replayed.exitCode).toBe(0);
    expect(replayed.service).toEqual({ ...recorded.service, baseUrl: replayed.service.baseUrl });
    expect(replayed.service).toMatchObject({ kind: "embedded sandbox", seed: 42 });
    expect(replayed.service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(replayed.replay).toEqual({
      directory: recording(),
      exchanges: recorded.totals.requests,
      answered: replayed.totals.requests,
      unanswered: [],
    });
    expect(
      replayed.units.map((unit) => [unit.asset, unit.horizon, unit.forecastStartTime]),
    ).toEqual(recorded.units.map((unit) => [unit.asset, unit.horizon, unit.forecastStartTime]));
  });

  it("a replay's job runs no sandbox of its own, so that its units go to the pool's threads", async () => {
    // The sync's default threads follow `sandboxInProcess`: none beside the embedded sandbox,
    // which works on this machine's cores; one per core but one for a service or a replay.
    const definition = { command: "sync", check: () => undefined, writes: "nothing" } as const;
    const inProcess = (options: Parameters<typeof runJob>[1]) =>
      runJob(definition, options, (job) => Promise.resolve(job.sandboxInProcess));
    expect(await inProcess({ replay: recording(), client: CLIENT })).toBe(false);
    expect(await inProcess({ now: NOW, seed: 42, sandboxMiners: SMALL_WORLD.miners })).toBe(true);
  });

  it("stores the same rows as the recorded run", async () => {
    const original = await syncRows(join(folder, "recorded.duckdb"));
    const replay = await syncRows(join(folder, "replayed.duckdb"));
    expect(original.insights.length).toBeGreaterThan(0);
    expect(original.crosschecks.length).toBeGreaterThan(0);
    expect(original.path_values.length).toBeGreaterThan(0);
    expect(original.venue_comparisons.length).toBeGreaterThan(0);
    for (const table of Object.keys(original)) {
      expect({ table, rows: replay[table] }).toEqual({ table, rows: original[table] });
    }
  });

  it("replays a recording of layout version 1 (bodies inside the exchange files) to the same rows", async () => {
    const version1 = join(folder, "version-1");
    cpSync(recording(), version1, { recursive: true });
    for (const name of readdirSync(version1).filter((file) => /^\d+-.*\.json$/.test(file))) {
      const { bodyBytes, ...exchange } = JSON.parse(readFileSync(join(version1, name), "utf8"));
      const bodyFile = join(version1, name.replace(/\.json$/, ".body"));
      const body = readFileSync(bodyFile, "utf8");
      expect(Buffer.byteLength(body)).toBe(bodyBytes);
      writeFileSync(join(version1, name), JSON.stringify({ ...exchange, body }));
      rmSync(bodyFile);
    }
    const info = JSON.parse(readFileSync(join(version1, RECORDING_FILE), "utf8"));
    writeFileSync(join(version1, RECORDING_FILE), JSON.stringify({ ...info, version: 1 }));
    const summary = await runSync({
      ...SELECTION,
      database: join(folder, "version-1.duckdb"),
      client: CLIENT,
      replay: version1,
    });
    expect(summary.replay?.unanswered).toEqual([]);
    expect(summary.failures).toEqual([]);
    const original = await syncRows(join(folder, "recorded.duckdb"));
    const replay = await syncRows(join(folder, "version-1.duckdb"));
    for (const table of Object.keys(original)) {
      expect({ table, rows: replay[table] }).toEqual({ table, rows: original[table] });
    }
  }, 120_000);

  it("names the request a recording cannot answer", async () => {
    const damaged = join(folder, "damaged");
    cpSync(recording(), damaged, { recursive: true });
    const missing = readdirSync(damaged)
      .filter((name) => name.includes("insights") && name.endsWith(".json"))
      .sort()
      .at(-1) as string;
    const exchange = JSON.parse(readFileSync(join(damaged, missing), "utf8")) as RecordedExchange;
    rmSync(join(damaged, missing));
    const request = `GET ${exchange.path}?${exchange.query}`;
    // the unit that asks for it is enough: a replay of the other would not meet the gap
    const horizon = new URLSearchParams(exchange.query).get("horizon") as string;
    const summary = await runSync({
      ...SELECTION,
      horizons: [horizon],
      database: join(folder, "damaged.duckdb"),
      client: CLIENT,
      replay: damaged,
    });
    expect(summary.replay?.unanswered).toEqual([request]);
    expect(summary.exitCode).toBe(1);
    expect(summary.failures.map((failure) => JSON.stringify(failure)).join("\n")).toContain(
      `not in the recording: ${request}`,
    );
  }, 120_000);
});

describe("score --record then --replay", () => {
  const scoreNow = "2026-11-21T10:49:00Z";
  const range = {
    from: "2026-11-21T08:00:00Z",
    to: scoreNow,
    competition: "crypto-1h" as const,
    assets: ["BTC"],
    client: CLIENT,
  };

  it("scores the same from the recording as from the sandbox", async () => {
    const directory = join(folder, "score-recording");
    const recorded = await runScore({
      ...range,
      database: join(folder, "score-recorded.duckdb"),
      now: scoreNow,
      seed: 42,
      sandboxMiners: SMALL_WORLD.miners,
      apiKey: KEY,
      record: directory,
    });
    const replayed = await runScore({
      ...range,
      database: join(folder, "score-replayed.duckdb"),
      replay: directory,
    });
    expect(recorded.record?.exchanges).toBeGreaterThan(0);
    expect(replayed.replay?.unanswered).toEqual([]);
    expect(replayed.exitCode).toBe(recorded.exitCode);
    expect(replayed.competitions).toEqual(recorded.competitions);
    expect(replayed.agreement).toEqual(recorded.agreement);
    const original = await scoreRows(join(folder, "score-recorded.duckdb"));
    expect(original.miner_scores.length).toBeGreaterThan(0);
    expect(await scoreRows(join(folder, "score-replayed.duckdb"))).toEqual(original);
    const files = filesOf(directory);
    expect(files.filter((file) => file.text.includes(KEY)).map((file) => file.name)).toEqual([]);
  }, 240_000);
});

describe("record and replay options", () => {
  it("refuses --record with --replay, and --replay with a service, the sandbox's clock or another naming", async () => {
    const database = join(folder, "usage.duckdb");
    const cases = [
      { record: join(folder, "a"), replay: recording() },
      { replay: recording(), baseUrl: "http://127.0.0.1:9", apiKey: KEY },
      { replay: recording(), now: NOW },
      { replay: recording(), client: { naming: liveNaming } },
    ];
    for (const options of cases) {
      await expect(runSync({ ...SELECTION, database, ...options })).rejects.toThrow(UsageError);
    }
  });

  it("refuses a directory that is not a recording, or a recording of another job", async () => {
    const database = join(folder, "usage.duckdb");
    await expect(runSync({ ...SELECTION, database, replay: folder })).rejects.toThrow(
      /--replay: cannot read ".*recording\.json"/,
    );
    await expect(runScore({ from: NOW, to: NOW, database, replay: recording() })).rejects.toThrow(
      /command: expected a recording of score, got "sync"/,
    );
  });

  it("refuses to record into a directory that is not empty", async () => {
    const directory = join(folder, "not-empty");
    cpSync(recording(), directory, { recursive: true });
    writeFileSync(join(directory, "note.txt"), "kept");
    await expect(
      runSync({
        ...SELECTION,
        database: join(folder, "usage.duckdb"),
        now: NOW,
        record: directory,
      }),
    ).rejects.toThrow(/--record: the directory .* is not empty/);
  });
});
