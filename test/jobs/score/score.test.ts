/**
 * The score job against the sandbox (the small world) over real HTTP on 127.0.0.1, into a real DuckDB file in a temp
 * folder: every competition of a range is recomputed and compared with the sandbox validator's own
 * numbers (fetched here with a plain client), a candidate folder is placed, and a rerun of the
 * range changes no row.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { runScore, type ScoreOptions } from "../../../src/jobs/score/score.ts";
import { checkScoreOptions } from "../../../src/jobs/score/options.ts";
import type { ScoreSummary } from "../../../src/jobs/score/summary.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { promptCrps } from "../../../src/reference/promptCrps.ts";
import type { LeaderboardV2Row } from "../../../src/domain/records/leaderboard.ts";
import type { RealizedPath, ScoreRow } from "../../../src/domain/records/validation.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../../src/domain/intervals.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { openStore } from "../../../src/store/openStore.ts";
import { queryRows } from "../../../src/store/queryRows.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { sandboxGetJson } from "../sandboxJson.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const NOW = "2026-11-21T10:49:00Z";
const FROM = "2026-11-20T09:00:00Z";
const KEY = "sk-test-score-8c2e51f0a94b";

let sandbox: EmbeddedSandbox;
let folder: string;
let remove: () => void;
let database: string;
let options: ScoreOptions;
let first: ScoreSummary;
let candidatePaths: number[][];
let candidateRealized: RealizedPath;

/** GET with the key, as JSON (the test's own plain client). */
const getJson = sandboxGetJson(() => sandbox.url, KEY);

/** Geometric random-walk paths from `start` (seeded LCG + Box–Muller), rounded to cents. */
function walkPaths(start: number, nPaths: number, nPoints: number, sigma: number): number[][] {
  let state = 12345;
  const uniform = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state + 0.5) / 2147483648;
  };
  return Array.from({ length: nPaths }, () => {
    const path = [start];
    for (let point = 1; point < nPoints; point++) {
      const normal = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      path.push(Math.round(path[point - 1] * Math.exp(sigma * normal) * 100) / 100);
    }
    return path;
  });
}

