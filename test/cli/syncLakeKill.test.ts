/**
 * Whole units in the lake: `pathlab sync --lake` (the built command, a real child process) is
 * killed with SIGKILL at five seeded moments while a reader queries the lake in a loop. Every
 * answer sees each unit with all of its tables or none of them, the staging folders of the killed
 * writers do not survive the next writer, and the lake of the run that completes at last equals
 * the lake of a run never interrupted. The sync talks to a small-world sandbox in this process.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SYNC_UNIT_TABLES } from "../../src/jobs/sync/lake.ts";
import { RandomStream } from "../../src/sandbox/world/randomStream.ts";
import { LAKE_MARKER, lakeTableGlob, latestRows, openLake } from "../../src/store/lake.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { sqlStringLiteral } from "../../src/store/sqlText.ts";
import { syncRowsIn } from "../jobs/storedRows.ts";
import { smallSandbox } from "./smallSandbox.ts";

const SYNC = [
  "sync",
  ...["--from", "2026-11-21T09:20:00Z", "--to", "2026-11-21T09:40:00Z"],
  ...["--assets", "BTC", "--horizons", "1h"],
];

const KILLS = 5;

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const service = smallSandbox("2026-11-21T10:00:00Z", "sk-test-sync-lake-kill-0b5e1f2a");

/**
 * The sync units a reader of `lake` counts in each table (`latestRows`, the rows the lake's views
 * read), by unit key; one statement per table, in the writer's order. As the lake's own reader
 * does, a statement whose listed file a writer removed before DuckDB read it (a unit's version two
 * back, removed when a newer one is published) runs again, once.
 */
async function unitsByTable(reader: Store, lake: string): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>();
  const files = (table: string) => sqlStringLiteral(lakeTableGlob(lake, table));
  const unitsOf = async (table: string) =>
    (
      await queryRows(
        reader,
        `select distinct _unit from (${latestRows(files(table))}) where _unit like 'sync.%'`,
      )
    ).rows.map(([unit]) => String(unit));
  for (const table of SYNC_UNIT_TABLES) {
    let units: string[];
    try {
      units = await unitsOf(table).catch((error: Error) => {
        if (!/Cannot open file/.test(error.message)) throw error;
        return unitsOf(table);
      });
    } catch (error) {
      if (!/No files found/.test((error as Error).message)) throw error;
      units = []; // no unit has a file of the table yet
    }
    for (const unit of units) seen.set(unit, [...(seen.get(unit) ?? []), table]);
  }
  return seen;
}

/** The staging folders in `lake` (`.pathlab-staging-…`), and any other hidden entry but the marker. */
function leftovers(lake: string): string[] {
  try {
    return readdirSync(lake).filter((name) => name.startsWith(".") && name !== LAKE_MARKER);
  } catch {
    return []; // not made yet
  }
}

describe("sync --lake killed at random moments", () => {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-sync-lake-kill-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("readers see each unit whole or not at all, and a rerun ends as an uninterrupted run", async () => {
    const single = join(directory, "single");
    const uninterrupted = await service.pathlab([...SYNC, "--lake", single]);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    const reader = await openStore(":memory:");
    try {
      // the tables each unit has rows in, when written whole
      const expected = await unitsByTable(reader, single);
      // BTC's 1h forecasts of the range (every 20 minutes in the sandbox)
      expect(expected.size).toBe(2);

      const lake = join(directory, "lake");
      const random = new RandomStream(43);
      const answers: string[] = [];
      let killedWithStaging = 0;
      for (let kill = 0; kill < KILLS; kill++) {
        const child = spawn(
          process.execPath,
          [join(repoRoot, "dist/cli/main.js"), ...SYNC, "--lake", lake],
          {
            env: { ...process.env, ...service.env },
            stdio: "ignore",
          },
        );
        const exited = new Promise((resolve) => child.on("exit", resolve));
        const killAtMs = uninterrupted.elapsedMs * (0.2 + 0.8 * random.uniform());
        const timer = setTimeout(() => child.kill("SIGKILL"), killAtMs);
        let running = true;
        void exited.then(() => (running = false));
        // A unit published while the reader goes table by table shows in the later tables only:
        // whole, the tables it is seen in are the last ones of its own.
        while (running) {
          for (const [unit, tables] of await unitsByTable(reader, lake)) {
            const own = expected.get(unit) ?? [];
            answers.push(unit);
            expect(own.slice(own.length - tables.length), `${unit} while writing`).toEqual(tables);
          }
          await delay(100);
        }
        clearTimeout(timer);
        // Nothing writes now: every unit is there with all of its tables, or not at all.
        for (const [unit, tables] of await unitsByTable(reader, lake)) {
          expect(tables, `${unit} after kill ${kill} at ${Math.round(killAtMs)} ms`).toEqual(
            expected.get(unit),
          );
        }
        if (leftovers(lake).length > 0) killedWithStaging++;
      }
      expect(answers.length).toBeGreaterThan(0);

      const rerun = await service.pathlab([...SYNC, "--lake", lake]);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(leftovers(lake), `${killedWithStaging} kills left staging`).toEqual([]);
      const [after, reference] = [await openLake(lake), await openLake(single)];
      try {
        expect(await syncRowsIn(after)).toEqual(await syncRowsIn(reference));
      } finally {
        await after.close();
        await reference.close();
      }
    } finally {
      await reader.close();
    }
  }, 240_000);
});
