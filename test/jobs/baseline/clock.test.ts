/**
 * `runBaseline` with the embedded sandbox it starts (no `baseUrl`): its clock (`now`) decides
 * which files answer prompts the validator has not scored yet (start + length + 90 s after it).
 */

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaseline } from "../../../src/jobs/baseline/baseline.ts";
import { temporaryFolder } from "../../store/helpers.ts";

const NOW = "2026-11-21T10:49:00Z";

let folder: string;
let remove: () => void;

beforeAll(() => ({ folder, remove } = temporaryFolder()));
afterAll(() => remove?.());

describe("runBaseline with the embedded sandbox", () => {
  it("counts the files of prompts not scored yet at the sandbox's clock", async () => {
    // 24h prompts from 10:00 to 11:30 the day before: scored by now if they started by 10:47:30.
    const summary = await runBaseline({
      from: "2026-11-20T10:00:00Z",
      to: "2026-11-20T11:30:00Z",
      competition: "crypto-24h",
      assets: ["BTC"],
      model: "gbm",
      out: join(folder, "clock"),
      now: NOW,
      seed: 42,
    });
    expect(summary.service).toMatchObject({ kind: "embedded sandbox", seed: 42 });
    const starts = summary.files.map((file) => Date.parse(file.startTime) / 1000);
    const pending = starts.filter((start) => start + 86400 + 90 > Date.parse(NOW) / 1000);
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.length).toBeLessThan(starts.length);
    expect(summary.notScoredYet).toBe(pending.length);
    expect(readdirSync(join(folder, "clock"))).toHaveLength(summary.files.length);
  }, 60_000);
});