async function rows(sql: string): Promise<readonly (readonly unknown[])[]> {
  const store = await openStore(database, { readOnly: true });
  try {
    return (await queryRows(store, sql)).rows;
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
  ({ folder, remove } = temporaryFolder());
  database = join(folder, "score.duckdb");
  // A candidate folder: one good BTC 24h answer to the range's scored prompt, one malformed (999 paths).
  const { start_times: starts } = await getJson<{ start_times: string[] }>("/validation/prompts", {
    from: FROM,
    to: NOW,
    asset: "BTC",
    time_increment: 300,
    time_length: 86400,
  });
  const scored = starts.filter(
    (start) => parseIsoTimeMs(start) / 1000 + 86400 <= parseIsoTimeMs(NOW) / 1000,
  );
  const startTime = scored.at(-1) as string;
  candidateRealized = await getJson<RealizedPath>("/validation/realized-path", {
    start_time: startTime,
    asset: "BTC",
    time_increment: 300,
    time_length: 86400,
  });
  candidatePaths = walkPaths(candidateRealized.real_prices[0] as number, 1000, 289, 0.0018);
  const candidate = join(folder, "candidate");
  mkdirSync(candidate);
  const record = {
    asset: "BTC",
    time_increment: 300,
    time_length: 86400,
    start_time: parseIsoTimeMs(startTime) / 1000,
    predictions: candidatePaths,
  };
  writeFileSync(join(candidate, "good.json"), JSON.stringify(record));
  writeFileSync(
    join(candidate, "malformed.json"),
    JSON.stringify({ ...record, asset: "SOL", predictions: candidatePaths.slice(1) }),
  );
  options = {
    from: FROM,
    to: NOW,
    baseUrl: sandbox.url,
    apiKey: KEY,
    database,
    candidate,
    // A service (baseUrl) defaults to own-only; the sandbox serves every path set, so recompute all.
    ownOnly: false,
    threads: 1,
  };
  first = await runScore(options);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

describe("runScore against the sandbox", () => {
  it("recomputed prompt CRPS and prompt scores equal the sandbox validator's", async () => {
    const stored = await rows(
      `select asset, time_increment, time_length, epoch(start_time)::BIGINT, miner_uid, crps, prompt_score
       from miner_scores where source = 'network'`,
    );
    expect(stored.length).toBeGreaterThan(0);
    const byPrompt = new Map<string, ScoreRow[]>();
    let compared = 0;
    for (const [asset, increment, length, start, minerUid, crps, promptScore] of stored) {
      const key = `${asset}|${increment}|${length}|${start}`;
      let service = byPrompt.get(key);
      if (service === undefined) {
        const scoredTime = new Date((Number(start) + Number(length)) * 1000).toISOString();
        service = await getJson<ScoreRow[]>("/validation/scores/historical", {
          from: scoredTime,
          to: scoredTime,
          asset: String(asset),
          time_increment: Number(increment),
          time_length: Number(length),
        });
        byPrompt.set(key, service);
      }
      const row = service.find((candidate) => candidate.miner_uid === Number(minerUid));
      expect(row, `service row of miner ${minerUid} on ${key}`).toBeDefined();
      const tolerance = 1e-9 * Math.max(1, Math.abs(row!.crps));
      expect(Math.abs(Number(crps) - row!.crps)).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(Number(promptScore) - row!.prompt_score)).toBeLessThanOrEqual(
        1e-9 * Math.max(1, Math.abs(row!.prompt_score)),
      );
      compared++;
    }
    expect(compared).toBe(stored.length);
    // Six prompts or more: the whole network's more than 100 rows, at most 18 miners a
    // competition, were six prompts at least; the small world has half the miners a prompt.
    expect(byPrompt.size).toBeGreaterThanOrEqual(6);
    expect(first.agreement.disagree).toBe(0);
    expect(first.exitCode).toBe(0);
  });

  it("the rankings agree with the service's leaderboards and smoothed scores", async () => {
    for (const competition of first.competitions) {
      const leaderboard = await getJson<LeaderboardV2Row[]>("/v2/leaderboard/latest", {
        prompt_name: competition.competition,
      });
      expect(leaderboard.length).toBeGreaterThan(5);
      expect(leaderboard[0].updated_at.replace(/\.000Z$/, "Z")).toBe(competition.asOf);
      expect(competition.leaderboard.map((row) => row.minerUid)).toEqual(
        leaderboard.map((row) => row.neuron_uid),
      );
      for (const row of competition.leaderboard) {
        expect(row.agreement).toBe("agree");
        expect(row.serviceSmoothedScore).not.toBeNull();
      }
    }
  });

  it("the 1h and 24h competitions are scored with their own intervals", async () => {
    const intervals = await rows(
      `select distinct time_length, intervals::VARCHAR from miner_scores where crps <> -1`,
    );
    const byLength = new Map<number, string[]>();
    for (const [length, text] of intervals) {
      byLength.set(Number(length), Object.keys(JSON.parse(String(text))));
    }
    expect(byLength.get(3600)).toEqual(Object.keys(SCORING_INTERVALS_1H));
    expect(byLength.get(86400)).toEqual(Object.keys(SCORING_INTERVALS_24H));
    const competitions = Object.fromEntries(
      first.competitions.map((competition) => [competition.competition, competition.intervals]),
    );
    expect(competitions["crypto-1h"]).toEqual(SCORING_INTERVALS_1H);
    expect(competitions["crypto-24h"]).toEqual(SCORING_INTERVALS_24H);
    expect(competitions["com-equ-24h"]).toEqual(SCORING_INTERVALS_24H);
  });

  it("realized paths with NaN gaps are stored with their gaps and scored like the validator", async () => {
    const gapped = await rows(
      `select r.asset, r.time_length, count(*) filter (where m.verdict = 'agree'), count(m.crps)
       from realized_prices r join miner_scores m using (asset, time_increment, time_length, start_time)
       where len(list_filter(r.prices, price -> price is null)) > 0 and m.source = 'network'
       group by all`,
    );
    expect(gapped.length).toBeGreaterThan(0);
    for (const [, , agreeing, scored] of gapped) {
      expect(Number(scored)).toBeGreaterThan(0);
      expect(agreeing).toBe(scored);
    }
  });

  it("a candidate folder with one good and one malformed file gives a rank and a validation reason", async () => {
    const competition = first.competitions.find((entry) => entry.competition === "crypto-24h")!;
    const candidate = competition.candidate!;
    const good = candidate.prompts.find((placing) => placing.file === "good.json")!;
    // The candidate's CRPS by the slow reference implementation, and its rank among the service's rows.
    const realized = candidateRealized.real_prices.map((price) => price ?? Number.NaN);
    const expected = promptCrps(candidatePaths, realized, 300, SCORING_INTERVALS_24H);
    expect(Math.abs((good.crps as number) - expected)).toBeLessThanOrEqual(1e-9 * expected);
    const service = await getJson<ScoreRow[]>("/validation/scores/historical", {
      from: new Date(parseIsoTimeMs(good.startTime) + 86400_000).toISOString(),
      to: new Date(parseIsoTimeMs(good.startTime) + 86400_000).toISOString(),
      asset: "BTC",
      time_increment: 300,
      time_length: 86400,
    });
    const better = service.filter((row) => row.crps !== -1 && row.crps < expected).length;
    expect(good.rank).toBe(better + 1);
    expect(good.of).toBe(service.length + 1);
    expect(candidate.smoothedRank).not.toBeNull();
    expect(first.rejectedCandidateFiles).toEqual([
      { file: "malformed.json", reason: "Number of paths is incorrect: expected 1000, got 999" },
    ]);
    const bad = candidate.prompts.find((placing) => placing.file === "malformed.json")!;
    expect(bad).toMatchObject({
      rank: null,
      reason: "Number of paths is incorrect: expected 1000, got 999",
    });
  });

  it("rerunning a range is idempotent: the same numbers and no new rows", async () => {
    const tables = [
      "prompts",
      "realized_prices",
      "service_scores",
      "miner_scores",
      "smoothed_scores",
      "calibration",
    ];
    const count = async () =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (table) => [
            table,
            Number((await rows(`select count(*) from ${table}`))[0][0]),
          ]),
        ),
      );
    const before = await count();
    expect(before.calibration).toBeGreaterThan(0);
    // The 1h competition again (its 1h path sets are the cheap ones to pull twice).
    const second = await runScore({ ...options, competition: "crypto-1h" });
    expect(await count()).toEqual(before);
    expect(second.competitions).toEqual(
      first.competitions.filter((competition) => competition.competition === "crypto-1h"),
    );
    expect((await rows("select count(*) from runs where command = 'score'"))[0][0]).toBe(2);
  }, 120_000);

  it("--miners top:N scores the meta-leaderboard's first N and still agrees (absent miners stay out of the pool)", async () => {
    const summary = await runScore({
      ...options,
      // From just before the sandbox's scoring period: explicit miners are scored on every prompt.
      from: "2026-11-21T09:10:00Z",
      database: join(folder, "top.duckdb"),
      competition: "crypto-1h",
      miners: { top: 8 },
    });
    const meta = await getJson<LeaderboardV2Row[]>("/v2/meta-leaderboard/latest", {
      days: 14,
      prompt_name: "crypto-1h",
    });
    const top = meta.slice(0, 8).map((row) => row.neuron_uid);
    const ranked = summary.competitions[0].leaderboard.map((row) => row.minerUid);
    expect([...ranked].sort((a, b) => a - b)).toEqual(
      top.filter((uid) => ranked.includes(uid)).sort((a, b) => a - b),
    );
    expect(ranked.length).toBeGreaterThan(0);
    expect(summary.agreement.disagree).toBe(0);
    expect(summary.agreement.agree).toBeGreaterThan(0);
  }, 60_000);

  it("options that cannot work are usage errors naming the option", async () => {
    await expect(runScore({ from: NOW, to: FROM })).rejects.toThrow(
      new UsageError(`score: --to: expected a time at or after --from (${NOW}), got ${FROM}`),
    );
    await expect(
      runScore({ from: FROM, to: NOW, competition: "crypto-1h", assets: ["XAU"] }),
    ).rejects.toThrow(/score: --assets: expected assets of crypto-1h .*got "XAU"/);
    // A range of years is refused before anything is asked of the service.
    await expect(runScore({ from: "2024-01-01T00:00:00Z", to: NOW })).rejects.toThrow(
      new UsageError(
        "score: --from/--to: expected a range of at most 31 days, got 1055.5 days; run it in parts (the first: --to 2024-02-01T00:00:00Z)",
      ),
    );
    // A uid listed twice is one miner; a selection of miners asks for their path sets.
    const checked = checkScoreOptions({ from: FROM, to: NOW, miners: { uids: [5, 5, 7] } });
    expect(checked.miners).toEqual({ uids: [5, 7] });
    expect(
      checkScoreOptions({ from: FROM, to: NOW, baseUrl: "http://x", apiKey: KEY }).ownOnly,
    ).toBe(true);
    expect(
      checkScoreOptions({
        from: FROM,
        to: NOW,
        baseUrl: "http://x",
        apiKey: KEY,
        miners: { top: 3 },
      }).ownOnly,
    ).toBe(false);
  });
});
