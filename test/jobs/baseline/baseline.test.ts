/**
 * `runBaseline` against the sandbox over real HTTP: valid candidate files (paths, points, path 0 =
 * the realized start price, 8 significant digits), σ = the realized 1-minute σ of the 24 h before
 * (recomputed with simple-statistics), the paths' σ within a Monte-Carlo tolerance, the same bytes
 * for a seed, and files pathlab did not write kept unless forced.
 */

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sampleStandardDeviation } from "simple-statistics";
import { createWorld } from "../../../src/sandbox/world/world.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaseline } from "../../../src/jobs/baseline/baseline.ts";
import type { BaselineOptions } from "../../../src/jobs/baseline/options.ts";
import type { BaselineSummary } from "../../../src/jobs/baseline/summary.ts";
import {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from "../../../src/service/embeddedSandbox.ts";
import { loadCandidatePathSet, readCandidateFolder } from "../../../src/jobs/score/candidate.ts";
import { JobInterruptedError } from "../../../src/jobs/harness/interruptedError.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { baselineSeed, simulateBaselinePaths } from "../../../src/paths/baselinePaths.ts";
import { parseIsoTimeMs } from "../../../src/domain/time.ts";
import { temporaryFolder } from "../../store/helpers.ts";
import { sandboxGetJson } from "../sandboxJson.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

const NOW = "2026-11-21T10:49:00Z";
/** The embedded sandbox's world (same seed and clock), read in this process. */
const world = createWorld({ seed: 42, nowUnix: Date.parse(NOW) / 1000 });
const KEY = "sk-test-baseline-3f9a1c27";

let sandbox: EmbeddedSandbox;
let folder: string;
let remove: () => void;
let hourly: BaselineOptions;
let hourlySummary: BaselineSummary;
let daily: BaselineOptions;
let dailySummary: BaselineSummary;

interface BaselineRecord {
  generator: string;
  model: string;
  step_volatility: number;
  asset: string;
  time_increment: number;
  time_length: number;
  start_time: number;
  predictions: number[][];
}

/** GET with the key, as JSON (the test's own plain client). */
const getJson = sandboxGetJson(() => sandbox.url, KEY);

function records(out: string): BaselineRecord[] {
  return readdirSync(out)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(out, name), "utf8")) as BaselineRecord);
}

/**
 * The 1-minute closes of [start − 24 h, start] (null kept), read from the sandbox's own markets:
 * the realized-path operation answers only at prompt starts.
 */
function closesBefore(asset: string, startUnix: number): (number | null)[] {
  const closes = world.minuteCloses(asset, startUnix - 86400, startUnix);
  return Array.from(closes, (close) => (Number.isNaN(close) ? null : close));
}

beforeAll(async () => {
  sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
  ({ folder, remove } = temporaryFolder());
  const service = { baseUrl: sandbox.url, apiKey: KEY };
  hourly = {
    ...service,
    from: "2026-11-21T09:00:00Z",
    to: "2026-11-21T09:45:00Z",
    competition: "crypto-1h",
    assets: ["BTC", "ETH"],
    model: "gbm",
    modelSeed: 5,
    out: join(folder, "hourly"),
  };
  hourlySummary = await runBaseline(hourly);
  daily = {
    ...service,
    from: "2026-11-21T09:00:00Z",
    to: "2026-11-21T10:00:00Z",
    competition: "crypto-24h",
    assets: ["BTC"],
    model: "random-walk",
    out: join(folder, "daily"),
  };
  dailySummary = await runBaseline(daily);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  remove?.();
});

