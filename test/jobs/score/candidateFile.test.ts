/**
 * Candidate files in both layouts, validated with the validator's rules under the format rule of
 * the prompt's start (legacy before the v1.10.3 release on 2026-07-16, v1.10.3 from then on).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CANDIDATE_MINER_UID,
  candidateFileFromText,
  loadCandidatePathSet,
  readCandidateFile,
  readCandidateFolder,
  takeCandidatePathSet,
} from "../../../src/jobs/score/candidate.ts";
import { temporaryFolder } from "../../store/helpers.ts";

const AFTER = Date.UTC(2026, 10, 20, 10, 0) / 1000; // v1.10.3 rules
const BEFORE = Date.UTC(2026, 5, 20, 10, 0) / 1000; // legacy rules
const { folder, remove } = temporaryFolder();
afterAll(remove);

/** 1000 paths of 61 prices (a 1h prompt), each written as `price` (a JSON lexeme). */
function pathsText(price = "67676.12", paths = 1000, points = 61): string {
  const path = `[${Array(points).fill(price).join(",")}]`;
  return Array(paths).fill(path).join(",");
}

function response(
  start: number,
  options: { price?: string; paths?: number; increment?: number } = {},
): string {
  return `[${start},${options.increment ?? 60},${pathsText(options.price, options.paths)}]`;
}

function record(start: number, price = "67676.12"): string {
  return `{"asset":"ETH","time_increment":60,"time_length":3600,"start_time":${start},"predictions":[${pathsText(price)}]}`;
}

