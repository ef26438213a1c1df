/**
 * A backtest through the queue, for real: a `redis-server` on a free loopback port, the prompts of
 * test/cli/backtest's range enqueued by `pathlab enqueue backtest`, a `pathlab worker` process
 * that asks the Python example for each and scores it into a lake. The answers must be the files
 * `pathlab backtest` writes for the same model and range, byte for byte; the candidate's CRPS per
 * prompt the same; and `lake reduce` must place it as `backtest` does. A model that never answers
 * costs each of its prompts the validator's penalty, and the units are stored all the same.
 *
 * Needs Debian's redis-server (`.ci/run` installs it); see `queueHelpers.ts`.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { expect, it } from "vitest";
import { queryLines } from "../../cli/queryLines.ts";
import { runPathlab } from "../../cli/runPathlab.ts";
import { describeWithRedis, startWorker } from "./queueHelpers.ts";

const gbm = fileURLToPath(new URL("../../../examples/models/gbm.py", import.meta.url));
const NOW = "2026-11-21T10:49:00Z";
const RANGE = ["--from", "2026-11-21T09:20:00Z", "--to", "2026-11-21T09:45:00Z"];
const SANDBOX = ["--now", NOW, "--sandbox-miners", "9"];
const PROMPTS = [...RANGE, "--competition", "crypto-1h", "--assets", "BTC,ETH", ...SANDBOX];

const candidateCrps = (source: string[]) =>
  queryLines(
    source,
    "select asset, start_time, crps from miner_scores where miner_uid = -1 order by all",
  );

describeWithRedis("a backtest on a real Redis", ({ directory, url: redisUrl }) => {
  it("a worker answers and scores each prompt as pathlab backtest does", async () => {
    const url = redisUrl();
    const answers = join(directory, "answers");
    const lake = join(directory, "lake");
    const enqueue = ["enqueue", "backtest", "--redis", url, "--model", `python3 ${gbm}`];
    const enqueued = await runPathlab([...enqueue, "--out", answers, ...PROMPTS]);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    expect(enqueued.stdout).toMatch(/^enqueued: 4 of 4 units on queue pathlab \(0 already there\)/);
    const worker = startWorker(url, lake);
    expect(await worker.done).toBe(0);

    // the same model and range in one process
    const local = join(directory, "local");
    const database = join(directory, "local.duckdb");
    const backtest = await runPathlab([
      "backtest",
      ...["--model", `python3 ${gbm}`, "--out", local, "--db", database, "--json"],
      ...PROMPTS,
    ]);
    expect(backtest.code, backtest.stderr).toBe(0);
    const files = readdirSync(local).sort();
    expect(readdirSync(answers).sort()).toEqual(files);
    for (const file of files) {
      expect(readFileSync(join(answers, file)), file).toEqual(readFileSync(join(local, file)));
    }
    const fromLake = await candidateCrps(["--lake", lake]);
    expect(fromLake).toHaveLength(files.length);
    expect(fromLake).toEqual(await candidateCrps(["--db", database]));

    // the reduce step places the candidate as backtest placed it
    const reduced = await runPathlab(["lake", "reduce", "--lake", lake, ...RANGE, ...SANDBOX]);
    expect(reduced.code, reduced.stderr).toBe(0);
    const [row] = JSON.parse(backtest.stdout).competitions;
    expect(reduced.stdout).toContain(
      `candidate: smoothed ${row.smoothed_score.toFixed(4)}, rank ${row.rank} of ${row.of}, ` +
        `reward weight ${row.reward_weight.toPrecision(4)}`,
    );
  }, 120_000);

  it("a model that never answers costs each prompt the penalty; the units are stored", async () => {
    const url = redisUrl();
    const answers = join(directory, "silent");
    const lake = join(directory, "silent-lake");
    const model = "exit 3";
    const args = ["--model", model, "--out", answers, "--queue", "silent", ...PROMPTS];
    const enqueued = await runPathlab(["enqueue", "backtest", "--redis", url, ...args]);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    // enqueued again: nothing added, the units' ids are the prompts under the answers' folder
    const again = await runPathlab(["enqueue", "backtest", "--redis", url, ...args]);
    expect(again.stdout).toMatch(/^enqueued: 0 of 4 units on queue silent \(4 already there\)/);
    const worker = startWorker(url, lake, ["--until-idle", "--queue", "silent"]);
    let log = "";
    worker.child.stderr!.on("data", (data: Buffer) => (log += String(data)));
    expect(await worker.done).toBe(0);
    const penalized = log.match(
      /stored \(\d+ rows; penalized: the model exited \(code 3\) before answering\)/g,
    );
    expect(penalized, log).toHaveLength(4);
    const queue = new Queue("silent", { connection: { url } });
    try {
      expect(await queue.getJobCounts("completed", "failed")).toEqual({ completed: 4, failed: 0 });
    } finally {
      await queue.close();
    }
    // every prompt scored −1 for the candidate, as the validator scores a miner without an answer
    const crps = await queryLines(
      ["--lake", lake],
      "select count(*) filter (where crps = -1) as penalized, count(*) as prompts from miner_scores where miner_uid = -1",
    );
    expect(crps.map((line) => JSON.parse(line))).toEqual([{ penalized: 4, prompts: 4 }]);
  }, 120_000);
});
