/**
 * `pathlab baseline` as a real child process (`node dist/cli/main.js`) against the embedded
 * sandbox it starts: one line per file, the summary with σ per asset and the commands to run next;
 * the `score --candidate` it prints places every file (the range's prompts are all scored at the
 * sandbox's clock); foreign files are kept without --force; bad
 * usage exits 2.
 */

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

const NOW = "2026-11-21T10:49:00Z";

let folder: string;
let remove: () => void;

function baselineArgs(out: string, ...extra: string[]): string[] {
  return [
    "baseline",
    "--from",
    "2026-11-21T09:20:00Z",
    "--to",
    "2026-11-21T09:45:00Z",
    "--competition",
    "crypto-1h",
    "--assets",
    "BTC,ETH",
    "--model",
    "gbm",
    "--out",
    out,
    "--now",
    NOW,
    ...["--sandbox-miners", "9"],
    ...extra,
  ];
}

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
});
afterAll(() => remove?.());

describe("pathlab baseline", () => {
  // The embedded sandbox is the point: the score command printed for it carries its --now.
  it("writes a file per prompt with one line each, the σ per asset and the next commands, which score places", async () => {
    const out = join(folder, "gbm");
    const baseline = await runPathlab(baselineArgs(out));
    expect(baseline.code, baseline.stderr).toBe(0);
    expect(baseline.stderr).toMatch(/baseline: crypto-1h: \d+ prompts/);
    const names = readdirSync(out).sort();
    expect(names.length).toBeGreaterThan(1);
    const wrote = baseline.stdout.split("\n").filter((line) => line.startsWith("wrote "));
    expect(wrote).toHaveLength(names.length);
    for (const line of wrote) {
      expect(line).toMatch(
        /^wrote .*\/(BTC|ETH)-20261121T09\d{4}Z-1h\.json {2}(BTC|ETH) 2026-11-21T09:\d\d:00Z {2}S0 [\d.]+ {2}σ\/step 0\.000\d+ \([\d.]+ %\/yr\)$/,
      );
    }
    expect(baseline.stdout).toContain(
      `pathlab baseline: gbm, ${names.length} prompts of crypto-1h (2026-11-21T09:20:00Z → 2026-11-21T09:45:00Z, embedded sandbox), ${names.length} files in ${out}, 1000 paths each, model seed 1`,
    );
    expect(baseline.stdout).toMatch(/σ used per asset/);
    expect(baseline.stdout).not.toContain("not scored yet");
    expect(baseline.stdout).toMatch(/\n {2}BTC +\d+ prompts {2}σ\/step 0\.000\d+ {2}[\d.]+ %\/yr/);
    expect(baseline.stdout).toContain(`next:\n  npx pathlab validate ${out}/*.json\n`);
    const scoreLine = baseline.stdout
      .split("\n")
      .find((line) => line.startsWith("  npx pathlab score "));
    expect(scoreLine).toBe(
      `  npx pathlab score --candidate ${out} --from 2026-11-21T09:20:00Z --to 2026-11-21T09:45:00Z --competition crypto-1h --assets BTC,ETH --now ${NOW}`,
    );
    // The printed command, as a user would run it next (with a database of the test's own).
    const args = (scoreLine as string).trim().split(" ").slice(2);
    const score = await runPathlab([...args, "--db", join(folder, "score.duckdb")]);
    expect(score.code, score.stderr).toBe(0);
    expect(score.stdout).toMatch(/candidate: smoothed [\d.]+, rank \d+ of \d+/);
    expect(score.stdout).toMatch(/\((BTC|ETH)-20261121T09\d{4}Z-1h\.json\): CRPS [\d.]+, rank \d+/);
    expect(score.stdout).not.toContain("rejected by validation");
    // Every file answers a prompt the sandbox's validator scored: each is placed.
    const placed = score.stdout.match(/-1h\.json\): CRPS [\d.]+, rank \d+ of \d+/g) ?? [];
    expect(placed).toHaveLength(names.length);
  }, 120_000);

  it("keeps a file it did not write (exit 2) unless --force, and --json prints the summary", async () => {
    const out = join(folder, "mixed");
    expect((await runPathlab(baselineArgs(out, "--model", "random-walk"))).code).toBe(0);
    const [first] = readdirSync(out).sort();
    writeFileSync(join(out, first), "[]");
    const refused = await runPathlab(baselineArgs(out));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `pathlab: baseline: ${join(out, first)} exists and was not written by pathlab baseline; pass --force to overwrite it, or choose another --out`,
    );
    expect(readFileSync(join(out, first), "utf8")).toBe("[]");
    const forced = await runPathlab(baselineArgs(out, "--force", "--json"));
    expect(forced.code, forced.stderr).toBe(0);
    const summary = JSON.parse(forced.stdout) as { replaced: number; files: unknown[] };
    expect(summary.replaced).toBe(summary.files.length);
    expect(readFileSync(join(out, first), "utf8")).toMatch(/^\{"generator":"pathlab baseline"/);
  }, 120_000);

  it("bad usage exits 2 and names the option", async () => {
    const model = await runPathlab(baselineArgs(join(folder, "x"), "--model", "garch"));
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/--model.*garch/);
    const missing = await runPathlab(["baseline", "--from", NOW, "--to", NOW, "--model", "gbm"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--competition <name>' not specified/);
    const order = await runPathlab(baselineArgs(join(folder, "y"), "--to", "2026-11-21T08:00:00Z"));
    expect(order.code).toBe(2);
    expect(order.stderr).toContain("baseline: --to: expected a time at or after --from");
  }, 60_000);
});
