/**
 * The baseline's files: names, JSON text (the examples of their doc comments), what is already in
 * the folder, and the check before a run.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  baselineFileName,
  baselineFileText,
  existingFileKind,
  prepareBaselineFolder,
} from "../../../src/jobs/baseline/file.ts";
import { UsageError } from "../../../src/service/usageError.ts";
import { simulateBaselinePaths } from "../../../src/paths/baselinePaths.ts";
import { parsePythonJson } from "../../../src/domain/pythonJson.ts";
import { validateResponseUnderRule } from "../../../src/domain/responseValidation.ts";

const folder = mkdtempSync(join(tmpdir(), "pathlab-baseline-file-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("baseline files", () => {
  it("names a file <ASSET>-<start, ISO 8601 basic>-<horizon>.json", () => {
    expect(baselineFileName("BTC", 1795251600, 3600)).toBe("BTC-20261121T090000Z-1h.json");
    expect(baselineFileName("XAU", 1795251600, 86400)).toBe("XAU-20261121T090000Z-24h.json");
  });

  it("writes the candidate layout after the generator field, prices rounded", async () => {
    const head = {
      model: "gbm",
      modelSeed: 1,
      stepVolatility: 0.0006,
      asset: "BTC",
      timeIncrement: 60,
      timeLength: 3600,
      startTimeUnix: 1795251600,
    } as const;
    const text = baselineFileText(head, Float64Array.of(100, 101.000000001), 1, 2);
    expect(JSON.parse(text)).toEqual({
      generator: "pathlab baseline",
      model: "gbm",
      model_seed: 1,
      step_volatility: 0.0006,
      asset: "BTC",
      time_increment: 60,
      time_length: 3600,
      start_time: 1795251600,
      miner_uid: -1,
      predictions: [[100, 101]],
    });
    expect(() => baselineFileText(head, Float64Array.of(100), 1, 2)).toThrow(RangeError);
  });

  it("a file's paths, sent as a miner's response, are CORRECT under both format rules", () => {
    for (const [model, startPrice, nPoints] of [
      ["gbm", 99391.626, 289],
      ["random-walk", 2.1274933, 289],
      ["gbm", 32.42133, 61],
      ["random-walk", 4123.7, 61],
    ] as const) {
      const timeIncrement = nPoints === 289 ? 300 : 60;
      const head = {
        model,
        modelSeed: 1,
        stepVolatility: 0.003,
        asset: "BTC",
        timeIncrement,
        timeLength: (nPoints - 1) * timeIncrement,
        startTimeUnix: 1795251600,
      } as const;
      const values = simulateBaselinePaths({
        model,
        startPrice,
        stepVolatility: 0.003,
        nPaths: 1000,
        nPoints,
        seed: 9,
      });
      // The validator's view of the JSON text: ints and floats kept apart, as Python reads them.
      const record = parsePythonJson(baselineFileText(head, values, 1000, nPoints)) as {
        start_time: unknown;
        time_increment: unknown;
        predictions: unknown[];
      };
      const response = [record.start_time, record.time_increment, ...record.predictions];
      const prompt = { startTimeUnix: 1795251600, timeIncrement, timeLength: head.timeLength };
      expect(validateResponseUnderRule(response, prompt, "legacy")).toBe("CORRECT");
      expect(validateResponseUnderRule(response, prompt, "v1.10.3")).toBe("CORRECT");
    }
  });

  it("tells nothing, its own file and anything else apart, and prepares a folder", async () => {
    const out = join(folder, "new", "deeper");
    expect(await prepareBaselineFolder(out, ["a.json", "b.json"], false)).toBe(0);
    expect(await existingFileKind(join(out, "a.json"))).toBe("none");
    writeFileSync(join(out, "a.json"), '{"generator":"pathlab baseline","model":"gbm"}');
    writeFileSync(join(out, "b.json"), "[]");
    expect(await existingFileKind(join(out, "a.json"))).toBe("baseline");
    expect(await existingFileKind(join(out, "b.json"))).toBe("other");
    expect(await existingFileKind(out)).toBe("other");
    expect(await prepareBaselineFolder(out, ["a.json"], false)).toBe(1);
    await expect(prepareBaselineFolder(out, ["a.json", "b.json"], false)).rejects.toThrow(
      UsageError,
    );
    expect(await prepareBaselineFolder(out, ["a.json", "b.json"], true)).toBe(2);
    const file = join(folder, "a-file");
    writeFileSync(file, "");
    await expect(prepareBaselineFolder(join(file, "sub"), [], false)).rejects.toThrow(
      /^baseline: --out: cannot create the folder/,
    );
  });
});
