/**
 * `pathlab sync --record` and `--replay` as real child processes (`node dist/cli/main.js`): a
 * recording of the embedded sandbox replayed into another DuckDB file, the one-line report of each
 * on stderr, and the options that cannot go together refused as usage errors (exit code 2).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

const NOW = "2026-02-25T23:47:00Z";
const KEY = "sk-test-cli-record-4e0b7a2f19c3";
const SELECTION = ["--assets", "BTC", "--horizons", "1h"];

let folder: string;
let remove: () => void;

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
});
afterAll(() => remove?.());

describe("pathlab sync --record / --replay", () => {
  // The embedded sandbox that the command starts, as its recording describes it, is the point.
  it("records the embedded sandbox, then replays it without the network", async () => {
    const recording = join(folder, "recording");
    const recorded = await runPathlab(
      [
        ...["sync", ...SELECTION, "--now", NOW, "--sandbox-miners", "9"],
        ...["--db", join(folder, "a.duckdb"), "--record", recording],
      ],
      { env: { PATHLAB_API_KEY: KEY } },
    );
    expect(recorded.stderr).toMatch(/sync: recorded \d+ responses into ".*recording"/);
    expect(recorded.code).toBe(0);
    const files = readdirSync(recording);
    expect(files).toContain("recording.json");
    for (const file of files) {
      expect(readFileSync(join(recording, file), "utf8")).not.toContain(KEY);
    }
    const replayed = await runPathlab([
      "sync",
      ...SELECTION,
      "--db",
      join(folder, "b.duckdb"),
      "--replay",
      recording,
      "--json",
    ]);
    // the replay says what it answers from, not that a sandbox runs
    expect(replayed.stderr).toMatch(
      /^pathlab sync: replaying .*recording \(recorded from the embedded sandbox \(seed 42, now [^,]+, 9 miners\)\)$/m,
    );
    expect(replayed.stderr).not.toMatch(/embedded sandbox at/);
    expect(replayed.stderr).toMatch(
      /sync: replayed \d+ requests from .*; every request was in the recording/,
    );
    expect(replayed.code).toBe(0);
    const summary = JSON.parse(replayed.stdout);
    expect(summary.replay.unanswered).toEqual([]);
    expect(summary.totals.stored).toBe(1);
    // the recording names the sandbox's small world, and so does the replay's summary
    const described = JSON.parse(readFileSync(join(recording, "recording.json"), "utf8"));
    expect(described.service).toMatchObject({ kind: "embedded sandbox", seed: 42, miners: 9 });
    expect(summary.service).toMatchObject({ kind: "embedded sandbox", miners: 9 });
  }, 180_000);

  it("refuses --record with --replay, and --replay with --base-url (exit code 2)", async () => {
    const database = join(folder, "usage.duckdb");
    const both = await runPathlab([
      "sync",
      ...SELECTION,
      "--db",
      database,
      "--record",
      join(folder, "x"),
      "--replay",
      join(folder, "y"),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--record and --replay cannot be used together");
    const withService = await runPathlab(
      ["score", "--from", NOW, "--to", NOW, "--db", database, "--replay", join(folder, "y")],
      { env: { PATHLAB_BASE_URL: "http://127.0.0.1:9", PATHLAB_API_KEY: KEY } },
    );
    expect(withService.code).toBe(2);
    expect(withService.stderr).toContain("cannot be used with --base-url");
  }, 60_000);
});
