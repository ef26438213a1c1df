/**
 * The score job as it must behave against the live network, against the sandbox over real HTTP
 * (through a counting proxy on 127.0.0.1) into real DuckDB files: damaged path sets take the
 * service's CRPS, own-only fetches no miner's paths, the candidate is one more miner (the fill on
 * prompts it skipped), files that answer no prompt are reported, and the smoothed scores are read
 * from the live path under the live naming; a prompt that fails or passes its deadline is recorded
 * while the others are scored. Over 300 lines: the cases share one scored sandbox and its proxy,
 * which take most of the file's time to set up.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMALL_WORLD } from "../../smallWorld.ts";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { runScore, type ScoreOptions } from "../../../src/jobs/score/score.ts";
import { CANDIDATE_DID_NOT_ANSWER } from "../../../src/jobs/score/scorePromptPool.ts";
import { promptScoreRuleAt, promptScores } from "../../../src/reference/promptScores.ts";
import { liveNaming } from "../../../src/domain/naming.ts";
import type { RealizedPath, ScoreRow } from "../../../src/domain/records/validation.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { sandboxGetJson } from "../sandboxJson.ts";

const NOW = "2026-11-21T10:49:00Z";
// Within the sandbox's scoring period, where every prompt has the service's rows.
const FROM = "2026-11-21T09:10:00Z";
const TO = "2026-11-21T09:48:00Z";
const KEY = "sk-test-network-4d1c9a7e20b3";
/** One served path set in five is damaged (a point short) while the service scored it whole. */
const DAMAGED_SETS = "shortpaths=0.2,path=/v2/prediction/historical";

let sandbox: EmbeddedSandbox;
let proxy: Server;
let proxyUrl: string;
const requestsByPath = new Map<string, number>();
let folder: string;
let remove: () => void;
let base: ScoreOptions;

/** Forwards every request to the sandbox and counts it by path. */
function startCountingProxy(target: string): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? "/").split("?")[0];
    requestsByPath.set(path, (requestsByPath.get(path) ?? 0) + 1);
    const forwarded = request(
      `${target}${incoming.url}`,
      { method: incoming.method, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** GET with the key, as JSON (the test's own plain client). */
const getJson = sandboxGetJson(() => sandbox.url, KEY);

async function rows(database: string, sql: string): Promise<readonly (readonly unknown[])[]> {
  const store = await openStore(database, { readOnly: true });
  try {
    return (await queryRows(store, sql)).rows;
  } finally {
    await store.close();
  }
}

/** Random-walk paths from `start`, rounded to cents (valid under every format rule). */
function walkPaths(start: number, nPoints: number): number[][] {
  let state = 987654;
  const uniform = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state + 0.5) / 2147483648;
  };
  return Array.from({ length: 1000 }, () => {
    const path = [start];
    for (let point = 1; point < nPoints; point++) {
      const normal = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      path.push(Math.round(path[point - 1] * Math.exp(0.0007 * normal) * 100) / 100);
    }
    return path;
  });
}

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({
    ...SMALL_WORLD,
    seed: 42,
    now: NOW,
    apiKey: KEY,
    faults: DAMAGED_SETS,
  });
  proxy = await startCountingProxy(sandbox.url);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  ({ folder, remove } = temporaryFolder());
  base = {
    from: FROM,
    to: TO,
    competition: "crypto-1h",
    baseUrl: proxyUrl,
    apiKey: KEY,
    threads: 1,
  };
}, 60_000);

afterAll(async () => {
  proxy?.close();
  await sandbox?.close();
  remove?.();
});