describe("candidate files", () => {
  it("a miner's response named ASSET-….json answers that asset's prompt; its length follows from the increment", () => {
    const file = candidateFileFromText("BTC-2026-11-20T10-00.json", response(AFTER));
    expect(file).toMatchObject({
      file: "BTC-2026-11-20T10-00.json",
      layout: "response",
      asset: "BTC",
      timeIncrement: 60,
      timeLength: 3600,
      startTimeUnix: AFTER,
      validation: "CORRECT",
      reason: undefined,
    });
    expect(file.pathSet).toMatchObject({ asset: "BTC", nPaths: 1000, nPoints: 61 });
    expect(file.pathSet?.minerUid).toBe(CANDIDATE_MINER_UID);
    const daily = candidateFileFromText(
      "SOL.json",
      `[${AFTER},300,${pathsText("140.5", 1000, 289)}]`,
    );
    expect(daily).toMatchObject({ asset: "SOL", timeLength: 86400, validation: "CORRECT" });
  });

  it("a prediction-set record with its prompt's fields is the other layout", () => {
    const file = candidateFileFromText("any-name.json", record(AFTER));
    expect(file).toMatchObject({ layout: "record", asset: "ETH", validation: "CORRECT" });
    expect(file.pathSet?.values[0]).toBe(67676.12);
  });

  it("the validator's reasons, first failure wins, for both layouts", () => {
    const cases: [string, string, string][] = [
      [
        "BTC-a.json",
        response(AFTER, { paths: 999 }),
        "Number of paths is incorrect: expected 1000, got 999",
      ],
      [
        "BTC-a.json",
        response(AFTER, { price: "67676.1234" }),
        "Price format is incorrect: too many digits 67676.1234",
      ],
      [
        "BTC-a.json",
        response(AFTER, { price: "1e39" }),
        "Price format is incorrect: exceeds float32 range 1e+39",
      ],
      [
        "BTC-a.json",
        response(AFTER, { price: "true" }),
        "Price format is incorrect: expected int or float, got <class 'bool'>",
      ],
      ["BTC-a.json", "[]", "Response is empty"],
      [
        "BTC-a.json",
        `[${AFTER}.5, 60]`,
        "Start time format is incorrect: expected int, got <class 'float'>",
      ],
      ["BTC-a.json", `[${AFTER}]`, "error during validation"],
      [
        "x.json",
        record(AFTER, "67676.123456"),
        "Price format is incorrect: too many digits 67676.123456",
      ],
    ];
    for (const [name, text, reason] of cases) {
      const file = candidateFileFromText(name, text);
      expect([file.validation, file.reason, file.pathSet], text.slice(0, 40)).toEqual([
        reason,
        reason,
        undefined,
      ]);
    }
  });

  it("the format rule is the one in force at the prompt's start, unless atUnix says otherwise", () => {
    const text = (start: number) => response(start, { price: "12345678.0" });
    expect(candidateFileFromText("BTC-a.json", text(AFTER)).validation).toBe("CORRECT");
    expect(candidateFileFromText("BTC-a.json", text(BEFORE)).validation).toBe(
      "Price format is incorrect: too many digits 12345678.0",
    );
    expect(candidateFileFromText("BTC-a.json", text(BEFORE), { atUnix: AFTER }).validation).toBe(
      "CORRECT",
    );
    expect(
      candidateFileFromText("BTC-a.json", response(BEFORE, { price: "12345678" })).validation,
    ).toBe("CORRECT");
  });

  it("a response whose prompt cannot be named says why", () => {
    expect(candidateFileFromText("BTC-a.json", response(AFTER, { increment: 120 })).reason).toBe(
      "time increment 120: a response answers a 1h (60) or 24h (300) prompt",
    );
    expect(candidateFileFromText("BTC-a.json", response(AFTER * 1000)).reason).toBe(
      `start time: expected Unix seconds, got ${AFTER * 1000}`,
    );
    expect(candidateFileFromText("BTC-a.json", "{").reason).toMatch(/^not JSON: /);
    expect(candidateFileFromText("BTC-a.json", "12").reason).toMatch(/^expected a JSON object/);
  });

  it("a negative price passes the validator and is scored, as on the network", () => {
    const text = response(AFTER).replace("[67676.12,", "[-67676.12,");
    const file = candidateFileFromText("BTC-a.json", text);
    expect([file.validation, file.reason]).toEqual(["CORRECT", undefined]);
    expect(file.pathSet?.values[0]).toBe(-67676.12);
  });

  it("a zero price passes the validator but cannot be scored (the network scores it −1)", () => {
    const text = response(AFTER).replace("[67676.12,", "[0,");
    const file = candidateFileFromText("BTC-a.json", text);
    expect(file.validation).toBe("CORRECT");
    expect(file.pathSet).toBeUndefined();
    expect(file.reason).toBe("path 0, point 0: expected a finite non-zero price, got 0");
  });

  it("readCandidateFile reads one file and reports an unreadable one; the folder reader takes both layouts", async () => {
    writeFileSync(join(folder, "BTC-one.json"), response(AFTER));
    writeFileSync(join(folder, "record.json"), record(AFTER));
    writeFileSync(join(folder, "notes.txt"), "not a candidate");
    expect((await readCandidateFile(join(folder, "BTC-one.json"))).validation).toBe("CORRECT");
    expect(await readCandidateFile(join(folder, "missing.json"))).toMatchObject({
      file: "missing.json",
      layout: undefined,
      reason: "cannot read the file: ENOENT",
    });
    const files = await readCandidateFolder(folder);
    expect(files.map((file) => [file.file, file.layout, file.asset, file.reason])).toEqual([
      ["BTC-one.json", "response", "BTC", undefined],
      ["record.json", "record", "ETH", undefined],
    ]);
  });

  it("the folder's reading keeps valid path sets for scoring, each taken once, within its budget", async () => {
    const files = await readCandidateFolder(folder);
    const [first, second] = files.map(takeCandidatePathSet);
    expect(second).toEqual((await readCandidateFile(join(folder, "record.json"))).pathSet);
    expect(first?.values).toEqual((await loadCandidatePathSet(files[0]))?.values);
    expect(takeCandidatePathSet(files[0])).toBeUndefined();
    // one 1h path set (61,000 prices) fits in 500,000 bytes, two do not
    const budgeted = await readCandidateFolder(folder, 500_000);
    expect(budgeted.map((file) => takeCandidatePathSet(file) !== undefined)).toEqual([true, false]);
    expect((await loadCandidatePathSet(budgeted[1]))?.values).toEqual(second?.values);
  });
});
