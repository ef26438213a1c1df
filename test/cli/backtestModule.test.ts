/**
 * `pathlab backtest --model ./model.mjs`: a model as an ES module on worker threads, with the
 * built command as a child process against one small-world sandbox in the test's process (the
 * range of test/cli/backtest). The module's Float64Array answers are the files a command with the
 * same paths writes, and score alike; a call that throws or never returns costs its prompt and the run
 * completes; a module without `simulate` is refused before any prompt; a probe sees no price at or
 * after a prompt's start.
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

let folder: string;
let remove: () => void;
beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
});
afterAll(() => remove?.());

/** `pathlab …args` against one small-world sandbox at NOW in this process. */
const { pathlab } = smallSandbox(NOW, "sk-test-backtest-module-0b7d52e8");

/** BTC and ETH 1h prompts of a quarter hour, all scored at NOW. */
function rangeArgs(name: string, model: string, ...extra: string[]): string[] {
  return [
    "backtest",
    ...["--from", "2026-11-21T09:30:00Z", "--to", "2026-11-21T09:45:00Z"],
    ...["--competition", "crypto-1h", "--assets", "BTC,ETH"],
    ...["--model", model, "--out", join(folder, name), "--db", join(folder, `${name}.duckdb`)],
    "--json",
    ...extra,
  ];
}

const candidateCrps = (name: string) =>
  queryLines(
    ["--db", join(folder, `${name}.duckdb`)],
    "select asset, start_time, crps from miner_scores where miner_uid = -1 order by all",
  );

describe("pathlab backtest with a model module", () => {
  it("keeps the files a command with the same paths keeps, and scores them alike", async () => {
    const [module, command] = await Promise.all([
      pathlab(rangeArgs("module", join(models, "walk.mjs"), "--concurrency", "2")),
      pathlab(rangeArgs("command", `node ${join(models, "walkCommand.mjs")}`)),
    ]);
    expect(module.code, module.stderr).toBe(0);
    expect(command.code, command.stderr).toBe(0);
    const files = readdirSync(join(folder, "module")).sort();
    expect(files.length).toBeGreaterThan(1);
    expect(readdirSync(join(folder, "command")).sort()).toEqual(files);
    for (const file of files) {
      const kept = readFileSync(join(folder, "module", file), "utf8");
      expect(kept, file).toBe(readFileSync(join(folder, "command", file), "utf8"));
    }
    const [row] = JSON.parse(module.stdout).competitions;
    expect(row).toMatchObject({ valid: files.length, invalid: 0 });
    const crps = await candidateCrps("module");
    expect(crps).toHaveLength(files.length);
    expect(await candidateCrps("command")).toEqual(crps);
  }, 120_000);

  it("--lake scores the kept answers into a lake, as into the database, asking nothing again", async () => {
    const lake = join(folder, "module-lake");
    const args = rangeArgs("module", join(models, "walk.mjs"));
    // the same answers folder as the first test: every answer is kept
    const db = args.indexOf("--db");
    args.splice(db, 2, "--lake", lake);
    const result = await pathlab(args);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.asked).toBe(0);
    expect(summary.kept).toBeGreaterThan(1);
    const fromLake = await queryLines(
      ["--lake", lake],
      "select asset, start_time, crps from miner_scores where miner_uid = -1 order by all",
    );
    expect(fromLake).toHaveLength(summary.kept);
    expect(fromLake).toEqual(await candidateCrps("module"));
  }, 120_000);

  it("a call that throws or never returns costs its prompt; the run completes", async () => {
    const [throwing, busy] = await Promise.all([
      pathlab(rangeArgs("throw", join(models, "throwSecond.mjs"), "--max-restarts", "50")),
      pathlab(
        rangeArgs(
          "busy",
          join(models, "busy.mjs"),
          "--model-timeout",
          "0.5",
          "--max-restarts",
          "50",
        ),
      ),
    ]);
    expect(throwing.code, throwing.stderr).toBe(1);
    const thrown = JSON.parse(throwing.stdout);
    // one thread: calls 1, 3, 5, … answer and 2, 4, … throw
    expect(thrown.failures).toHaveLength(Math.floor(thrown.asked / 2));
    for (const [index, failure] of thrown.failures.entries()) {
      expect(failure.reason).toBe(
        `the model's simulate failed: no answer for call ${2 * index + 2}`,
      );
    }
    expect(thrown.competitions[0]).toMatchObject({
      valid: thrown.asked - Math.floor(thrown.asked / 2),
      invalid: Math.floor(thrown.asked / 2),
    });

    expect(busy.code, busy.stderr).toBe(1);
    const spun = JSON.parse(busy.stdout);
    expect(spun.asked).toBeGreaterThan(1);
    expect(spun.failures.map((failure: { reason: string }) => failure.reason)).toEqual(
      Array.from({ length: spun.asked }, () => "the model did not answer within 0.5 s"),
    );
    expect(spun.competitions[0]).toMatchObject({ valid: 0, invalid: spun.asked });
  }, 120_000);

  it("a module without simulate exits 2 before any prompt is asked", async () => {
    const path = join(models, "noSimulate.mjs");
    const result = await pathlab(rangeArgs("none", path));
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `pathlab: backtest: --model ${path}: expected a module that exports a function simulate(prompt), got one that exports model (a model that reads prompts on stdin runs as a command: --model "node ${path}")`,
    );
    expect(() => readdirSync(join(folder, "none"))).toThrow(/ENOENT/);
  }, 60_000);

  it("shows a probe module no price at or after a prompt's start", async () => {
    const log = join(folder, "probe.log");
    const result = await pathlab(rangeArgs("probe", join(models, "probeModule.mjs")), {
      PROBE_LOG: log,
    });
    expect(result.code, result.stderr).toBe(0);
    const seen = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(seen.length).toBe(JSON.parse(result.stdout).asked);
    for (const prompt of seen) {
      expect(prompt.latest).toBeLessThan(prompt.start);
      expect(prompt.count).toBeGreaterThan(0);
    }
  }, 60_000);
});