describe("runScore against the network's rules", () => {
  it("damaged path sets take the service's CRPS: zero disagreements, stored with source 'service'", async () => {
    const database = join(folder, "damaged.duckdb");
    const summary = await runScore({ ...base, ownOnly: false, database });
    expect(summary.agreement.disagree).toBe(0);
    expect(summary.exitCode).toBe(0);
    const [competition] = summary.competitions;
    const damaged = Object.entries(competition.serviceCrps).filter(([why]) =>
      why.startsWith("Number of time points is incorrect"),
    );
    expect(damaged.length).toBeGreaterThan(0);
    // Assets with path sets (BTC, ETH, SOL): about one served set in five is a point short.
    const [[served, shortened]] = await rows(
      database,
      `select count(*) filter (where invalid_reason is null or invalid_reason not like 'no path set served%'),
         count(*) filter (where source = 'service' and invalid_reason like 'Number of time points is incorrect%')
       from miner_scores where asset in ('BTC', 'ETH', 'SOL')`,
    );
    const share = Number(shortened) / Number(served);
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.35);
    // Every miner on the service's CRPS (any asset) carries exactly the service's number.
    const [[service, same]] = await rows(
      database,
      `select count(*), count(*) filter (where crps = service_crps) from miner_scores
       where source = 'service'`,
    );
    expect(Number(service)).toBeGreaterThan(0);
    expect(same).toBe(service);
  }, 120_000);

  it("--own-only sends no prediction request for network miners, and still agrees", async () => {
    requestsByPath.clear();
    const database = join(folder, "own.duckdb");
    const summary = await runScore({ ...base, database });
    expect(summary.ownOnly).toBe(true);
    expect(requestsByPath.get("/v2/prediction/historical") ?? 0).toBe(0);
    expect(requestsByPath.get("/validation/scores/historical")).toBeGreaterThan(0);
    expect(summary.agreement.disagree).toBe(0);
    const sources = await rows(database, "select distinct source from miner_scores");
    expect(sources).toEqual([["service"]]);
    // The rank history's last update is the service's latest one, ranked as the leaderboard is.
    const [competition] = summary.competitions;
    expect(competition.updates).toBeGreaterThan(5);
    const last = await rows(
      database,
      `select miner_uid from rank_history where source = 'network' and updated_at =
         (select max(updated_at) from rank_history) order by rank`,
    );
    expect(competition.asOf).not.toBeNull();
    const [[lastUpdate]] = await rows(
      database,
      "select strftime(max(updated_at), '%Y-%m-%dT%H:%M:%SZ') from rank_history",
    );
    expect(lastUpdate).toBe(competition.asOf);
    expect(last.map(([uid]) => uid)).toEqual(competition.leaderboard.map((row) => row.minerUid));
  }, 120_000);

  it("under the live naming the smoothed scores come from /rewards/scores?prompt_name=", async () => {
    requestsByPath.clear();
    const summary = await runScore({
      ...base,
      database: join(folder, "live.duckdb"),
      client: { naming: liveNaming },
    });
    expect(requestsByPath.get("/rewards/scores")).toBeGreaterThan(0);
    expect(requestsByPath.get("/validation/smoothed-scores") ?? 0).toBe(0);
    expect(summary.competitions[0].asOf).not.toBeNull();
  }, 120_000);

  it("the candidate takes the fill where it skipped a prompt; a file 60 s off is reported and exits 1", async () => {
    const { start_times: starts } = await getJson<{ start_times: string[] }>(
      "/validation/prompts",
      { from: FROM, to: TO, asset: "BTC", time_increment: 60, time_length: 3600 },
    );
    // The sandbox asks for BTC 1h every 20 minutes: 09:20 and 09:40 in the range.
    expect(starts.length).toBe(2);
    const candidate = join(folder, "candidate");
    mkdirSync(candidate);
    const answered = [starts[0]];
    for (const start of answered) {
      const realized = await getJson<RealizedPath>("/validation/realized-path", {
        start_time: start,
        asset: "BTC",
        time_increment: 60,
        time_length: 3600,
      });
      const record = {
        asset: "BTC",
        time_increment: 60,
        time_length: 3600,
        start_time: parseIsoTimeMs(start) / 1000,
        predictions: walkPaths(realized.real_prices[0] as number, 61),
      };
      writeFileSync(join(candidate, `BTC-${record.start_time}.json`), JSON.stringify(record));
    }
    const off = parseIsoTimeMs(starts[1]) / 1000 + 60;
    writeFileSync(
      join(candidate, "BTC-off.json"),
      JSON.stringify({
        asset: "BTC",
        time_increment: 60,
        time_length: 3600,
        start_time: off,
        predictions: [],
      }),
    );
    const database = join(folder, "candidate.duckdb");
    const summary = await runScore({ ...base, database, candidate });
    expect(summary.exitCode).toBe(1);
    expect(summary.unmatchedCandidateFiles).toEqual([
      {
        file: "BTC-off.json",
        reason: `start time 60 s off the nearest prompt (${starts[1].replace(/\.000Z$/, "Z")})`,
      },
    ]);
    const result = summary.competitions[0].candidate!;
    expect(result.prompts.map((placing) => placing.startTime)).toEqual(answered);
    expect(result.promptsNotAnswered).toBe(starts.length - answered.length);
    expect(result.trajectory.length).toBe(summary.competitions[0].updates);
    // On a skipped prompt the candidate's prompt score is the fill of the pool with it as −1.
    const skipped = starts[1];
    const stored = await rows(
      database,
      `select crps, prompt_score, invalid_reason from miner_scores
       where source = 'candidate' and asset = 'BTC' and start_time = '${skipped.replace("Z", "")}'::TIMESTAMP`,
    );
    expect(stored.length).toBe(1);
    const [crps, promptScore, reason] = stored[0];
    expect(crps).toBe(-1);
    expect(reason).toBe(CANDIDATE_DID_NOT_ANSWER);
    const scoredTime = new Date(parseIsoTimeMs(skipped) + 3600_000).toISOString();
    const service = await getJson<ScoreRow[]>("/validation/scores/historical", {
      from: scoredTime,
      to: scoredTime,
      asset: "BTC",
      time_increment: 60,
      time_length: 3600,
    });
    const rule = promptScoreRuleAt(parseIsoTimeMs(scoredTime) / 1000);
    const expected = promptScores([...service.map((row) => row.crps), -1], rule)!;
    expect(Math.abs(Number(promptScore) - expected.scores.at(-1)!)).toBeLessThanOrEqual(
      1e-9 * expected.scores.at(-1)!,
    );
    expect(expected.scores.at(-1)).toBe(expected.worstScore);
  }, 120_000);
});

