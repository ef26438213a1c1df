/**
 * `pathlab validate FILE…` as a real child process (`node dist/cli/main.js`): one line per file
 * with the validator's verdict and the prompt answered, the date's format rule, --json, and the
 * exit codes (0 all pass, 1 some file fails or cannot be read, 2 bad usage).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPathlab } from "./runPathlab.ts";
import { temporaryFolder } from "../store/helpers.ts";

const AFTER = Date.UTC(2026, 10, 20, 10, 0) / 1000; // v1.10.3 rules
const BEFORE = Date.UTC(2026, 5, 20, 10, 0) / 1000; // legacy rules
let folder: string;
let remove: () => void;

/** A 1h response (1000 paths of 61 points), every price written as `price`. */
function response(start: number, price: string): string {
  const path = `[${Array(61).fill(price).join(",")}]`;
  return `[${start},60,${Array(1000).fill(path).join(",")}]`;
}

const file = (name: string) => join(folder, name);

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
  writeFileSync(file("BTC-good.json"), response(AFTER, "67676.12"));
  writeFileSync(file("ETH-digits.json"), response(AFTER, "2631.123456"));
  writeFileSync(file("SOL-float32.json"), response(AFTER, "1e39"));
  writeFileSync(file("XRP-legacy.json"), response(BEFORE, "0.51234567"));
  const record = `{"asset":"ETH","time_increment":60,"time_length":3600,"start_time":${AFTER},"predictions":[${Array(
    1000,
  )
    .fill(`[${Array(61).fill("2631.12").join(",")}]`)
    .join(",")}]}`;
  writeFileSync(file("record.json"), record);
});

afterAll(() => remove?.());

describe("pathlab validate", () => {
  it("prints CORRECT with the prompt answered and exits 0 when every file passes", async () => {
    const run = await runPathlab(["validate", file("BTC-good.json"), file("record.json")]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const width = file("BTC-good.json").length;
    expect(run.stdout).toBe(
      [
        `${file("BTC-good.json")}  CORRECT  (BTC 1h prompt at 2026-11-20T10:00:00Z, format rule v1.10.3)`,
        `${file("record.json").padEnd(width)}  CORRECT  (ETH 1h prompt at 2026-11-20T10:00:00Z, format rule v1.10.3)`,
        "",
      ].join("\n"),
    );
  });

  it("prints the validator's reason per file and exits 1 when any file fails or cannot be read", async () => {
    const names = ["ETH-digits.json", "SOL-float32.json", "XRP-legacy.json", "missing.json"];
    const run = await runPathlab(["validate", ...names.map(file)]);
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.replace(/ {2,}/g, "  "));
    expect(lines).toEqual([
      `${file("ETH-digits.json")}  Price format is incorrect: too many digits 2631.123456  (ETH 1h prompt at 2026-11-20T10:00:00Z, format rule v1.10.3)`,
      `${file("SOL-float32.json")}  Price format is incorrect: exceeds float32 range 1e+39  (SOL 1h prompt at 2026-11-20T10:00:00Z, format rule v1.10.3)`,
      `${file("XRP-legacy.json")}  Price format is incorrect: too many digits 0.51234567  (XRP 1h prompt at 2026-06-20T10:00:00Z, format rule legacy)`,
      `${file("missing.json")}  cannot read the file: ENOENT`,
    ]);
  });

  it("--at validates under the rules of another date", async () => {
    const legacyToday = await runPathlab([
      "validate",
      "--at",
      "2026-11-20T10:00:00Z",
      file("XRP-legacy.json"),
    ]);
    expect(legacyToday.code).toBe(0);
    expect(legacyToday.stdout).toContain(
      "CORRECT  (XRP 1h prompt at 2026-06-20T10:00:00Z, format rule v1.10.3)",
    );
    const floatsThen = await runPathlab([
      "validate",
      "--at",
      "2026-07-15T00:00:00Z",
      file("SOL-float32.json"),
    ]);
    expect(floatsThen.code).toBe(0);
    expect(floatsThen.stdout).toContain("format rule legacy");
  });

  it("--json prints one object per file", async () => {
    const run = await runPathlab([
      "validate",
      "--json",
      file("BTC-good.json"),
      file("ETH-digits.json"),
    ]);
    expect(run.code).toBe(1);
    const entry = (name: string, asset: string, validation: string) => ({
      file: file(name),
      layout: "response",
      asset,
      timeIncrement: 60,
      timeLength: 3600,
      startTime: "2026-11-20T10:00:00Z",
      formatRule: "v1.10.3",
      validation,
      reason: validation === "CORRECT" ? null : validation,
      ok: validation === "CORRECT",
    });
    expect(JSON.parse(run.stdout)).toEqual([
      entry("BTC-good.json", "BTC", "CORRECT"),
      entry("ETH-digits.json", "ETH", "Price format is incorrect: too many digits 2631.123456"),
    ]);
  });

  it("bad usage exits 2: no file, or an --at that is not a time", async () => {
    const none = await runPathlab(["validate"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'files'");
    const badAt = await runPathlab(["validate", "--at", "yesterday", file("BTC-good.json")]);
    expect(badAt.code).toBe(2);
    expect(badAt.stderr).toContain("--at must be an ISO 8601 time");
  });

  it("--help says it is the check to run before deploying a miner", async () => {
    const run = await runPathlab(["validate", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("The check to run before deploying a miner");
    expect(run.stdout).toContain("Exit codes: 0 every file passes, 1 some file fails");
  });
});
