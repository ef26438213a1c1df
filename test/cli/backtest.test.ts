/**
 * `pathlab backtest` as a real child process against one small-world sandbox in the test's process
 * (a fixed clock at which every prompt of the range is scored), with real model processes:
 * the Python example exits 0 with its table and the documented `--json` keys, and its answers
 * score as `score --candidate` scores the same folder, prompt by prompt; a probe sees no price at
 * or after any start; a model that crashes on each copy's second prompt costs those prompts only;
 * one that keeps failing stops the run after its restarts, with the answers kept; one that does not
 * answer in time is killed, and so is one still thinking at the whole run's --deadline.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";
import { queryLines } from "./queryLines.ts";
import { smallSandbox } from "./smallSandbox.ts";

const NOW = "2026-11-21T10:49:00Z";
const models = fileURLToPath(new URL("./models/", import.meta.url));
const gbm = fileURLToPath(new URL("../../examples/models/gbm.py", import.meta.url));

let folder: string;
let remove: () => void;
beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
});
afterAll(() => remove?.());

/** `pathlab …args` against one small-world sandbox at NOW in this process. */
const { pathlab } = smallSandbox(NOW, "sk-test-backtest-4f1c9e27");

/** The range of test/cli/baseline: BTC and ETH 1h prompts, all scored at NOW. */
function rangeArgs(name: string, model: string, ...extra: string[]): string[] {
  return [
    ...["--from", "2026-11-21T09:20:00Z", "--to", "2026-11-21T09:45:00Z"],
    ...["--competition", "crypto-1h", "--assets", "BTC,ETH"],
    ...["--model", model, "--out", join(folder, name), "--db", join(folder, `${name}.duckdb`)],
    ...extra,
  ];
}

const candidateCrps = (database: string) =>
  queryLines(
    ["--db", database],
    "select asset, start_time, crps from miner_scores where miner_uid = -1 order by all",
  );

