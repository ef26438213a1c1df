/**
 * `pathlab sync --from --to` as a child process: one line per unit with its forecast start, the
 * summary's edges said to be of the forecasts' times, a rerun with `--skip-stored` that finds
 * every unit stored, and `--watch` with a range refused as a usage error.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

const RANGE = [
  "--now",
  "2026-11-21T10:00:00Z",
  "--from",
  "2026-11-21T09:30:00Z",
  "--to",
  "2026-11-21T10:00:00Z",
  "--assets",
  "BTC",
  "--horizons",
  "1h",
];

let folder: string;
let remove: () => void;
beforeAll(() => ({ folder, remove } = temporaryFolder()));
afterAll(() => remove?.());

describe("pathlab sync --from --to", () => {
  it("syncs each forecast start of the range, and a rerun with --skip-stored fetches none", async () => {
    const lake = join(folder, "lake");
    const first = await runPathlab(["sync", ...RANGE, "--lake", lake]);
    expect(first.code, first.stderr).toBe(0);
    // BTC's 1h forecasts start every 20 minutes in the sandbox
    // two units at a time: the count is the order they end in
    expect(first.stderr).toMatch(/\[[12]\/2\] BTC 1h 2026-11-21T09:40:00Z stored: 10 path sets/);
    expect(first.stderr).toMatch(/\[[12]\/2\] BTC 1h 2026-11-21T10:00:00Z stored: 10 path sets/);
    expect(first.stdout).toContain("2/2 stored");
    expect(first.stdout).toMatch(/venue edges, each at its forecast's time: \d+ of \d+ markets/);
    const again = await runPathlab(["sync", ...RANGE, "--lake", lake, "--skip-stored"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /\[[12]\/2\] BTC 1h 2026-11-21T09:40:00Z already stored \(forecast start 2026-11-21T09:40:00Z\)/,
    );
    expect(again.stdout).toMatch(/fetched: +[\d.]+ MB in 1 request\n/);
  }, 120_000);

  it("refuses --watch with a range", async () => {
    const result = await runPathlab(["sync", "--watch", ...RANGE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "pathlab: sync: --watch follows the latest forecasts; --from/--to sync a range of the past: give one",
    );
  });
});
