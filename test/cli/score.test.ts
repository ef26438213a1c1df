/**
 * `pathlab score` through the program (in process, output captured) against a sandbox over real
 * HTTP and a real DuckDB file: the leaderboard report, the JSON summary, and usage errors (exit 2).
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type ProgramIo } from "../../src/cli/program.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import type { ScoreSummary } from "../../src/jobs/score/summary.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { SMALL_WORLD } from "../smallWorld.ts";

const NOW = "2026-11-21T10:49:00Z";
const KEY = "sk-test-score-cli-71d3a0c4";

let sandbox: EmbeddedSandbox;
let folder: string;
let remove: () => void;

function capture(): { io: ProgramIo; stdout: () => string; stderr: () => string } {
  let stdout = "";
  let stderr = "";
  return {
    io: { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

function scoreArgs(database: string, ...extra: string[]): string[] {
  return [
    "score",
    "--from",
    "2026-11-21T09:00:00Z",
    "--to",
    NOW,
    "--competition",
    "crypto-1h",
    "--assets",
    "BTC",
    "--db",
    database,
    "--base-url",
    sandbox.url,
    "--api-key",
    KEY,
    // A service defaults to own-only; the sandbox serves every miner's path sets.
    "--no-own-only",
    ...extra,
  ];
}

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
  ({ folder, remove } = temporaryFolder());
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

describe("pathlab score", () => {
  it("prints a leaderboard with rank, smoothed score, weight, mean CRPS, coverage and agreement", async () => {
    const output = capture();
    const code = await runCli(
      scoreArgs(join(folder, "report.duckdb"), "--miners", "top:5"),
      output.io,
    );
    expect(output.stderr()).toMatch(/score: crypto-1h: 6 prompts to score/);
    expect(code).toBe(0);
    const text = output.stdout();
    expect(text).toMatch(
      /rank\s+uid\s+smoothed\s+weight\s+mean CRPS\s+cov 90%\s+prompts ok\s+agreement/,
    );
    expect(text).toMatch(/Agreement with the service: \d+ agree, 0 disagree/);
    // Only BTC of crypto-1h: the smoothed window misses the other assets' prompts.
    expect(text).toMatch(/smoothed scores not compared: the range leaves out \d+ prompts/);
    expect(text).not.toContain(KEY);
  }, 60_000);

  it("--json prints the summary, the top-5 miners of the meta-leaderboard scored on every prompt", async () => {
    const output = capture();
    const code = await runCli(
      scoreArgs(join(folder, "json.duckdb"), "--miners", "top:5", "--json"),
      output.io,
    );
    expect(code).toBe(0);
    const summary = JSON.parse(output.stdout()) as ScoreSummary;
    expect(summary.competitions.map((competition) => competition.competition)).toEqual([
      "crypto-1h",
    ]);
    const scored = summary.competitions[0].leaderboard.filter((row) => row.prompts > 0);
    expect(scored).toHaveLength(5);
    expect(summary.exitCode).toBe(0);
  }, 60_000);

  it("bad usage exits 2 and names the option", async () => {
    const miners = capture();
    expect(await runCli(scoreArgs(join(folder, "x.duckdb"), "--miners", "top:0"), miners.io)).toBe(
      2,
    );
    expect(miners.stderr()).toContain(
      '--miners must be top:N (N ≥ 1) or a comma-separated list of uids, got "top:0"',
    );
    const order = capture();
    expect(
      await runCli(
        ["score", "--from", NOW, "--to", "2026-11-21T09:00:00Z", "--db", join(folder, "y.duckdb")],
        order.io,
      ),
    ).toBe(2);
    expect(order.stderr()).toContain(`score: --to: expected a time at or after --from (${NOW})`);
    const competition = capture();
    expect(
      await runCli(
        ["score", "--from", NOW, "--to", NOW, "--competition", "crypto-2h"],
        competition.io,
      ),
    ).toBe(2);
    expect(competition.stderr()).toMatch(/--competition.*crypto-2h/);
    const paths = capture();
    expect(
      await runCli(
        [...scoreArgs(join(folder, "p.duckdb")), "--paths", '{"/validation/nope": "/x"}'],
        paths.io,
      ),
    ).toBe(2);
    expect(paths.stderr()).toMatch(/paths.*\/validation\/nope/);
    const file = capture();
    expect(
      await runCli([...scoreArgs(join(folder, "q.duckdb")), "--paths", "no-such.json"], file.io),
    ).toBe(2);
    expect(file.stderr()).toContain(
      '--paths: expected a JSON object or a readable JSON file, got "no-such.json" (ENOENT)',
    );
    const era = capture();
    expect(
      await runCli(
        [...scoreArgs(join(folder, "r.duckdb")), "--volatility-crps-from", "soon"],
        era.io,
      ),
    ).toBe(2);
    expect(era.stderr()).toContain(
      '--volatility-crps-from must be an ISO 8601 time such as 2026-09-01 or off, got "soon"',
    );
    const ownOnly = capture();
    expect(
      await runCli(
        [...scoreArgs(join(folder, "s.duckdb"), "--miners", "top:3"), "--own-only"],
        ownOnly.io,
      ),
    ).toBe(2);
    expect(ownOnly.stderr()).toContain("with --own-only none is");
  });

  it("--naming live with --paths reads the smoothed scores where the deployment serves them", async () => {
    const output = capture();
    const code = await runCli(
      [
        ...scoreArgs(join(folder, "live.duckdb"), "--json"),
        "--naming",
        "live",
        "--paths",
        '{"/validation/smoothed-scores": "/rewards/scores"}',
      ],
      output.io,
    );
    expect(code).toBe(0);
    const summary = JSON.parse(output.stdout()) as ScoreSummary;
    expect(summary.competitions[0].asOf).not.toBeNull();
    expect(summary.agreement.disagree).toBe(0);
  }, 60_000);
});