describe("pathlab backtest", () => {
  it("runs the Python example: exit 0, the table, the --json keys, and score --candidate's CRPS per prompt", async () => {
    const result = await pathlab(["backtest", ...rangeArgs("gbm", `python3 ${gbm}`)]);
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(join(folder, "gbm"));
    expect(files.length).toBeGreaterThan(1);
    expect(result.stdout).toMatch(/pathlab backtest: \d+ prompts asked, 0 answers kept/);
    expect(result.stdout).toMatch(/│ crypto-1h +│ \d+ +│ \d+ +│ 0 +│ [\d.]+ +│ \d+ of \d+ +│/);

    // a rerun asks nothing: the answers are kept
    const json = await pathlab([
      "backtest",
      ...rangeArgs("gbm", `python3 ${gbm}`, "--json", "--pool-usd-per-day", "10000"),
    ]);
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({ asked: 0, kept: files.length, failures: [] });
    const [row] = summary.competitions;
    expect(Object.keys(row).sort()).toEqual(
      [
        "competition",
        "estimated_usd_per_day",
        "invalid",
        "mean_crps",
        "of",
        "prompts",
        "rank",
        "reward_weight",
        "smoothed_score",
        "updates",
        "valid",
      ].sort(),
    );
    // every validator update of the range, the last one the table's
    expect(row.updates.length).toBeGreaterThan(0);
    expect(row.updates.at(-1)).toMatchObject({ rank: row.rank, reward_weight: row.reward_weight });
    for (const update of row.updates) {
      expect(update.estimated_usd_per_day).toBeCloseTo(update.reward_weight * 10000 * 0.6935, 12);
    }
    expect(row.valid).toBe(files.length);
    expect(row.estimated_usd_per_day).toBeCloseTo(row.reward_weight * 10000 * 0.6935, 12);

    // the same folder through score --candidate, into another database
    const scored = join(folder, "score.duckdb");
    const score = await pathlab([
      "score",
      ...["--candidate", join(folder, "gbm"), "--competition", "crypto-1h", "--assets", "BTC,ETH"],
      ...["--from", "2026-11-21T09:20:00Z", "--to", "2026-11-21T09:45:00Z", "--db", scored],
    ]);
    expect(score.code, score.stderr).toBe(0);
    const fromBacktest = await candidateCrps(join(folder, "gbm.duckdb"));
    expect(fromBacktest).toHaveLength(files.length);
    expect(await candidateCrps(scored)).toEqual(fromBacktest);
  }, 120_000);

  it("shows a probe no price at or after a prompt's start, a day of history up to one step before it", async () => {
    const log = join(folder, "probe.log");
    const result = await pathlab(
      ["backtest", ...rangeArgs("probe", `node ${join(models, "probe.mjs")}`)],
      { PROBE_LOG: log },
    );
    expect(result.code, result.stderr).toBe(0);
    const seen = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(seen.length).toBeGreaterThan(1);
    for (const prompt of seen) {
      expect(prompt.latest).toBeLessThan(prompt.start);
      expect(prompt.latest).toBe(prompt.start - prompt.increment);
      // a day on the prompt's grid, less the minutes the sandbox has no close for
      expect(prompt.count).toBeLessThanOrEqual(86400 / prompt.increment);
      expect(prompt.count).toBeGreaterThan(0.95 * (86400 / prompt.increment));
    }
  }, 120_000);

  it("--lookback sets the hours of history; the GARCH example's answers are all valid", async () => {
    const log = join(folder, "probe-2h.log");
    const short = await pathlab(
      [
        "backtest",
        ...rangeArgs("probe-2h", `node ${join(models, "probe.mjs")}`, "--lookback", "2"),
      ],
      { PROBE_LOG: log },
    );
    expect(short.code, short.stderr).toBe(0);
    for (const line of readFileSync(log, "utf8").trim().split("\n")) {
      const prompt = JSON.parse(line);
      expect(prompt.latest).toBe(prompt.start - prompt.increment);
      expect(prompt.count).toBeLessThanOrEqual(7200 / prompt.increment);
      expect(prompt.count).toBeGreaterThan(0.9 * (7200 / prompt.increment));
    }
    const garch = fileURLToPath(new URL("../../examples/models/garch.mjs", import.meta.url));
    const result = await pathlab(["backtest", ...rangeArgs("garch", `node ${garch}`, "--json")]);
    expect(result.code, result.stderr).toBe(0);
    const [row] = JSON.parse(result.stdout).competitions;
    expect(row.invalid).toBe(0);
    expect(row.valid).toBeGreaterThan(1);
  }, 120_000);

  it("a model that crashes on each copy's second prompt costs those prompts only; the run completes", async () => {
    const result = await pathlab([
      "backtest",
      ...rangeArgs(
        "crash",
        `node ${join(models, "crashSecond.mjs")}`,
        "--max-restarts",
        "50",
        "--json",
      ),
    ]);
    expect(result.code, result.stderr).toBe(1);
    const summary = JSON.parse(result.stdout);
    const prompts = summary.asked as number;
    // copies answer prompts 1, 3, 5, … and crash on 2, 4, …
    expect(summary.failures).toHaveLength(Math.floor(prompts / 2));
    for (const failure of summary.failures) {
      expect(failure.reason).toBe("the model exited (code 3) before answering");
    }
    const [row] = summary.competitions;
    expect(row.invalid).toBe(Math.floor(prompts / 2));
    expect(row.valid).toBe(prompts - Math.floor(prompts / 2));
  }, 120_000);

  it("stops after --max-restarts when the model keeps failing, and keeps what it answered", async () => {
    const result = await pathlab([
      "backtest",
      ...rangeArgs("broken", "node -e 'process.exit(5)'", "--max-restarts", "2"),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `pathlab: backtest: the model was restarted 2 times and failed again (the model exited (code 5) before answering); the answers until then are kept in ${join(folder, "broken")}`,
    );
    expect(result.stdout).toBe("");
  }, 60_000);

  it("a model that does not answer within --model-timeout is killed, and counts as a failure", async () => {
    const result = await pathlab([
      "backtest",
      ...rangeArgs("silent", "node -e 'setInterval(() => {}, 1000)'", "--model-timeout", "0.3"),
      "--max-restarts",
      "0",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "backtest: the model was restarted 0 times and failed again (the model did not answer within 0.3 s)",
    );
  }, 60_000);

  it("past --deadline the model is stopped and the run exits 1, with the answers kept", async () => {
    const pidFile = join(folder, "deadline.pid");
    const result = await pathlab([
      "backtest",
      ...rangeArgs(
        "deadline",
        `node -e 'require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)' ${pidFile}`,
        "--model-timeout",
        "600",
        "--deadline",
        "6",
      ),
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `pathlab: backtest: stopped at its deadline of 6 s (--deadline); the answers until then are kept in ${join(folder, "deadline")}`,
    );
    const pid = Number(readFileSync(pidFile, "utf8"));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // SIGKILL was sent before pathlab exited; the process is gone once the kernel has reaped it
    for (let wait = 0; wait < 50 && alive(); wait++)
      await new Promise((done) => setTimeout(done, 100));
    expect(alive()).toBe(false);
  }, 90_000);

  it("bad usage exits 2 with one line", async () => {
    const empty = await pathlab(["backtest", ...rangeArgs("empty", " ")]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(
      'backtest: --model: expected a command such as "python3 model.py"',
    );
  }, 30_000);
});