describe("runBaseline", () => {
  it("writes one file per prompt of the service, named <ASSET>-…, that the validator's checks accept", async () => {
    for (const [options, summary, nPoints, increment] of [
      [hourly, hourlySummary, 61, 60],
      [daily, dailySummary, 289, 300],
    ] as const) {
      let prompts = 0;
      const length = (nPoints - 1) * increment;
      const range = { from: options.from, to: options.to, time_increment: increment };
      for (const asset of options.assets ?? []) {
        const query = { ...range, asset, time_length: length };
        prompts += (await getJson<{ start_times: string[] }>("/validation/prompts", query))
          .start_times.length;
      }
      expect(prompts).toBeGreaterThan(1);
      expect(summary.prompts).toBe(prompts);
      expect(summary.exitCode).toBe(0);
      const files = await readCandidateFolder(options.out);
      // A service's clock is the machine's (test/jobs/baselineClock.test.ts: the sandbox's).
      const pending = files.filter((file) => file.startTimeUnix! + length + 90 > Date.now() / 1000);
      expect(summary.notScoredYet).toBe(pending.length);
      expect(files).toHaveLength(prompts);
      for (const file of files) {
        expect(file.reason).toBeUndefined();
        const pathSet = await loadCandidatePathSet(file);
        expect(pathSet?.nPaths).toBe(1000);
        expect(pathSet?.nPoints).toBe(nPoints);
        expect(file.file.slice(0, file.file.indexOf("-"))).toBe(file.asset);
      }
    }
  });

  it("path 0 of every path is the realized price at the start: the last close at or before it", async () => {
    let missingAtStart = 0;
    for (const record of [...records(hourly.out), ...records(daily.out)]) {
      const hourBefore = closesBefore(record.asset, record.start_time).slice(-61);
      const observed = hourBefore.filter((price) => price !== null);
      if (hourBefore[60] === null) missingAtStart++;
      for (const path of record.predictions) expect(path[0]).toBe(observed[observed.length - 1]);
    }
    // The sandbox's markets miss a few minutes a day; one of them is the start of a prompt here.
    expect(missingAtStart).toBeGreaterThan(0);
  });

  it("prices are the model's simulation rounded to 8 significant digits", () => {
    for (const [options, nPoints] of [
      [hourly, 61],
      [daily, 289],
    ] as const) {
      for (const record of records(options.out)) {
        const values = simulateBaselinePaths({
          model: options.model,
          startPrice: record.predictions[0][0],
          stepVolatility: record.step_volatility,
          nPaths: 1000,
          nPoints,
          seed: baselineSeed(options.modelSeed ?? 1, record.asset, record.start_time),
        });
        let differing = 0;
        record.predictions.forEach((path, index) => {
          for (let point = 0; point < nPoints; point++) {
            // toPrecision rounds the exact binary value, as Python's round does (no ties here).
            if (path[point] !== Number(values[index * nPoints + point].toPrecision(8))) differing++;
          }
        });
        expect(differing).toBe(0);
      }
    }
  });

  it("σ is the sample deviation of the realized 1-minute log returns over the 24 h before, × √(increment/60)", async () => {
    for (const [summary, increment] of [
      [hourlySummary, 60],
      [dailySummary, 300],
    ] as const) {
      for (const written of summary.files) {
        const closes = closesBefore(written.asset, parseIsoTimeMs(written.startTime) / 1000);
        expect(closes).toHaveLength(1441);
        const returns: number[] = [];
        for (let index = 1; index < closes.length; index++) {
          const [previous, close] = [closes[index - 1], closes[index]];
          if (previous !== null && close !== null) returns.push(Math.log(close / previous));
        }
        const expected = sampleStandardDeviation(returns) * Math.sqrt(increment / 60);
        expect(written.stepVolatility).toBeCloseTo(expected, 14);
        expect(written.annualizedVolatilityPct).toBeCloseTo(
          sampleStandardDeviation(returns) * Math.sqrt(525600) * 100,
          9,
        );
      }
    }
  }, 60_000);

  it("the paths' steps have the model's σ within 5 Monte-Carlo standard errors", () => {
    // n iid normal steps: the sample deviation s has standard error ≈ σ/√(2(n − 1)), so the bound
    // is 5/√(2(n − 1)) relative: 1.44 % for 1,000 × 60 steps, 0.66 % for 1,000 × 288. Rounding to
    // 8 digits moves a step by ≤ 1e-7 relative, ~10⁻⁴ of σ: negligible.
    const deviation = (values: number[]) => {
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
      return { mean, deviation: Math.sqrt(squares / (values.length - 1)) };
    };
    for (const record of records(hourly.out)) {
      const logReturns = record.predictions.flatMap((path) =>
        path.slice(1).map((price, index) => Math.log(price / path[index])),
      );
      const n = logReturns.length;
      const sigma = record.step_volatility;
      const sample = deviation(logReturns);
      expect(Math.abs(sample.deviation / sigma - 1)).toBeLessThan(5 / Math.sqrt(2 * (n - 1)));
      // zero drift: the mean log step is −σ²/2, within 5 standard errors σ/√n
      expect(Math.abs(sample.mean + (sigma * sigma) / 2)).toBeLessThan((5 * sigma) / Math.sqrt(n));
    }
    for (const record of records(daily.out)) {
      const start = record.predictions[0][0];
      const steps = record.predictions.flatMap((path) =>
        path.slice(1).map((price, index) => price - path[index]),
      );
      const n = steps.length;
      const sample = deviation(steps);
      expect(Math.abs(sample.deviation / (start * record.step_volatility) - 1)).toBeLessThan(
        5 / Math.sqrt(2 * (n - 1)),
      );
    }
  });

  it("gives the same bytes for the same seed and other paths for another seed", async () => {
    const again = join(folder, "again");
    await runBaseline({ ...hourly, out: again });
    const other = join(folder, "other");
    await runBaseline({ ...hourly, out: other, modelSeed: 6 });
    const names = readdirSync(hourly.out).sort();
    expect(readdirSync(again).sort()).toEqual(names);
    for (const name of names) {
      const bytes = readFileSync(join(hourly.out, name));
      expect(readFileSync(join(again, name)).equals(bytes)).toBe(true);
      expect(readFileSync(join(other, name)).equals(bytes)).toBe(false);
    }
  });

  it("replaces its own files, and another file only with force", async () => {
    const rerun = await runBaseline(hourly);
    expect(rerun.replaced).toBe(rerun.files.length);
    const mixed = join(folder, "mixed");
    const first = await runBaseline({ ...hourly, out: mixed });
    const name = first.files[0].file;
    writeFileSync(name, '{"mine": true}');
    await expect(runBaseline({ ...hourly, out: mixed })).rejects.toThrow(UsageError);
    await expect(runBaseline({ ...hourly, out: mixed })).rejects.toThrow(
      `baseline: ${name} exists and was not written by pathlab baseline; pass --force`,
    );
    expect(readFileSync(name, "utf8")).toBe('{"mine": true}');
    const forced = await runBaseline({ ...hourly, out: mixed, force: true });
    expect(forced.replaced).toBe(first.files.length);
    expect(readFileSync(name, "utf8")).toMatch(/^\{"generator":"pathlab baseline"/);
  });

  it("an aborted signal ends the run with a JobInterruptedError", async () => {
    const signal = AbortSignal.abort(new Error("interrupted (SIGINT)"));
    const run = runBaseline({ ...hourly, out: join(folder, "aborted"), signal });
    await expect(run).rejects.toThrow(JobInterruptedError);
  });

  it("rejects options that cannot work, naming the option", async () => {
    await expect(runBaseline({ ...hourly, to: "2026-11-21T08:00:00Z" })).rejects.toThrow(
      "baseline: --to: expected a time at or after --from (2026-11-21T09:00:00Z)",
    );
    await expect(runBaseline({ ...hourly, assets: ["XAU"] })).rejects.toThrow(
      'baseline: --assets: expected assets of crypto-1h (BTC, ETH, SOL, XRP, HYPE), got "XAU"',
    );
    await expect(
      runBaseline({ ...hourly, model: "garch" as BaselineOptions["model"] }),
    ).rejects.toThrow('baseline: --model: expected one of gbm, random-walk, got "garch"');
    await expect(runBaseline({ ...hourly, now: NOW })).rejects.toThrow(
      "baseline: --now sets the embedded sandbox; it cannot be used with a service",
    );
  });
});