describe("runScore under lasting faults", () => {
  /**
   * Scores the base range (every miner recomputed) against the file's sandbox with `faults` in
   * place of its own (already scored: its validator's numbers are the same under any faults).
   */
  async function scoreUnder(
    faults: string,
    options: Partial<Parameters<typeof runScore>[0]>,
  ): Promise<Awaited<ReturnType<typeof runScore>>> {
    await sandbox.setFaults(faults);
    try {
      return await runScore({ ...base, baseUrl: sandbox.url, ownOnly: false, ...options });
    } finally {
      await sandbox.setFaults(DAMAGED_SETS);
    }
  }

  /** The assets of the range's prompts recomputed from path sets: one entry per prompt. */
  const RECOMPUTED_PROMPT_ASSETS = ["BTC", "BTC", "ETH", "ETH", "SOL"];
  const failedAssets = (summary: Awaited<ReturnType<typeof runScore>>) =>
    summary.failures.map((failure) => failure.where.split(" ")[1]).sort();

  it("a prompt whose inputs fail after the retries is recorded with its reason; the others are scored", async () => {
    // Every realized path fails (5xx, beyond the retries): the prompts of the assets recomputed
    // from path sets (BTC, ETH, SOL) cannot be scored; the others (XRP, HYPE, on the service's
    // CRPS) must still be scored, stored and compared.
    const database = join(folder, "faults.duckdb");
    const summary = await scoreUnder("5xx=every:1,path=/validation/realized-path", {
      database,
      client: { maxRetries: 1, retryBaseMs: 1, retryMaxMs: 5 },
    });
    const [competition] = summary.competitions;
    expect(failedAssets(summary)).toEqual(RECOMPUTED_PROMPT_ASSETS);
    expect(competition.promptsScored).toBe(2); // XRP 09:32 and HYPE 09:36
    for (const failure of summary.failures) {
      expect(failure.where).toMatch(/^crypto-1h (BTC|ETH|SOL) 2026-11-21T09:\d\d:00Z$/);
      expect(failure.reason).toMatch(/\/validation\/realized-path/);
    }
    expect(summary.agreement.disagree).toBe(0);
    expect(summary.exitCode).toBe(1);
    const [[status, failures]] = await rows(
      database,
      `select status, json_array_length(failures) from runs where id = ${summary.runId}`,
    );
    expect(status).toBe("partial");
    expect(Number(failures)).toBe(summary.failures.length);
    const [[prompts]] = await rows(database, "select count(*) from prompts");
    expect(Number(prompts)).toBe(competition.promptsScored);
  }, 120_000);

  it("prompts whose requests hang stop at the prompt's deadline, named as such; three in a row stop the job", async () => {
    // Every realized path takes 30 s to answer: the prompts recomputed from path sets stop at the
    // 1 s deadline, each failing the same way, and the breaker stops the job after the third.
    const database = join(folder, "deadline.duckdb");
    const reason = "not finished within 1 s (the prompt's deadline, --unit-deadline)";
    await expect(
      scoreUnder("latency=30s,path=/validation/realized-path", { database, unitDeadlineMs: 1000 }),
    ).rejects.toThrow(`score: stopped after 3 prompts in a row failed the same way: ${reason}`);
    const [[status, failures]] = await rows(database, "select status, failures::VARCHAR from runs");
    expect(status).toBe("failed");
    const stored = JSON.parse(String(failures)) as { where?: string; reason: string }[];
    // each prompt's own failure, then the line that stopped the job
    expect(stored.at(-1)?.reason).toBe(
      `score: stopped after 3 prompts in a row failed the same way: ${reason}`,
    );
    const prompts = stored.slice(0, -1);
    expect(prompts.length).toBeGreaterThanOrEqual(3);
    for (const failure of prompts) {
      expect(failure.reason).toContain(reason);
      expect(failure.where).toMatch(/^crypto-\w+ \w+ \d{4}-/);
    }
  }, 120_000);
});
